/**
 * Per-code-unit character facts shared by the term automaton and the pattern
 * engine: case folding, word characters, digits, white space. Everything works
 * on UTF-16 code units so that offsets into a folded text are offsets into the
 * original (a Finding is a range of UTF-16 offsets).
 *
 * Case folding is Unicode's simple case folding, derived from the runtime's own
 * case mappings (lower(upper(c)) when both stay one code unit), so 'K', 'k' and
 * the Kelvin sign, or 'σ', 'ς' and 'Σ', fold together, while mappings that change
 * the length (ß → SS, İ → i̇) leave the character alone. Characters outside the
 * Basic Multilingual Plane (surrogate pairs) are not folded. The fold table is
 * filled lazily, once per isolate, so no call allocates after a character's
 * first sighting.
 */

const FOLD = new Uint16Array(0x10000); // 0: not computed yet (U+0000 folds to itself through the ASCII path)
const WORD = new Uint8Array(0x10000); // 0: not computed, 1: not a word character, 2: a word character
const WORD_RE = /^[\p{L}\p{M}\p{N}\p{Pc}]$/u;
const astralWord = new Map<number, boolean>();

function computeFold(c: number): number {
  // U+0131 (dotless i) upper-cases to ASCII I, but simple case folding keeps it apart from i.
  if (c === 0x131 || (c >= 0xd800 && c <= 0xdfff)) return c;
  const ch = String.fromCharCode(c);
  const upper = ch.toUpperCase();
  if (upper.length === 1) {
    const lower = upper.toLowerCase();
    if (lower.length === 1) return lower.charCodeAt(0);
  }
  const lower = ch.toLowerCase();
  return lower.length === 1 ? lower.charCodeAt(0) : c;
}

/** The simple case fold of one UTF-16 code unit. */
export function foldUnit(c: number): number {
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
  const known = FOLD[c]!;
  if (known !== 0) return known;
  const folded = computeFold(c);
  FOLD[c] = folded;
  return folded;
}

/** Folds a whole string (same length: one code unit per code unit). Build time only. */
export function foldString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += String.fromCharCode(foldUnit(s.charCodeAt(i)));
  return out;
}

/** A word character: a letter, mark, number or connector punctuation (such as `_`), as in Unicode's \w. */
export function isWordCodePoint(cp: number): boolean {
  if (cp < 0x80)
    return (
      (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f
    );
  if (cp < 0x10000) {
    const known = WORD[cp]!;
    if (known !== 0) return known === 2;
    const word = cp < 0xd800 || cp > 0xdfff ? WORD_RE.test(String.fromCharCode(cp)) : false;
    WORD[cp] = word ? 2 : 1;
    return word;
  }
  let word = astralWord.get(cp);
  if (word === undefined) {
    word = WORD_RE.test(String.fromCodePoint(cp));
    if (astralWord.size < 4096) astralWord.set(cp, word);
  }
  return word;
}

/** Whether the code point that starts at `i` is a word character (false at the end of the text). */
export function isWordAt(text: string, i: number): boolean {
  return i < text.length && isWordCodePoint(text.codePointAt(i)!);
}

/** Whether the code point that ends at `i` is a word character (false at the start of the text). */
export function isWordBefore(text: string, i: number): boolean {
  if (i <= 0) return false;
  const low = text.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = text.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff)
      return isWordCodePoint(((high - 0xd800) << 10) + (low - 0xdc00) + 0x10000);
  }
  return isWordCodePoint(low);
}

/** `\w` on one code unit (surrogate halves are not word characters on their own). */
export const isWordUnit = (c: number): boolean => isWordCodePoint(c);

/** `\d`: the ASCII digits only, as in JavaScript. */
export const isDigitUnit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** `\s`: JavaScript's white space and line terminators. */
export function isSpaceUnit(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** What `.` does not match: JavaScript's line terminators. */
export const isLineTerminator = (c: number): boolean =>
  c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
