/**
 * US Social Security numbers written AAA-GG-SSSS (dashes only: nine bare
 * digits or a spaced form are more often something else), with the ranges the
 * SSA never issues refused: area 000, 666 and 900–999, group 00, serial 0000.
 */
import { charSet } from './char-set';
import { type Detector, patternDetector } from './detector';

const SSN = /(?<![\w\-/.])\d{3}-\d{2}-\d{4}(?![\w\-/]|\.\d)/g;

function checkSsn(text: string, start: number, end: number): number {
  const area = text.slice(start, start + 3);
  if (area === '000' || area === '666' || area[0] === '9') return -1;
  if (text.startsWith('00', start + 4) || text.startsWith('0000', start + 7)) return -1;
  return end;
}

export const ssnDetector: Detector = patternDetector({
  kind: 'ssn',
  rank: 36,
  maxLength: 11,
  pattern: SSN,
  needs: ['-'],
  check: checkSsn,
  tail: { chars: charSet('0-9.-'), starts: charSet('0-9') },
});
