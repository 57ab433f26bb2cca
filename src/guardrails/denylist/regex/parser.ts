/**
 * Parses a deny-list pattern into its AST, or says why it is refused and where
 * (a 0-based offset into the pattern). The accepted syntax is the part of
 * JavaScript's regular expressions that a linear-time engine can run: literals,
 * escapes, classes, `.`, groups, alternation, greedy and lazy quantifiers and
 * bounded repeats, `^ $ \b \B`. Backreferences, lookaround, possessive
 * quantifiers, inline flags other than a leading `(?i)` and anything ambiguous
 * between regex dialects (`[]`, a literal `{`) are refused rather than guessed.
 */
import type { Node } from './ast';
import { PREDICATES, parseClass } from './class-parser';
import { parseEscape } from './escapes';
import { type PatternError, PatternSyntaxError } from './syntax-error';

export type ParseResult =
  | { readonly ok: true; readonly node: Node }
  | { readonly ok: false; readonly error: PatternError };

/** The largest count a `{m,n}` repeat may name. */
export const MAX_REPEAT = 1000;
const MAX_NESTING = 100;

export function parsePattern(source: string): ParseResult {
  try {
    return { ok: true, node: new Parser(source).parse() };
  } catch (error) {
    if (error instanceof PatternSyntaxError)
      return { ok: false, error: { message: error.message, position: error.position } };
    throw error;
  }
}

class Parser {
  private i = 0;
  private depth = 0;

  constructor(private readonly src: string) {}

  parse(): Node {
    // Patterns are always case-insensitive; a leading (?i) says so and changes nothing.
    if (this.src.startsWith('(?i)')) this.i = 4;
    const node = this.alternation();
    if (this.i < this.src.length) throw new PatternSyntaxError("unmatched ')'", this.i);
    return node;
  }

  private alternation(): Node {
    const items = [this.sequence()];
    while (this.src[this.i] === '|') {
      this.i++;
      items.push(this.sequence());
    }
    return items.length === 1 ? items[0]! : { type: 'alt', items };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      items.push(this.repeat());
    }
    if (items.length === 0) return { type: 'empty' };
    return items.length === 1 ? items[0]! : { type: 'concat', items };
  }

  private repeat(): Node {
    const atom = this.atom();
    const pos = this.i;
    const bounds = this.quantifier();
    if (!bounds) return atom;
    if (atom.type === 'assert')
      throw new PatternSyntaxError('an anchor or word boundary cannot be repeated', pos);
    if (this.src[this.i] === '?')
      this.i++; // Lazy: accepted as greedy, since a deny-list needs only the longest span.
    else if (this.src[this.i] === '+')
      throw new PatternSyntaxError('possessive quantifiers (such as *+) are not supported', pos);
    if (this.quantifierAhead())
      throw new PatternSyntaxError('a quantifier cannot follow another quantifier', this.i);
    return { type: 'repeat', body: atom, min: bounds[0], max: bounds[1], pos };
  }

  private quantifierAhead(): boolean {
    const c = this.src[this.i];
    return c === '*' || c === '+' || c === '?' || c === '{';
  }

  private quantifier(): [number, number] | null {
    const c = this.src[this.i];
    if (c === '*' || c === '+' || c === '?') {
      this.i++;
      return c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    }
    if (c !== '{') return null;
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i, this.i + 16));
    if (!m) throw new PatternSyntaxError(BRACE_MESSAGE, this.i);
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT))
      throw new PatternSyntaxError(`repeat count above ${MAX_REPEAT}`, this.i);
    if (max < min)
      throw new PatternSyntaxError('repeat range out of order (the minimum is above the maximum)', this.i);
    this.i += m[0].length;
    return [min, max];
  }

  private atom(): Node {
    const start = this.i;
    const c = this.src.charCodeAt(this.i);
    this.i++;
    switch (this.src[start]) {
      case '(':
        return this.group(start);
      case '[': {
        const parsed = parseClass(this.src, start);
        this.i = parsed.next;
        return { type: 'class', spec: parsed.spec };
      }
      case '.':
        return { type: 'any' };
      case '^':
        return { type: 'assert', kind: 'start' };
      case '$':
        return { type: 'assert', kind: 'end' };
      case '\\': {
        const esc = parseEscape(this.src, start, false);
        this.i = esc.next;
        if (esc.kind === 'pred')
          return { type: 'class', spec: { ranges: [], preds: PREDICATES[esc.name]!, negated: false } };
        if (esc.kind === 'assert') return { type: 'assert', kind: esc.name === 'b' ? 'word' : 'not-word' };
        return unitsNode(esc.units);
      }
      case '*':
      case '+':
      case '?':
        throw new PatternSyntaxError(`nothing to repeat before '${this.src[start]}'`, start);
      case '{':
        throw new PatternSyntaxError(BRACE_MESSAGE, start);
    }
    const next = this.src.charCodeAt(this.i);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      this.i++;
      return unitsNode([c, next]);
    }
    return { type: 'char', unit: c };
  }

  private group(start: number): Node {
    if (++this.depth > MAX_NESTING)
      throw new PatternSyntaxError(`groups nested more than ${MAX_NESTING} deep`, start);
    if (this.src[this.i] === '?') {
      const rest = this.src.slice(this.i + 1, this.i + 3);
      const named = /^(P?<[A-Za-z_][A-Za-z0-9_]*>)/.exec(this.src.slice(this.i + 1, this.i + 40));
      if (rest[0] === ':') this.i += 2;
      else if (named) this.i += 1 + named[1]!.length;
      else if (rest[0] === '=' || rest[0] === '!')
        throw new PatternSyntaxError('lookahead is not supported', start);
      else if (rest === '<=' || rest === '<!')
        throw new PatternSyntaxError('lookbehind is not supported', start);
      else if (rest[0] === '>') throw new PatternSyntaxError('atomic groups are not supported', start);
      else if (/^[a-zA-Z-]/.test(rest))
        throw new PatternSyntaxError(
          'inline flags are not supported (patterns are always case-insensitive; only a leading (?i) is accepted)',
          start,
        );
      else throw new PatternSyntaxError(`unsupported group syntax '(?${rest[0] ?? ''}'`, start);
    }
    const body = this.alternation();
    if (this.src[this.i] !== ')')
      throw new PatternSyntaxError("missing ')' for the group opened here", start);
    this.i++;
    this.depth--;
    return body;
  }
}

const BRACE_MESSAGE =
  "'{' must start a repeat such as {2}, {2,} or {2,5} after something to repeat; write \\{ for a brace";

function unitsNode(units: readonly number[]): Node {
  const chars: Node[] = units.map((unit) => ({ type: 'char', unit }));
  return chars.length === 1 ? chars[0]! : { type: 'concat', items: chars };
}
