/**
 * Detectors combined into one span finder that can also settle a growing
 * text: `settle(text, from, final)` returns the spans in [from, cut) that no
 * further text can change, and the cut. The cut is the earliest hold of any
 * detector, moved back before any candidate that crosses it, so no candidate
 * (of any detector, before overlaps are resolved) ever crosses a cut: the next
 * scan can start at the cut (earlier text is context for look-behinds) and
 * finds exactly what a scan of the whole text finds after it. Overlaps are
 * resolved within [from, cut): the higher rank wins (the more specific kind),
 * then the longer span.
 */
import type { Finding, SpanFinder } from '../finding';
import type { Detector } from './detector';

export interface Settled {
  readonly findings: Finding[];
  readonly cut: number;
}

/** A span finder that also settles a growing text; what the stream redactor needs for minimal holds. */
export interface SettlingFinder extends SpanFinder {
  /** How many characters before `from` a decision may read; a stream keeps that much context. */
  readonly lookbehind: number;
  readonly detectors: readonly Detector[];
  settle(text: string, from: number, final: boolean): Settled;
}

interface Candidate extends Finding {
  readonly rank: number;
}

export function composeFinder(detectors: readonly Detector[]): SettlingFinder {
  const maxLength = Math.max(1, ...detectors.map((d) => d.maxLength));
  const lookbehind = Math.max(0, ...detectors.map((d) => d.lookbehind));
  const settle = (text: string, from: number, final: boolean): Settled => {
    const raw: Candidate[] = [];
    let cut = text.length;
    for (const d of detectors) {
      const before = raw.length;
      d.scan(text, from, raw as Finding[]);
      for (let i = before; i < raw.length; i++) raw[i] = { ...raw[i]!, rank: d.rank };
      if (!final) cut = Math.min(cut, d.hold(text, from));
    }
    raw.sort(byStartThenStrength);
    if (!final) cut = retreat(raw, cut);
    return { findings: resolve(raw, cut), cut };
  };
  return {
    maxLength,
    lookbehind,
    detectors,
    settle,
    find: (text) => settle(text, 0, true).findings,
  };
}

function byStartThenStrength(a: Candidate, b: Candidate): number {
  return a.start - b.start || b.rank - a.rank || b.end - a.end;
}

/** The cut moved back to the start of any candidate crossing it, until none does. */
function retreat(raw: readonly Candidate[], cut: number): number {
  let maxEnd = 0;
  const reach: number[] = new Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    maxEnd = Math.max(maxEnd, raw[i]!.end);
    reach[i] = maxEnd;
  }
  let i = raw.length - 1;
  for (;;) {
    while (i >= 0 && raw[i]!.start >= cut) i--;
    if (i < 0 || reach[i]! <= cut) return cut;
    cut = raw[i]!.start;
  }
}

/** Sorted, non-overlapping spans among the candidates that end by `cut`. */
function resolve(raw: readonly Candidate[], cut: number): Finding[] {
  const kept: Candidate[] = [];
  for (const c of raw) {
    if (c.end > cut) continue;
    const last = kept[kept.length - 1];
    if (last && c.start < last.end) {
      if (stronger(c, last)) kept[kept.length - 1] = c;
    } else kept.push(c);
  }
  return kept.map(({ kind, start, end }) => ({ kind, start, end }));
}

const stronger = (a: Candidate, b: Candidate) =>
  a.rank !== b.rank ? a.rank > b.rank : a.end - a.start > b.end - b.start;
