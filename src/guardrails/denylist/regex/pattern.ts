/**
 * The pattern engine's entry points: check one pattern (parse, size cap, refuse
 * what matches empty text) and compile a checked set into one backward program
 * run by the Pike VM. A deny-list compiles all its patterns together; by default
 * behind the literal prefilter (prefilter.ts), which runs a pattern only near
 * the literals every one of its matches contains.
 */
import { matchesEmpty, maxMatchLength, type Node } from './ast';
import { compileProgram, MAX_PROGRAM_SIZE, programSize } from './compile';
import { parsePattern } from './parser';
import { type LongestMatches, pikeVm } from './pike';
import { prefilteredMatches } from './prefilter';
import { type PatternError, PatternSyntaxError } from './syntax-error';

export type { PatternError } from './syntax-error';
export { MAX_PROGRAM_SIZE } from './compile';
export { MAX_REPEAT } from './parser';

export interface CheckedPattern {
  readonly node: Node;
  /** Instructions it compiles to. */
  readonly size: number;
  /** Its longest possible match in UTF-16 code units; Infinity when unbounded. */
  readonly maxLength: number;
}

export type PatternCheck =
  | { readonly ok: true; readonly pattern: CheckedPattern }
  | { readonly ok: false; readonly error: PatternError };

export function checkPattern(source: string, cap = MAX_PROGRAM_SIZE): PatternCheck {
  const parsed = parsePattern(source);
  if (!parsed.ok) return parsed;
  const { node } = parsed;
  try {
    const size = programSize(node, cap);
    if (matchesEmpty(node)) {
      return {
        ok: false,
        error: { message: 'the pattern can match empty text, so it would match everywhere', position: 0 },
      };
    }
    return { ok: true, pattern: { node, size, maxLength: maxMatchLength(node) } };
  } catch (error) {
    if (error instanceof PatternSyntaxError)
      return { ok: false, error: { message: error.message, position: error.position } };
    throw error;
  }
}

export interface PatternSet {
  /** The longest match of any pattern; Infinity when one is unbounded. */
  readonly maxLength: number;
  /** Raises `longest[p]` to the end of the longest match starting at p; returns the steps taken. */
  readonly longestMatches: LongestMatches;
}

export interface PatternSetOptions {
  /** Gate patterns on their required literals (default true); false runs one program over every text. */
  readonly prefilter?: boolean;
}

export function compilePatterns(
  patterns: readonly CheckedPattern[],
  options: PatternSetOptions = {},
): PatternSet {
  const nodes = patterns.map((p) => p.node);
  return {
    maxLength: patterns.reduce((most, p) => Math.max(most, p.maxLength), 0),
    longestMatches: (options.prefilter ?? true) ? prefilteredMatches(nodes) : pikeVm(compileProgram(nodes)),
  };
}
