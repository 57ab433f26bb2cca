/**
 * Asks a second opinion with a deadline and turns every failure into a value.
 * The fail-open or fail-closed choice is made here, per call: `onError`
 * `allow` (the default) lets a request through when the classifier cannot
 * answer, because a classifier outage must not take the gateway down with
 * it; `block` refuses it, for tenants who would rather lose availability than
 * let an unjudged prompt through. Either way the outcome says the classifier
 * was unavailable and why, for the log (`llama_guard_unavailable`).
 *
 * The deadline does not rely on the adapter honouring its signal: the wait
 * ends when the timer fires or the caller's signal aborts, and the signal
 * passed down is aborted too so the binding can stop the call.
 */
import {
  type GuardTurn,
  type SecondOpinion,
  SecondOpinionUnavailable,
  type SecondOpinionVerdict,
  type UnavailableReason,
} from './port';

/** Llama Guard on Workers AI answers in a few hundred milliseconds; this leaves room for a cold start. */
export const DEFAULT_TIMEOUT_MS = 2_000;

export type OnError = 'allow' | 'block';

export interface ConsultOptions {
  /** How long to wait for a verdict. */
  readonly timeoutMs?: number;
  /** What an unavailable classifier means for the request. */
  readonly onError?: OnError;
  /** The request's own signal: a client that leaves ends the wait. */
  readonly signal?: AbortSignal;
}

export type SecondOpinionOutcome =
  | { readonly kind: 'verdict'; readonly verdict: SecondOpinionVerdict }
  | {
      readonly kind: 'unavailable';
      readonly reason: UnavailableReason;
      readonly serviceCode: number | null;
      readonly action: OnError;
    };

export async function consult(
  opinion: SecondOpinion,
  conversation: readonly GuardTurn[],
  options: ConsultOptions = {},
): Promise<SecondOpinionOutcome> {
  const { timeoutMs = DEFAULT_TIMEOUT_MS, onError = 'allow', signal } = options;
  const unavailable = (err: unknown): SecondOpinionOutcome => {
    const known = err instanceof SecondOpinionUnavailable;
    const reason = known ? err.reason : signal?.aborted ? 'aborted' : 'error';
    return { kind: 'unavailable', reason, serviceCode: known ? err.serviceCode : null, action: onError };
  };
  if (signal?.aborted) return unavailable(signal.reason);

  const controller = new AbortController();
  const stopped = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  const onCallerAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onCallerAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new SecondOpinionUnavailable('timeout')), timeoutMs);
  const asked = opinion.check(conversation, controller.signal);
  // The loser of the race below may still reject; that rejection has no reader.
  asked.catch(() => {});
  try {
    return { kind: 'verdict', verdict: await Promise.race([asked, stopped]) };
  } catch (err) {
    return unavailable(err);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCallerAbort);
  }
}
