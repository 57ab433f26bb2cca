/**
 * Whole-text helpers: replace found spans with placeholders, and scan a text
 * into its findings and a count per kind (what a verdict records; never the
 * values).
 */
import type { Finding, FindingKind, SpanFinder } from '../finding';
import type { Placeholders } from './placeholders';

/** `text` with each span (sorted, non-overlapping) replaced by its placeholder. */
export function redactText(text: string, findings: readonly Finding[], placeholders: Placeholders): string {
  if (findings.length === 0) return text;
  let out = '';
  let at = 0;
  for (const f of findings) {
    out += text.slice(at, f.start) + placeholders.label(f.kind, text.slice(f.start, f.end));
    at = f.end;
  }
  return out + text.slice(at);
}

export interface Scan {
  readonly findings: Finding[];
  readonly counts: Partial<Record<FindingKind, number>>;
}

export function scanText(text: string, finder: SpanFinder): Scan {
  const findings = finder.find(text);
  const counts: Partial<Record<FindingKind, number>> = {};
  for (const f of findings) counts[f.kind] = (counts[f.kind] ?? 0) + 1;
  return { findings, counts };
}
