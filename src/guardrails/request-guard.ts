/**
 * The request side of the guardrails (pure): reads the request's text slots
 * once, asks the injection detector about what users wrote and the
 * tool-result detector about each tool result (tool-result-guard.ts), and the
 * span finder about every slot; records a verdict per guardrail; withholds
 * quarantined tool results and replaces what a `redact` guardrail found with
 * typed placeholders, in place, before the provider, the cache key, the second
 * opinion or the payload log ever see the body; and names the first guardrail
 * whose action is `block`. Nothing here echoes a found value.
 */
import type { EffectivePolicy, Guardrail } from '../core/guardrail-policy';
import { GUARDRAILS } from '../core/guardrail-policy';
import { CLIENT_CODECS } from '../codecs/index';
import type { TextSlot } from '../codecs/slots';
import { type Endpoint, ENDPOINTS } from '../core/endpoints';
import type { LogGuardrail, LogToolResult } from '../core/log-event';
import type { Finding } from './finding';
import { detectInjection } from './injection/index';
import { Placeholders } from './pii/placeholders';
import { redactText } from './pii/redact';
import { guardrailOf, spanFinder } from './scanners';
import { guardToolResults, TOOL_RESULT_NOTICE } from './tool-result-guard';
import { tally } from './verdicts';

export interface RequestGuard {
  readonly verdicts: LogGuardrail[];
  /** The guardrail that refuses the request, or null. */
  readonly blocked: Guardrail | null;
  /**
   * When the refusal is the injection guardrail's on tool results (no user turn was blocked): the results
   * that fired; otherwise empty.
   */
  readonly blockedResults: readonly LogToolResult[];
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
  let promptBlocked = false;
  if (actions.injection !== 'off' && conversational) {
    const turns = slots.filter((s) => s.role === 'user').map((s) => s.text);
    const threshold = policy.injectionThreshold ?? undefined;
    const found = detectInjection(turns, threshold);
    if (found.fired) {
      const verdict = tally(verdicts, 'injection', 'request', actions.injection, 'prompt');
      verdict.score = Math.round(found.score * 1e4) / 1e4;
      if (actions.injection === 'block') blocking.add('injection');
      promptBlocked = actions.injection === 'block';
    }
  }
  // Tool results: judged one by one, and withheld before the span guardrails read (or redact) them.
  const tools = conversational ? guardToolResults(policy, slots, verdicts) : null;
  if (tools && tools.blocked.length > 0) blocking.add('injection');
  const withheld = (s: TextSlot) => s.result !== undefined && tools?.quarantined.has(s.result) === true;

  const finder = spanFinder(policy, 'request');
  if (finder) {
    for (const slot of slots) {
      if (withheld(slot)) continue;
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

  const blocked = GUARDRAILS.find((g) => blocking.has(g)) ?? null;
  return {
    verdicts,
    blocked,
    blockedResults: blocked === 'injection' && !promptBlocked ? (tools?.blocked ?? []) : [],
    placeholders,
    conversation: conversational ? conversation(slots, withheld) : [],
  };
}

/** The spoken texts for the second opinion; a withheld tool result is its notice, once, as the model sees it. */
function conversation(
  slots: readonly TextSlot[],
  withheld: (s: TextSlot) => boolean,
): RequestGuard['conversation'] {
  const out: RequestGuard['conversation'] = [];
  const noticed = new Set<unknown>();
  for (const s of slots) {
    if (s.role === 'system') continue;
    if (withheld(s)) {
      if (!noticed.has(s.result)) out.push({ role: 'user', content: TOOL_RESULT_NOTICE });
      noticed.add(s.result);
      continue;
    }
    out.push({ role: s.role === 'assistant' ? 'assistant' : 'user', content: s.text });
  }
  return out;
}
