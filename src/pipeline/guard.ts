/**
 * Stage 2's guardrails (src/guardrails/): the request is judged and redacted
 * right after it is parsed and before anything is reserved, cached or sent, so
 * a blocked request spends no budget and makes no upstream call, and the
 * provider, the cache key and the payload log only ever see the redacted body.
 * What the policy does to the answer is prepared here as well: a JSON answer
 * or cached answer is judged whole, a stream event by event. The optional
 * second opinion (a safety classifier) starts here and runs alongside
 * everything after it; its verdict is awaited only before the answer is
 * complete (the end of a stream, a JSON body, a cache hit), so a pass adds
 * no latency.
 */
import type { ClientFormat } from '../core/endpoints';
import type { CachedEntry } from '../cache/entry';
import { GatewayError } from '../core/errors';
import type { Exchange } from '../core/exchange';
import type { EffectivePolicy, Guardrail } from '../core/guardrail-policy';
import type { Principal } from '../core/principal';
import type { ProxyRequest } from '../core/request';
import { guardAnswer } from '../guardrails/answer-guard';
import {
  blockedMessage,
  GUARDRAIL_BLOCKED,
  guardrailBlocked,
  toolResultsBlocked,
} from '../guardrails/blocked';
import type { Placeholders } from '../guardrails/pii/placeholders';
import { logScrubber } from '../guardrails/log-scrub';
import { guardRequest } from '../guardrails/request-guard';
import { answerTransforms } from '../guardrails/response-text';
import { policyOf } from '../guardrails/scanners';
import { judge } from '../guardrails/classifier';
import type { SecondOpinion } from '../guardrails/second-opinion/port';
import { streamGuard } from '../guardrails/stream-guard';
import type { FiringAction } from '../guardrails/verdicts';
import type { EventRewriter, StreamFault } from '../sse/observer';

/** What the rest of the pipeline needs from the guardrails; null when the key's policy turns none on. */
export interface Guarding {
  readonly policy: EffectivePolicy;
  /** The request's refusal (a `block` verdict), thrown by the pipeline once the payload is captured. */
  readonly refused: GatewayError | null;
  /** Starts the second opinion, when the policy asks for one; it runs alongside the rest of the request. */
  consult(classifier: SecondOpinion | null, waitUntil: (work: Promise<unknown>) => void): void;
  readonly placeholders: Placeholders;
  /** Whether answers may be kept in the cache (not when they carry values restored for this caller). */
  readonly cacheable: boolean;
  /** The second opinion's refusal once it has judged (null while it has not, or when it passed). */
  readonly refusal: () => StreamFault | null;
  /** Settles when the second opinion has judged (at once when there is none). */
  readonly judged: Promise<void>;
  /** Judges a complete answer in the client's format, in place; the refusal when it must not be served. */
  answer(
    format: ClientFormat,
    body: Record<string, unknown>,
  ): { changed: boolean; refusal: StreamFault | null };
  /** The event rewriter for a streamed answer, or undefined when answers are left alone. */
  rewriter(format: ClientFormat): EventRewriter | undefined;
}

export function guardStage(x: Exchange, principal: Principal, request: ProxyRequest): Guarding | null {
  const policy = policyOf(principal);
  if (!policy.active) return null;
  const guard = guardRequest(policy, request.endpoint, request.body);
  x.guardrails.push(...guard.verdicts);
  x.scrubPayload = logScrubber(policy);

  const { placeholders } = guard;
  const action = policy.request.llama_guard;
  let refusal: StreamFault | null = null;
  let judged: Promise<void> = Promise.resolve();
  const consult = (classifier: SecondOpinion | null, waitUntil: (work: Promise<unknown>) => void) => {
    if (action === 'off' || guard.conversation.length === 0) return;
    judged = judge(classifier, guard.conversation).then((verdict) => {
      if (verdict.error) {
        x.guardrails.push({ ...base(action), count: 0, error: verdict.error });
        return;
      }
      if (verdict.safe) return;
      const kinds = Object.fromEntries(verdict.categories.map((c) => [c, 1]));
      x.guardrails.push({ ...base(action), count: 1, kinds });
      if (action === 'block')
        refusal = { fault: GUARDRAIL_BLOCKED, message: blockedMessage('llama_guard', 'request') };
    });
    waitUntil(judged);
  };
  const state = { verdicts: x.guardrails, blocked: null as Guardrail | null };
  const transforms = answerTransforms(policy, placeholders, state);
  return {
    policy,
    refused: !guard.blocked
      ? null
      : guard.blockedResults.length > 0
        ? toolResultsBlocked(guard.blockedResults)
        : guardrailBlocked(guard.blocked, 'request'),
    consult,
    placeholders,
    cacheable: !(policy.restore && placeholders.size > 0),
    refusal: () => refusal,
    get judged() {
      return judged;
    },
    answer(format, body) {
      if (refusal) return { changed: false, refusal };
      if (!transforms) return { changed: false, refusal: null };
      // Verdicts go straight into the exchange's list (the transforms' shared state).
      const changed = guardAnswer(transforms, format, body);
      const blocked = state.blocked;
      return {
        changed,
        refusal: blocked ? { fault: GUARDRAIL_BLOCKED, message: blockedMessage(blocked, 'response') } : null,
      };
    },
    rewriter(format) {
      return transforms ? streamGuard(format, transforms, state) : undefined;
    },
  };
}

const base = (action: FiringAction) => ({
  guardrail: 'llama_guard' as const,
  direction: 'request' as const,
  action,
  kinds: {},
  score: null,
  error: null,
});

/** A guardrail's refusal of an answer, as the error the client gets instead (400 `guardrail_blocked`). */
export function refusalError(refusal: StreamFault): GatewayError {
  return new GatewayError(400, refusal.message, { code: refusal.fault });
}

/**
 * A cached answer judged for this caller: a copy (entries may be shared by requests waiting on one call),
 * after the second opinion, so a refused prompt is never served from the cache either.
 */
export async function guardedHit(
  guarding: Guarding,
  entry: CachedEntry,
): Promise<{ entry: CachedEntry; refusal: StreamFault | null }> {
  await guarding.judged;
  const copy = { ...entry, body: structuredClone(entry.body) };
  return { entry: copy, refusal: guarding.answer(copy.format, copy.body).refusal };
}
