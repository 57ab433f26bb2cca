/**
 * The second opinion as the pipeline consumes it: a judgement that never
 * throws. A missing classifier (no AI binding), a failure or a timeout is
 * `unavailable` and lets the request through (fail-open, see
 * docs/guardrails/second-opinion.md): an outage of the classifier must not
 * take the gateway down with it. The pipeline records it in the log.
 */
import { consult } from './second-opinion/consult';
import type { GuardTurn, SecondOpinion } from './second-opinion/port';

export interface Judgement {
  readonly safe: boolean;
  readonly categories: readonly string[];
  /** Why no judgement was made (`unavailable`); then `safe` is true. */
  readonly error: string | null;
}

const UNAVAILABLE: Judgement = { safe: true, categories: [], error: 'unavailable' };

export async function judge(
  classifier: SecondOpinion | null,
  conversation: readonly GuardTurn[],
): Promise<Judgement> {
  if (!classifier) return UNAVAILABLE;
  const outcome = await consult(classifier, conversation, { onError: 'allow' });
  if (outcome.kind === 'unavailable') return { ...UNAVAILABLE, error: `unavailable:${outcome.reason}` };
  return { safe: outcome.verdict.safe, categories: outcome.verdict.categories, error: null };
}
