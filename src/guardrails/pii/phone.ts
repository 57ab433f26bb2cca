/**
 * Phone numbers, with precision first: a number is a phone only in a shape
 * people write phones in. International (E.164): `+`, country code, 8–15
 * digits in all, separated or not. North American: (NXX) NXX-XXXX, NXX-NXX-XXXX,
 * NXX.NXX.XXXX or NXX NXX XXXX, optionally after 1. National with a trunk 0
 * (`020 7946 0958`, `01 23 45 67 89`, `(030) 1234567`): 9–11 digits in at
 * least two groups with one kind of separator, and neither a date nor shaped
 * like an SSN (3-2-4). A bare run of
 * digits without `+` is never a phone (order numbers, ids), nor is anything
 * glued to a word, a price, a path or a longer number.
 */
import { charSet } from './char-set';
import { type Detector, patternDetector } from './detector';

// The whole run is taken atomically (a look-ahead capture), so a number that fails never leaves a shorter match.
const RUN = '(?:\\+[1-9]\\d{0,2}[ .\\-]?)?(?:\\(\\d{1,4}\\)[ .\\-]?)?\\d{1,14}(?:[ .\\-]\\d{1,8}){0,7}';
// Not glued to a word, price or path; without `+`, not right after another group of digits (a longer number)
// or a group of four capitals and digits (the middle of an IBAN).
const PHONE = new RegExp(
  `(?<![\\w+@$€£¥#%/.,=\\-])(?:(?=\\+)|(?<!\\d[ .\\-]|[A-Z0-9]{4} ))(?=(${RUN}))\\1(?![\\w@%]|[.,:\\-/]\\d)`,
  'g',
);

const isDigit = (c: number) => c >= 48 && c <= 57;
const DATE = /^(?:\d{1,2}[./-]\d{1,2}[./-](?:19|20)\d\d|(?:19|20)\d\d[./-]\d{1,2}[./-]\d{1,2})/;

function checkPhone(text: string, start: number, end: number): number {
  let digits = 0;
  if (text.charCodeAt(start) === 43) {
    for (let i = start; i < end; i++) if (isDigit(text.charCodeAt(i))) digits++;
    return digits >= 8 && digits <= 15 ? end : -1;
  }
  const groups: number[] = []; // start of each digit group
  const lengths: number[] = [];
  let separator = -1;
  let mixed = false;
  let parenthesised = false;
  for (let i = start; i < end; ) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) {
      let j = i + 1;
      while (j < end && isDigit(text.charCodeAt(j))) j++;
      groups.push(i);
      lengths.push(j - i);
      digits += j - i;
      i = j;
      continue;
    }
    if (c === 41) parenthesised = true;
    else if (c !== 40 && text.charCodeAt(i - 1) !== 41) {
      if (separator === -1) separator = c;
      else if (separator !== c) mixed = true;
    }
    i++;
  }
  if (groups.length < 2) return -1;
  if (northAmerican(text, groups, lengths)) return end;
  const first = groups[0]!;
  const national =
    text.charCodeAt(first) === 48 &&
    text.charCodeAt(first + 1) !== 48 &&
    digits >= 9 &&
    digits <= 11 &&
    lengths.every((n) => n >= 2) &&
    !(lengths.length === 3 && lengths[0] === 3 && lengths[1] === 2 && lengths[2] === 4) &&
    (parenthesised || !mixed) &&
    !DATE.test(text.slice(start, end));
  return national ? end : -1;
}

/** NXX NXX XXXX, optionally after a 1: area code and exchange start with 2–9. */
function northAmerican(text: string, groups: number[], lengths: number[]): boolean {
  let k = 0;
  if (groups.length === 4 && lengths[0] === 1 && text.charCodeAt(groups[0]!) === 49) k = 1;
  if (groups.length - k !== 3 || lengths[k] !== 3 || lengths[k + 1] !== 3 || lengths[k + 2] !== 4)
    return false;
  return text.charCodeAt(groups[k]!) >= 50 && text.charCodeAt(groups[k + 1]!) >= 50;
}

export const phoneDetector: Detector = patternDetector({
  kind: 'phone',
  rank: 30,
  maxLength: 5 + 7 + 14 + 7 * 9,
  lookbehind: 5,
  pattern: PHONE,
  check: checkPhone,
  tail: { chars: charSet('0-9 ()+.,:/-'), starts: charSet('0-9(+') },
});
