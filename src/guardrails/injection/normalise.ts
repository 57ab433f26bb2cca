/**
 * Character normalisation for the injection detector, one UTF-16 code unit at a
 * time so the scan allocates nothing per character: case folding (Latin, Greek,
 * Cyrillic), fullwidth ASCII to ASCII, digits to `0`, invisible format
 * characters dropped (zero-width spaces and joiners are a cheap way to split a
 * trigger word), and a class per unit: word character, CJK ideograph (a word on
 * its own, since those scripts put no spaces between words), punctuation,
 * space, or skipped.
 */

export const SKIP = 0;
export const SPACE = 1;
export const PUNCT = 2;
export const WORD = 3;
export const IDEOGRAPH = 4;

/** The placeholder an astral character (emoji, symbols) folds to; its low surrogate is skipped. */
export const ASTRAL = 0xfffd;

/** Case folding for the first 0x530 code points (Latin, Greek, Cyrillic), built once per isolate. */
const FOLD_LIMIT = 0x530;
const FOLD = new Uint16Array(FOLD_LIMIT);
for (let c = 0; c < FOLD_LIMIT; c++) {
  const lower = String.fromCharCode(c).toLowerCase();
  FOLD[c] = lower.length === 1 ? lower.charCodeAt(0) : c;
}
for (let c = 0x30; c <= 0x39; c++) FOLD[c] = 0x30;

/** The folded code unit for `c` (call `charClass` on the original first). */
export function fold(c: number): number {
  if (c < FOLD_LIMIT) return FOLD[c]!;
  if (c >= 0xff01 && c <= 0xff5e) return FOLD[c - 0xfee0]!;
  if (c >= 0xd800 && c <= 0xdbff) return ASTRAL;
  return c;
}

function isSpace(c: number): boolean {
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

function isFormat(c: number): boolean {
  return (
    c === 0xad ||
    c === 0x180e ||
    (c >= 0x200b && c <= 0x200f) ||
    (c >= 0x2060 && c <= 0x2064) ||
    c === 0xfeff ||
    (c >= 0xdc00 && c <= 0xdfff)
  );
}

function isIdeograph(c: number): boolean {
  return (c >= 0x3040 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff);
}

/** The class of one UTF-16 code unit, before folding. */
export function charClass(c: number): number {
  if (c < 0x80) {
    if (c <= 0x20 || c === 0x7f) return SPACE;
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39)) return WORD;
    return PUNCT;
  }
  if (c >= 0xff01 && c <= 0xff5e) return charClass(c - 0xfee0);
  if (isFormat(c)) return SKIP;
  if (isSpace(c)) return SPACE;
  if (c <= 0xbf || (c >= 0x2010 && c <= 0x2bff) || (c >= 0x3000 && c <= 0x303f)) return PUNCT;
  if (c === 0xd7 || c === 0xf7) return PUNCT;
  if (c >= 0xd800 && c <= 0xdbff) return PUNCT;
  if (isIdeograph(c)) return IDEOGRAPH;
  return WORD;
}
