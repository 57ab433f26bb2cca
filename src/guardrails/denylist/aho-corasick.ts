/**
 * Literal deny-list terms, found with an Aho–Corasick automaton: built once per
 * list into compact typed arrays, then one pass over the text, linear in its
 * length (plus the matches reported), whatever the terms.
 *
 * Matching is case-insensitive by simple case folding (see chars.ts), per UTF-16
 * code unit, without Unicode normalisation. Whole words by default: a term that
 * starts with a word character only matches where the text has no word character
 * just before it, and one that ends with a word character only where none follows,
 * so "ass" never fires inside "class" or "assert", while a term such as "$$$" or
 * "@evil" is still found between other characters on its non-word side.
 */
import { foldString, foldUnit, isWordAt, isWordBefore } from './chars';

const NEEDS_WORD_START = 1;
const NEEDS_WORD_END = 2;

export interface TermMatcherOptions {
  /** Require word boundaries at a term's word-character ends (default true). */
  readonly wholeWords?: boolean;
}

export interface TermMatcher {
  /** The longest term, in UTF-16 code units: the longest span this matcher reports. */
  readonly maxLength: number;
  /**
   * Calls `onMatch` for every occurrence of every term (overlaps included), in order of end offset; `term`
   * is the index in `terms` of the first term with that folded text.
   */
  forEach(text: string, onMatch: (start: number, end: number, term: number) => void): void;
  /** Raises `longest[start]` to the end of the longest term found at each start offset; returns the count found. */
  fillLongest(text: string, longest: Int32Array): number;
}

/** Builds the automaton for `terms` (duplicates after folding count once). */
export function buildTermMatcher(terms: readonly string[], options: TermMatcherOptions = {}): TermMatcher {
  const wholeWords = options.wholeWords ?? true;
  // A trie in Maps while building; flattened into typed arrays below.
  const children: Map<number, number>[] = [new Map()];
  const termLen: number[] = [0];
  const flags: number[] = [0];
  const ids: number[] = [-1];
  let maxLength = 0;
  terms.forEach((term, id) => {
    if (term.length === 0) return;
    const folded = foldString(term);
    let state = 0;
    for (let i = 0; i < folded.length; i++) {
      const unit = folded.charCodeAt(i);
      let next = children[state]!.get(unit);
      if (next === undefined) {
        next = children.length;
        children.push(new Map());
        termLen.push(0);
        flags.push(0);
        ids.push(-1);
        children[state]!.set(unit, next);
      }
      state = next;
    }
    termLen[state] = folded.length;
    if (ids[state]! < 0) ids[state] = id;
    if (wholeWords) {
      if (isWordAt(term, 0)) flags[state]! |= NEEDS_WORD_START;
      if (isWordBefore(term, term.length)) flags[state]! |= NEEDS_WORD_END;
    }
    maxLength = Math.max(maxLength, folded.length);
  });

  const states = children.length;
  const edgeStart = new Int32Array(states + 1);
  for (let s = 0; s < states; s++) edgeStart[s + 1] = edgeStart[s]! + children[s]!.size;
  const edgeUnit = new Uint16Array(edgeStart[states]!);
  const edgeTarget = new Int32Array(edgeStart[states]!);
  for (let s = 0; s < states; s++) {
    const sorted = [...children[s]!].sort((a, b) => a[0] - b[0]);
    sorted.forEach(([unit, target], k) => {
      edgeUnit[edgeStart[s]! + k] = unit;
      edgeTarget[edgeStart[s]! + k] = target;
    });
  }

  const goto = (state: number, unit: number): number => {
    let lo = edgeStart[state]!;
    let hi = edgeStart[state + 1]! - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const u = edgeUnit[mid]!;
      if (u === unit) return edgeTarget[mid]!;
      if (u < unit) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  };

  // Failure links (longest proper suffix that is a trie state) and output links
  // (nearest state on the failure chain that ends a term), breadth first.
  const fail = new Int32Array(states);
  const output = new Int32Array(states).fill(-1);
  const queue = new Int32Array(states);
  let head = 0;
  let tail = 0;
  for (let e = edgeStart[0]!; e < edgeStart[1]!; e++) queue[tail++] = edgeTarget[e]!;
  while (head < tail) {
    const s = queue[head++]!;
    const f = fail[s]!;
    output[s] = termLen[f]! > 0 ? f : output[f]!;
    for (let e = edgeStart[s]!; e < edgeStart[s + 1]!; e++) {
      const child = edgeTarget[e]!;
      const unit = edgeUnit[e]!;
      let g = f;
      let next = goto(g, unit);
      while (next < 0 && g !== 0) {
        g = fail[g]!;
        next = goto(g, unit);
      }
      fail[child] = next < 0 ? 0 : next;
      queue[tail++] = child;
    }
  }
  const lengths = Uint16Array.from(termLen);
  const needs = Uint8Array.from(flags);
  const termIds = Int32Array.from(ids);

  // Latin-1 units that leave the root: at the root, the others are skipped with one lookup each.
  const rootMoves = new Uint8Array(256);
  for (let c = 0; c < 256; c++) rootMoves[c] = goto(0, foldUnit(c)) >= 0 ? 1 : 0;

  function forEach(text: string, onMatch: (start: number, end: number, term: number) => void): void {
    const n = text.length;
    let state = 0;
    for (let i = 0; i < n; i++) {
      if (state === 0) {
        let c = text.charCodeAt(i);
        while (c < 0x100 && rootMoves[c] === 0 && ++i < n) c = text.charCodeAt(i);
        if (i === n) return;
      }
      const unit = foldUnit(text.charCodeAt(i));
      let next = goto(state, unit);
      while (next < 0 && state !== 0) {
        state = fail[state]!;
        next = goto(state, unit);
      }
      state = next < 0 ? 0 : next;
      const end = i + 1;
      for (let s = lengths[state]! > 0 ? state : output[state]!; s >= 0; s = output[s]!) {
        const start = end - lengths[s]!;
        const need = needs[s]!;
        if ((need & NEEDS_WORD_START) !== 0 && isWordBefore(text, start)) continue;
        if ((need & NEEDS_WORD_END) !== 0 && isWordAt(text, end)) continue;
        onMatch(start, end, termIds[s]!);
      }
    }
  }

  return {
    maxLength,
    forEach,
    fillLongest(text, longest) {
      let found = 0;
      forEach(text, (start, end) => {
        found++;
        if (end > longest[start]!) longest[start] = end;
      });
      return found;
    },
  };
}
