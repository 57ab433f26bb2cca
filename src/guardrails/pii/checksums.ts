/**
 * The checksums that tell a real payment card or IBAN from a number of the
 * same shape: Luhn (ISO/IEC 7812) over the digits and ISO 7064 mod 97-10 over
 * the rearranged IBAN. Both read the text in place, skipping separators, with
 * no allocation.
 */

const isDigit = (c: number) => c >= 48 && c <= 57;

/** Luhn over the digits of text[start, end) (other characters skipped). */
export function luhnValid(text: string, start: number, end: number): boolean {
  let sum = 0;
  let double = false;
  let digits = 0;
  for (let i = end - 1; i >= start; i--) {
    const c = text.charCodeAt(i);
    if (!isDigit(c)) continue;
    let d = c - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
    digits++;
  }
  return digits > 0 && sum % 10 === 0;
}

/** Value of an IBAN character in the mod-97 rearrangement: 0–9 as is, A–Z as 10–35; -1 otherwise. */
function ibanValue(c: number): number {
  if (isDigit(c)) return c - 48;
  if (c >= 65 && c <= 90) return c - 55;
  return -1;
}

/** Folds one character's value into a running mod-97 remainder (letters count as two digits). */
function fold(rem: number, v: number): number {
  return v < 10 ? (rem * 10 + v) % 97 : (rem * 100 + v) % 97;
}

/**
 * ISO 13616 check: the first four characters moved to the end, letters as numbers, remainder 1 mod 97.
 * Reads text[start, end), skipping spaces; false on any other character.
 */
export function ibanChecksumValid(text: string, start: number, end: number): boolean {
  const chars: number[] = [];
  for (let i = start; i < end && chars.length < 4; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32) chars.push(c);
  }
  if (chars.length < 4) return false;
  let rem = 0;
  let seen = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) continue;
    if (seen++ < 4) continue;
    const v = ibanValue(c);
    if (v < 0) return false;
    rem = fold(rem, v);
  }
  for (const c of chars) {
    const v = ibanValue(c);
    if (v < 0) return false;
    rem = fold(rem, v);
  }
  return rem === 1;
}
