/**
 * Bracketed classes in a deny-list pattern: `[abc]`, `[^a-z]`, `[\d_.-]`. A `-`
 * first or last is literal. Forms that other regex dialects read differently
 * are refused rather than guessed: `[]` and `[^]`, POSIX `[:alpha:]`, a range
 * with a built-in class at one end (`[\d-z]`), and characters outside the Basic
 * Multilingual Plane (the engine reads UTF-16 code units).
 */
import {
  type ClassSpec,
  PRED_DIGIT,
  PRED_NOT_DIGIT,
  PRED_NOT_SPACE,
  PRED_NOT_WORD,
  PRED_SPACE,
  PRED_WORD,
} from './ast';
import { parseEscape } from './escapes';
import { PatternSyntaxError } from './syntax-error';

/** The PRED_* bit of each built-in class escape letter. */
export const PREDICATES: Readonly<Record<string, number>> = {
  d: PRED_DIGIT,
  D: PRED_NOT_DIGIT,
  w: PRED_WORD,
  W: PRED_NOT_WORD,
  s: PRED_SPACE,
  S: PRED_NOT_SPACE,
};

const ASTRAL = 'characters outside the Basic Multilingual Plane cannot be in a class';

/** Parses the class whose `[` is at `start`; `next` is the offset after its `]`. */
export function parseClass(src: string, start: number): { spec: ClassSpec; next: number } {
  const spec: ClassSpec = { ranges: [], preds: 0, negated: false };
  let i = start + 1;
  if (src[i] === '^') {
    spec.negated = true;
    i++;
  }
  if (src[i] === ']')
    throw new PatternSyntaxError("empty class '[]' (write \\] to put ']' in a class)", start);

  /** One member at i: a code unit, or a built-in class such as \d. */
  const member = (): number | { pred: number } => {
    const pos = i;
    const c = src.charCodeAt(pos);
    if (c === 0x5b && /[:=.]/.test(src[pos + 1] ?? ''))
      throw new PatternSyntaxError('POSIX classes such as [:alpha:] are not supported', pos);
    if (c === 0x5c) {
      const esc = parseEscape(src, pos, true);
      i = esc.next;
      if (esc.kind === 'pred') return { pred: PREDICATES[esc.name]! };
      if (esc.kind === 'assert') throw new PatternSyntaxError('\\B has no meaning inside a class', pos);
      if (esc.units.length > 1) throw new PatternSyntaxError(ASTRAL, pos);
      return esc.units[0]!;
    }
    if (c >= 0xd800 && c <= 0xdbff) throw new PatternSyntaxError(ASTRAL, pos);
    i++;
    return c;
  };

  while (src[i] !== ']') {
    if (i >= src.length) throw new PatternSyntaxError("missing ']' for the class opened here", start);
    const pos = i;
    const first = member();
    if (src[i] === '-' && i + 1 < src.length && src[i + 1] !== ']') {
      i++;
      const second = member();
      if (typeof first !== 'number' || typeof second !== 'number')
        throw new PatternSyntaxError('a range cannot start or end with a class such as \\d', pos);
      if (second < first) throw new PatternSyntaxError('class range out of order', pos);
      spec.ranges.push(first, second);
    } else if (typeof first === 'number') spec.ranges.push(first, first);
    else spec.preds |= first.pred;
  }
  return { spec, next: i + 1 };
}
