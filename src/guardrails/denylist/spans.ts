/**
 * From "the longest match starting at each offset" to the findings a deny-list
 * reports: leftmost first, each as long as it can be, none overlapping. A match
 * longer than the finder's `maxLength` (only an unbounded pattern makes one) is
 * reported as consecutive pieces of at most `maxLength`, so every span keeps the
 * SpanFinder bound while all of the matched text is still covered.
 */
import type { Finding } from '../finding';

let scratch = new Int32Array(1024);

/** A zeroed table of `size` entries, reused between calls (finding is synchronous). */
export function longestTable(size: number): Int32Array {
  if (scratch.length < size) scratch = new Int32Array(2 ** Math.ceil(Math.log2(size)));
  scratch.fill(0, 0, size);
  return scratch;
}

/** `longest[p]` is 0 or the end (> p) of the longest match starting at p, for p in [0, n). */
export function selectSpans(longest: Int32Array, n: number, maxLength: number): Finding[] {
  const findings: Finding[] = [];
  let p = 0;
  while (p < n) {
    const end = longest[p]!;
    if (end <= p) {
      p++;
      continue;
    }
    for (let start = p; start < end; start += Math.max(1, maxLength)) {
      findings.push({ kind: 'deny', start, end: Math.min(end, start + maxLength) });
    }
    p = end;
  }
  return findings;
}
