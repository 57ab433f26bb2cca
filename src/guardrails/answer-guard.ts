/**
 * The response side of the guardrails for a complete answer in the client's
 * format: a JSON body from the provider, or a cached answer about to be
 * served (a cache hit never bypasses the caller's response policy). Each text
 * of the answer goes through the same transform a stream's deltas do
 * (src/guardrails/response-text.ts), so a JSON answer and a streamed one are
 * judged alike. The body is changed in place; `changed` says whether to
 * serialise it again.
 */
import type { ClientFormat } from '../core/endpoints';
import type { EffectivePolicy, Guardrail } from '../core/guardrail-policy';
import type { LogGuardrail } from '../core/log-event';
import type { Placeholders } from './pii/placeholders';
import { answerTransforms, transformWhole } from './response-text';
import { answerSlots } from './text-slots';

export interface AnswerGuard {
  readonly verdicts: LogGuardrail[];
  readonly blocked: Guardrail | null;
  readonly changed: boolean;
}

export function guardAnswer(
  policy: EffectivePolicy,
  placeholders: Placeholders,
  format: ClientFormat,
  body: Record<string, unknown>,
): AnswerGuard {
  const state = { verdicts: [] as LogGuardrail[], blocked: null as Guardrail | null };
  const make = answerTransforms(policy, placeholders, state);
  if (!make) return { verdicts: state.verdicts, blocked: null, changed: false };
  let changed = false;
  for (const slot of answerSlots(format, body)) {
    const text = transformWhole(make, slot.text);
    if (text !== slot.text) {
      slot.set(text);
      changed = true;
    }
  }
  return { verdicts: state.verdicts, blocked: state.blocked, changed };
}
