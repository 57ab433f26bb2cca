/**
 * A tenant's deny-list as a SpanFinder: literal terms through one Aho–Corasick
 * automaton, patterns through one linear-time program, both in a single table
 * of "longest match at each offset", so spans are chosen leftmost-longest across
 * terms and patterns alike. Compiled once per isolate per distinct list (a small
 * LRU keyed by the list's content), since the policy is read on every request.
 *
 * `validateDenyList` is the admin API's write-time check; `compileDenyList`
 * skips (and reports in `problems`) any pattern that no longer passes it, so a
 * list stored under older rules degrades to its valid part instead of failing
 * every request.
 */
import type { DenyList } from '../../core/guardrail-policy';
import { setCapped } from '../../util/capped-map';
import type { SpanFinder } from '../finding';
import { buildTermMatcher } from './aho-corasick';
import { type CheckedPattern, checkPattern, compilePatterns } from './regex/pattern';
import { longestTable, selectSpans } from './spans';

/** Span bound reported for unbounded patterns: a streamed match longer than this may be split across chunks. */
export const UNBOUNDED_SPAN = 256;
/** Instructions all of one list's patterns may compile to together (a key's list adds to its tenant's). */
export const MAX_LIST_PROGRAM = 1_024;
const CACHE_SIZE = 64;

export interface DenyFinder extends SpanFinder {
  /** Why entries were skipped (empty when the list is valid). */
  readonly problems: readonly string[];
}

interface Checked {
  readonly terms: string[];
  readonly patterns: CheckedPattern[];
  readonly problems: string[];
}

function check(list: DenyList): Checked {
  const problems: string[] = [];
  const terms: string[] = [];
  list.terms.forEach((term, i) => {
    if (term.trim() === '') problems.push(`terms[${i}]: a term must contain more than white space`);
    else terms.push(term);
  });
  const patterns: CheckedPattern[] = [];
  let size = 0;
  list.patterns.forEach((source, i) => {
    const result = checkPattern(source);
    if (!result.ok) {
      problems.push(`patterns[${i}]: ${result.error.message} (at position ${result.error.position})`);
      return;
    }
    patterns.push(result.pattern);
    size += result.pattern.size;
  });
  if (size > MAX_LIST_PROGRAM)
    problems.push(
      `patterns: together they need ${size} instructions, above the limit of ${MAX_LIST_PROGRAM}`,
    );
  return { terms, patterns, problems };
}

/** What is wrong with a deny-list, one message per entry naming its index; empty when it can be stored. */
export function validateDenyList(list: DenyList): string[] {
  return check(list).problems;
}

const cache = new Map<string, DenyFinder>();

/** The finder for `list`, compiled on first use and memoised by content. */
export function compileDenyList(list: DenyList): DenyFinder {
  const key = JSON.stringify([list.terms, list.patterns]);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const finder = build(check(list));
  setCapped(cache, key, finder, CACHE_SIZE);
  return finder;
}

/** The finder for `list`, or null when it has no terms and no patterns. */
export function denyFinderFor(list: DenyList): DenyFinder | null {
  return list.terms.length === 0 && list.patterns.length === 0 ? null : compileDenyList(list);
}

function build({ terms, patterns, problems }: Checked): DenyFinder {
  const matcher = terms.length > 0 ? buildTermMatcher(terms) : null;
  const set = patterns.length > 0 ? compilePatterns(patterns) : null;
  // Bounded patterns give their own longest match; an unbounded one contributes the documented cap.
  const patternSpan = patterns.reduce((most, p) => Math.max(most, Math.min(p.maxLength, UNBOUNDED_SPAN)), 0);
  const boundedSpan = patterns.reduce(
    (most, p) => (p.maxLength === Infinity ? most : Math.max(most, p.maxLength)),
    0,
  );
  const maxLength = Math.max(matcher?.maxLength ?? 0, patternSpan, boundedSpan, 1);
  return {
    maxLength,
    problems,
    find(text) {
      if (text.length === 0 || (!matcher && !set)) return [];
      const longest = longestTable(text.length + 1);
      // Both return 0 only when they wrote nothing, which spares the pass choosing spans.
      const work = (matcher?.fillLongest(text, longest) ?? 0) + (set?.longestMatches(text, longest) ?? 0);
      return work === 0 ? [] : selectSpans(longest, text.length, maxLength);
    },
  };
}
