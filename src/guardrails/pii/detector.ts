/**
 * The detector contract and its common form: a linear-time regular expression
 * proposes candidate spans, code confirms them (a checksum, a shape, a decoded
 * header), and a tail rule says which end of a growing text must be held back
 * because a span could still start there or change. Every pattern is global,
 * uses only bounded quantifiers, reads context through look-arounds only (so a
 * match is exactly its span), and has an unambiguous body, so each attempt
 * costs at most a constant and a scan is linear in the text.
 */
import type { Finding, FindingKind } from '../finding';
import { type CharSet, inSet } from './char-set';

export interface Detector {
  readonly kind: FindingKind;
  /** Wins an overlap against a lower rank (the more specific kind). */
  readonly rank: number;
  /** Longest text one attempt can consume: a real bound on its spans. */
  readonly maxLength: number;
  /** How many characters before a span its decision may read (look-behind, key names). */
  readonly lookbehind: number;
  /** The regular expression proposing candidates, when there is one (tests check its quantifiers). */
  readonly pattern?: RegExp;
  /** Appends its candidate spans starting at or after `from`, in order; text before `from` is context. */
  scan(text: string, from: number, out: Finding[]): void;
  /**
   * Where the end of a text that may still grow must be held back: the first index at which a span could
   * start, or an attempt could read past the end; `text.length` when no more text could change anything.
   */
  hold(text: string, from: number): number;
}

/**
 * The characters an attempt may consume (or look through to the next one), and either the characters a span
 * starts with or, when a span can only start where a run of `chars` starts, the literal prefixes it has.
 */
export interface TailRule {
  readonly chars: CharSet;
  readonly starts?: CharSet;
  readonly prefixes?: readonly string[];
}

export interface PatternDetectorSpec {
  readonly kind: FindingKind;
  readonly rank: number;
  readonly maxLength: number;
  readonly lookbehind?: number;
  /** Global; must not match the empty string. */
  readonly pattern: RegExp;
  /** Confirms a candidate [start, end): the span's end (the same, or shorter), or -1 to refuse it. */
  readonly check?: (text: string, start: number, end: number) => number;
  readonly tail: TailRule;
  /** Strings a text must contain (one of them, in a span or its look-behind) for a scan to find anything. */
  readonly needs?: readonly string[];
}

/** How far past a span a look-ahead may read: one character, or two through a `.`-like character. */
const PEEK = 2;

export function patternDetector(spec: PatternDetectorSpec): Detector {
  const { kind, pattern, check, tail, needs } = spec;
  const reach = spec.maxLength + PEEK;
  const lookbehind = spec.lookbehind ?? 2;
  return {
    kind,
    rank: spec.rank,
    maxLength: spec.maxLength,
    lookbehind,
    pattern,
    scan(text, from, out) {
      const near = Math.max(0, from - lookbehind);
      if (needs && !needs.some((n) => text.indexOf(n, near) >= 0)) return;
      pattern.lastIndex = from;
      for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
        const start = m.index;
        const end = check ? check(text, start, start + m[0].length) : start + m[0].length;
        if (end > start) {
          out.push({ kind, start, end });
          pattern.lastIndex = end;
        } else pattern.lastIndex = start + 1;
      }
    },
    hold: (text, from) => tailHold(text, from, tail, reach),
  };
}

/**
 * Walks back from the end over `tail.chars` (at most `reach` characters): an attempt that could read past the
 * end has consumed only such characters, so it started inside that run.
 */
export function tailHold(text: string, from: number, tail: TailRule, reach: number): number {
  const end = text.length;
  const limit = Math.max(from, end - reach);
  let h = end;
  while (h > limit && inSet(tail.chars, text.charCodeAt(h - 1))) h--;
  if (h === end) return end;
  if (tail.prefixes) {
    // The span starts where the run starts (its look-behind refuses run characters before it).
    const runStart = h === 0 || !inSet(tail.chars, text.charCodeAt(h - 1));
    if (!runStart || h < from) return end;
    for (const p of tail.prefixes) if (compatible(text, h, p)) return h;
    return end;
  }
  const starts = tail.starts ?? tail.chars;
  for (let i = h; i < end; i++) if (inSet(starts, text.charCodeAt(i))) return i;
  return end;
}

/** Whether text[at…] and `prefix` agree on the characters both have. */
function compatible(text: string, at: number, prefix: string): boolean {
  const n = Math.min(prefix.length, text.length - at);
  for (let i = 0; i < n; i++) if (text.charCodeAt(at + i) !== prefix.charCodeAt(i)) return false;
  return true;
}
