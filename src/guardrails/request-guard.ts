/**
 * The request side of the guardrails (pure): reads the request's text slots
 * once, asks the injection detector about what users and tools wrote, and the
 * span finder about every slot; records a verdict per guardrail; replaces what
 * a `redact` guardrail found with typed placeholders, in place, before the
 * provider, the cache key or the payload log ever see the body; and names the
 * first guardrail whose action is `block`. Nothing here echoes a found value.
 */
import type { EffectivePolicy, Guardrail } from '../core/guardrail-policy';
import { GUARDRAILS } from '../core/guardrail-policy';
import { CLIENT_CODECS } from '../codecs/index';
import type { TextSlot } from '../codecs/slots';
import { type Endpoint, ENDPOINTS } from '../core/endpoints';
import type { LogGuardrail } from '../core/log-event';
import type { Finding } from './finding';
import { detectInjection } from './injection/index';
import { Placeholders } from './pii/placeholders';
import { redactText } from './pii/redact';
import { guardrailOf, spanFinder } from './scanners';
import { tally } from './verdicts';

export interface RequestGuard {
  readonly verdicts: LogGuardrail[];
  /** The guardrail that refuses the request, or null. */
  readonly blocked: Guardrail | null;
  /** Values replaced in this request, to put back into its answer when the policy restores. */
  readonly placeholders: Placeholders;
  /** The slots' texts, for the second opinion (after redaction). */
  readonly conversation: { role: 'user' | 'assistant'; content: string }[];
}

export function guardRequest(
  policy: EffectivePolicy,
  endpoint: Endpoint,
  body: Record<string, unknown>,
): RequestGuard {
  const verdicts: LogGuardrail[] = [];
  const blocking = new Set<Guardrail>();
  const placeholders = new Placeholders();
  const slots = CLIENT_CODECS[ENDPOINTS[endpoint].format].requestSlots(endpoint, body);
  const actions = policy.request;

  // Texts sent to be embedded are data, not instructions to a model: only the span guardrails read them.
  const conversational = endpoint !== 'embeddings';
  if (actions.injection !== 'off' && conversational) {
    const untrusted = slots.filter((s) => s.role === 'user' || s.role === 'tool').map((s) => s.text);
    const threshold = policy.injectionThreshold ?? undefined;
    const found = detectInjection(untrusted, threshold);
    if (found.fired) {
      const verdict = tally(verdicts, 'injection', 'request', actions.injection, 'prompt');
      verdict.score = Math.round(found.score * 1e4) / 1e4;
      if (actions.injection === 'block') blocking.add('injection');
    }
  }

  const finder = spanFinder(policy, 'request');
  if (finder) {
    for (const slot of slots) {
      const findings = finder.find(slot.text);
      if (findings.length === 0) continue;
      const redact: Finding[] = [];
      for (const f of findings) {
        const guardrail = guardrailOf(f.kind);
        const action = actions[guardrail];
        if (action === 'off') continue;
        tally(verdicts, guardrail, 'request', action, f.kind);
        if (action === 'block') blocking.add(guardrail);
        else if (action === 'redact') redact.push(f);
      }
      if (redact.length > 0) slot.set(redactText(slot.text, redact, placeholders));
    }
  }

  return {
    verdicts,
    blocked: GUARDRAILS.find((g) => blocking.has(g)) ?? null,
    placeholders,
    conversation: (conversational ? slots : []).filter(spoken).map((s) => ({
      role: s.role === 'assistant' ? 'assistant' : 'user',
      content: s.text,
    })),
  };
}

const spoken = (s: TextSlot) => s.role !== 'system';
