/**
 * E-mail addresses: a local part (up to 64 characters, starting with a letter
 * or digit), `@`, one to eight domain labels and a letter-only top-level
 * domain. A trailing sentence dot is left out; a domain whose last label is a
 * file extension (`icon@2x.png`) is not an address.
 */
import { charSet } from './char-set';
import { type Detector, patternDetector } from './detector';

const LOCAL = 'A-Za-z0-9._%+\\-';
const EMAIL = new RegExp(
  `(?<![${LOCAL}])[A-Za-z0-9][${LOCAL}]{0,63}@(?:[A-Za-z0-9\\-]{1,63}\\.){1,8}[A-Za-z]{2,24}` +
    '(?![A-Za-z0-9\\-]|\\.[A-Za-z0-9])',
  'g',
);

const FILE_EXTENSIONS = new Set(
  'png jpg jpeg gif svg webp ico bmp tif tiff css js mjs ts json html htm txt pdf zip gz tgz mp3 mp4 wav woff woff2'.split(
    ' ',
  ),
);

function checkEmail(text: string, _start: number, end: number): number {
  const dot = text.lastIndexOf('.', end - 1);
  return FILE_EXTENSIONS.has(text.slice(dot + 1, end).toLowerCase()) ? -1 : end;
}

export const emailDetector: Detector = patternDetector({
  kind: 'email',
  rank: 34,
  maxLength: 64 + 1 + 8 * 64 + 24,
  pattern: EMAIL,
  needs: ['@'],
  check: checkEmail,
  tail: { chars: charSet('A-Za-z0-9._%+@-'), starts: charSet('A-Za-z0-9') },
});
