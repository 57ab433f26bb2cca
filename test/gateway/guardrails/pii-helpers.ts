/** Shared by the PII unit tests: the all-kinds finder and small ways to look at what it found. */
import { type FindingKind, PII_KINDS, SECRET_KINDS } from '../../../src/guardrails/finding';
import { sensitiveFinder } from '../../../src/guardrails/pii/finder';
import { Placeholders } from '../../../src/guardrails/pii/placeholders';
import { redactText } from '../../../src/guardrails/pii/redact';
import { createStreamRedactor } from '../../../src/guardrails/pii/stream-redactor';
import type { SpanFinder } from '../../../src/guardrails/finding';

export const ALL = sensitiveFinder(new Set<FindingKind>([...PII_KINDS, ...SECRET_KINDS]));

/** [kind, value] of each finding. */
export function found(text: string, finder: SpanFinder = ALL): [FindingKind, string][] {
  return finder.find(text).map((f) => [f.kind, text.slice(f.start, f.end)]);
}

export function redactWhole(text: string, finder: SpanFinder = ALL): string {
  return redactText(text, finder.find(text), new Placeholders());
}

export function redactStream(chunks: readonly string[], finder: SpanFinder = ALL): string {
  const placeholders = new Placeholders();
  const r = createStreamRedactor({ finder, replace: (f, v) => placeholders.label(f.kind, v) });
  let out = '';
  for (const c of chunks) out += r.push(c);
  return out + r.flush();
}
