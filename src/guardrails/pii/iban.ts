/**
 * IBANs: two capital letters, two check digits and the country's BBAN, solid
 * (`DE89370400440532013000`) or in the printed groups of four
 * (`DE89 3704 0044 0532 0130 00`), at exactly the country's length and with a
 * valid mod-97 checksum. Capitals only: a lower-case run of letters and digits
 * is far more often an identifier than an IBAN.
 */
import { charSet } from './char-set';
import { ibanChecksumValid } from './checksums';
import { type Detector, patternDetector } from './detector';
import { IBAN_LENGTHS } from './iban-countries';

// Solid or grouped, never both: optional spaces between runs of 1–4 would split one IBAN in many ways.
const IBAN =
  /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[A-Z0-9]{10,30}|(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,4})?)(?![A-Za-z0-9])/g;

function checkIban(text: string, start: number, end: number): number {
  const length = IBAN_LENGTHS.get(text.slice(start, start + 2));
  if (length === undefined) return -1;
  // The first `length` characters, spaces skipped; a grouped IBAN followed by another group ends early.
  let seen = 0;
  let at = start;
  while (at < end && seen < length) if (text.charCodeAt(at++) !== 32) seen++;
  if (seen < length || (at < end && text.charCodeAt(at) !== 32)) return -1;
  return ibanChecksumValid(text, start, at) ? at : -1;
}

export const ibanDetector: Detector = patternDetector({
  kind: 'iban',
  rank: 40,
  maxLength: 4 + 7 * 5 + 5,
  pattern: IBAN,
  check: checkIban,
  tail: { chars: charSet('A-Z0-9 '), starts: charSet('A-Z') },
});
