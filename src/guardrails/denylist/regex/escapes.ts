/**
 * Backslash escapes in a deny-list pattern, in and out of classes. Known ones
 * mean what they mean in JavaScript; `\` before any ASCII punctuation or space
 * is that character. Anything else (`\A`, `\z`, `\h`, `\p{…}`, `\1`, `\k<…>`, an
 * escaped letter with no meaning) is refused by name rather than read as the
 * bare letter, because other regex dialects give those letters a meaning.
 */
import { PatternSyntaxError } from './syntax-error';

export type Escape =
  | { readonly kind: 'units'; readonly units: readonly number[]; readonly next: number }
  | { readonly kind: 'pred'; readonly name: string; readonly next: number }
  | { readonly kind: 'assert'; readonly name: string; readonly next: number };

const CONTROLS: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, f: 0x0c, v: 0x0b };

/** Reads the escape whose backslash is at `pos`. */
export function parseEscape(src: string, pos: number, inClass: boolean): Escape {
  const c = src[pos + 1];
  if (c === undefined) throw new PatternSyntaxError("the pattern ends with a lone '\\'", pos);
  const next = pos + 2;
  if ('dDwWsS'.includes(c)) return { kind: 'pred', name: c, next };
  if (c === 'b') return inClass ? { kind: 'units', units: [0x08], next } : { kind: 'assert', name: c, next };
  if (c === 'B') return { kind: 'assert', name: c, next };
  const control = CONTROLS[c];
  if (control !== undefined) return { kind: 'units', units: [control], next };
  if (c >= '1' && c <= '9') {
    throw new PatternSyntaxError(
      inClass ? 'octal escapes are not supported' : 'backreferences (such as \\1) are not supported',
      pos,
    );
  }
  if (c === '0') {
    if (/[0-9]/.test(src[next] ?? '')) throw new PatternSyntaxError('octal escapes are not supported', pos);
    return { kind: 'units', units: [0], next };
  }
  if (c === 'k') throw new PatternSyntaxError('backreferences (such as \\k<name>) are not supported', pos);
  if (c === 'p' || c === 'P')
    throw new PatternSyntaxError('Unicode property escapes (such as \\p{L}) are not supported', pos);
  if (c === 'x') {
    const hex = /^[0-9a-fA-F]{2}/.exec(src.slice(next, next + 2));
    if (!hex) throw new PatternSyntaxError('\\x must be followed by two hex digits', pos);
    return { kind: 'units', units: [Number.parseInt(hex[0], 16)], next: next + 2 };
  }
  if (c === 'u') return unicodeEscape(src, pos);
  const code = c.charCodeAt(0);
  if (code < 0x80 && !/[A-Za-z0-9]/.test(c) && code >= 0x20 && code !== 0x7f) {
    return { kind: 'units', units: [code], next };
  }
  const shown =
    code >= 0x20 && code < 0x7f ? `\\${c}` : `\\ followed by U+${code.toString(16).padStart(4, '0')}`;
  throw new PatternSyntaxError(`unknown escape ${shown}`, pos);
}

function unicodeEscape(src: string, pos: number): Escape {
  const start = pos + 2;
  const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(src.slice(start, start + 9));
  const plain = /^[0-9a-fA-F]{4}/.exec(src.slice(start, start + 4));
  const cp = braced ? Number.parseInt(braced[1]!, 16) : plain ? Number.parseInt(plain[0], 16) : -1;
  if (cp < 0 || cp > 0x10ffff)
    throw new PatternSyntaxError('\\u must be followed by four hex digits or {hex} up to 10FFFF', pos);
  const next = start + (braced ? braced[0].length : 4);
  const s = String.fromCodePoint(cp);
  const units = s.length === 1 ? [s.charCodeAt(0)] : [s.charCodeAt(0), s.charCodeAt(1)];
  return { kind: 'units', units, next };
}
