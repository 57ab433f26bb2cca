/**
 * Logged payloads (keys with log_payload) never hold a value a guardrail can
 * detect: whatever the guardrail's action (even `log` or `flag`, which leave
 * the request and answer as they were), each value found in either direction
 * is replaced by its typed placeholder before the payload is queued.
 */
import type { EffectivePolicy } from '../core/guardrail-policy';
import { combineFinders } from './pii/combine';
import { Placeholders } from './pii/placeholders';
import { redactText } from './pii/redact';
import { spanFinder } from './scanners';

export function logScrubber(policy: EffectivePolicy): ((text: string) => string) | null {
  const finders = [spanFinder(policy, 'request'), spanFinder(policy, 'response')].filter((f) => f !== null);
  if (finders.length === 0) return null;
  const finder = finders.length === 1 ? finders[0]! : combineFinders(finders);
  return (text) => {
    const spans = finder.find(text);
    return spans.length === 0 ? text : redactText(text, spans, new Placeholders());
  };
}
