/**
 * ASCII character sets as lookup tables, built once per isolate: what the
 * detectors' streaming holds test character by character (a table lookup, no
 * regular expression and no allocation per character). Non-ASCII characters
 * are in no set: no detector's value contains one.
 */

export type CharSet = Uint8Array;

/** A set from a spec of characters and ranges, e.g. `A-Za-z0-9._-` (a `-` last or first is literal). */
export function charSet(spec: string): CharSet {
  const set = new Uint8Array(128);
  for (let i = 0; i < spec.length; i++) {
    const from = spec.charCodeAt(i);
    if (spec[i + 1] === '-' && i + 2 < spec.length) {
      const to = spec.charCodeAt(i + 2);
      for (let c = from; c <= to; c++) set[c] = 1;
      i += 2;
    } else set[from] = 1;
  }
  return set;
}

export function inSet(set: CharSet, code: number): boolean {
  return code < 128 && set[code] === 1;
}

/** Whitespace as `\s` sees it in ASCII (space, tab, line feed, vertical tab, form feed, carriage return). */
export const SPACE_CHARS = ' \t\n\u000b\f\r';
