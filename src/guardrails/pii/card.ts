/**
 * Payment card numbers: 13–19 digits, written solid or in groups separated by
 * one kind of separator (a space or a dash) in the shapes cards are printed in
 * (fours, Amex 4-6-5, Diners 4-6-4), in a known IIN range at a length its
 * network issues, and Luhn-valid. When a run of groups fails, the same run
 * without its trailing groups is tried, so a card followed by another number
 * is still found. A card written right after another group of four digits
 * (two cards separated by a single space) is not: that is how IBANs look.
 */
import { cardNetwork } from './card-networks';
import { charSet } from './char-set';
import { luhnValid } from './checksums';
import { type Detector, patternDetector } from './detector';

// Each repetition consumes exactly one digit, so the body is unambiguous: an attempt costs at most 19 steps back.
// Not glued to a word or number, and not right after a group of four capitals and digits holding a digit
// (inside an IBAN, whose tail groups often pass Luhn by chance).
const AFTER_GROUP = '[A-Z0-9]{3}\\d |[A-Z0-9]{2}\\d[A-Z0-9] |[A-Z0-9]\\d[A-Z0-9]{2} |\\d[A-Z0-9]{3} ';
const CARD = new RegExp(`(?<![\\w.,\\-]|${AFTER_GROUP})\\d(?:[ \\-]?\\d){12,18}(?![\\w]|[.,]\\d)`, 'g');

const SEPARATORS = /[ -]/g;
const isDigit = (c: number) => c >= 48 && c <= 57;

function checkCard(text: string, start: number, end: number): number {
  const ends: number[] = []; // end of each digit group
  const lengths: number[] = [];
  let separator = -1;
  let length = 0;
  for (let i = start; i <= end; i++) {
    const c = i < end ? text.charCodeAt(i) : -1;
    if (isDigit(c)) {
      length++;
      continue;
    }
    ends.push(i);
    lengths.push(length);
    length = 0;
    if (c === -1) break;
    if (separator === -1) separator = c;
    else if (separator !== c) return -1;
  }
  for (let k = ends.length; k >= 1; k--) {
    const span = ends[k - 1]!;
    if (printedShape(lengths, k) && isCard(text, start, span)) return span;
  }
  return -1;
}

/** Groups 0..k-1 are one solid number, or fours (the last may be shorter), or 4-6-5 / 4-6-4. */
function printedShape(lengths: readonly number[], k: number): boolean {
  if (k === 1) return true;
  if (k === 3 && lengths[0] === 4 && lengths[1] === 6 && (lengths[2] === 5 || lengths[2] === 4)) return true;
  for (let i = 0; i < k - 1; i++) if (lengths[i] !== 4) return false;
  return lengths[k - 1]! >= 1 && lengths[k - 1]! <= 4;
}

function isCard(text: string, start: number, end: number): boolean {
  if (!luhnValid(text, start, end)) return false;
  const digits = text.slice(start, end).replace(SEPARATORS, '');
  return digits.length >= 13 && digits.length <= 19 && cardNetwork(digits) !== null;
}

export const cardDetector: Detector = patternDetector({
  kind: 'card',
  rank: 38,
  maxLength: 19 + 18,
  lookbehind: 5,
  pattern: CARD,
  check: checkCard,
  tail: { chars: charSet('0-9 .,-'), starts: charSet('0-9') },
});
