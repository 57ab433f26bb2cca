/**
 * What happens to one text of an answer (a message's content, a tool call's
 * arguments), as a stream of deltas or as one whole text: the request's
 * placeholders are put back when the policy restores them, then the response's
 * span guardrails run — values found are counted, replaced when the action is
 * `redact`, or end the answer when it is `block`. Values the caller sent itself
 * and had restored are theirs and pass. Lookahead is bounded by the finders'
 * maxLength (src/guardrails/pii/stream-redactor.ts), so nothing is buffered whole.
 */
import type { EffectivePolicy, Guardrail } from '../core/guardrail-policy';
import type { LogGuardrail } from '../core/log-event';
import type { Finding } from './finding';
import type { Placeholders } from './pii/placeholders';
import { createStreamRedactor, createStreamRestorer } from './pii/stream-redactor';
import { guardrailOf, spanFinder } from './scanners';
import { tally } from './verdicts';

export interface TextTransform {
  push(text: string): string;
  flush(): string;
}

/** Shared by every text of one answer: the verdicts it adds to and the guardrail that blocked it. */
export interface AnswerGuardState {
  readonly verdicts: LogGuardrail[];
  blocked: Guardrail | null;
}

/** A factory of per-text transforms for one answer, or null when the policy leaves answers alone. */
export function answerTransforms(
  policy: EffectivePolicy,
  placeholders: Placeholders,
  state: AnswerGuardState,
): (() => TextTransform) | null {
  const finder = spanFinder(policy, 'response');
  const restoring = policy.restore && placeholders.size > 0;
  if (!finder && !restoring) return null;
  const actions = policy.response;
  const replace = (f: Finding, value: string): string => {
    if (restoring && placeholders.hasValue(value)) return value;
    const guardrail = guardrailOf(f.kind);
    const action = actions[guardrail];
    if (action === 'off') return value;
    tally(state.verdicts, guardrail, 'response', action, f.kind);
    if (action === 'block') {
      state.blocked ??= guardrail;
      return '';
    }
    return action === 'redact' ? placeholders.label(f.kind, value) : value;
  };
  return () => {
    const restorer = restoring ? createStreamRestorer(placeholders) : null;
    const redactor = finder ? createStreamRedactor({ finder, replace }) : null;
    if (!restorer) return redactor!;
    if (!redactor) return restorer;
    return {
      push: (text) => redactor.push(restorer.push(text)),
      flush: () => redactor.push(restorer.flush()) + redactor.flush(),
    };
  };
}

/** One whole text through a fresh transform. */
export function transformWhole(make: () => TextTransform, text: string): string {
  const t = make();
  return t.push(text) + t.flush();
}
