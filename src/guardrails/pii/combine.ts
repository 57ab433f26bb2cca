/**
 * Several span finders as one settling finder, for a stream that redacts PII,
 * secrets and a deny-list together. Settling finders contribute their
 * detectors; any other finder (known only by `find` and `maxLength`) becomes a
 * detector that holds back its last `maxLength` characters and ranks below
 * every PII and secret kind on overlap.
 */
import type { SpanFinder } from '../finding';
import { composeFinder, type SettlingFinder } from './compose';
import type { Detector } from './detector';

/** Context kept for a finder whose look-behind is unknown (word boundaries, short look-arounds). */
const OPAQUE_LOOKBEHIND = 64;

export function isSettling(finder: SpanFinder): finder is SettlingFinder {
  return 'settle' in finder && 'detectors' in finder;
}

/** Any span finder as a detector; its spans that start before `from` (in the context) are left out. */
export function opaqueDetector(finder: SpanFinder, rank = 10): Detector {
  return {
    kind: 'deny',
    rank,
    maxLength: finder.maxLength,
    lookbehind: OPAQUE_LOOKBEHIND,
    scan(text, from, out) {
      for (const f of finder.find(text)) if (f.start >= from) out.push(f);
    },
    hold: (text, from) => Math.max(from, text.length - finder.maxLength - 1),
  };
}

export function combineFinders(finders: readonly SpanFinder[]): SettlingFinder {
  return composeFinder(finders.flatMap((f) => (isSettling(f) ? f.detectors : [opaqueDetector(f)])));
}
