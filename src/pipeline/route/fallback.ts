/**
 * Stage 5b, route: the upstream call, across the request's targets in their
 * planned order. Each target gets its tries (with backoff, only before the
 * first byte), then the next target is called: on timeouts, resets, 408,
 * 409, 429 and 5xx, on a provider that refused the gateway's credentials or
 * does not know the model, and on a target that could not be prepared
 * (including one whose translation would drop fields a policy says to
 * refuse: another target may take the request whole). A failure that is the
 * client's (a 400 for its own request) ends the request at once; nothing is
 * retried once a byte has reached the client. A target
 * whose circuit breaker is open is skipped without a call. Every call is
 * recorded on the exchange (the log's tries) and reported to the breakers.
 */
import { GatewayError } from '../../core/errors';
import type { Exchange } from '../../core/exchange';
import { UNSUPPORTED_FIELD } from '../../core/unsupported-policy';
import type { Deps } from '../../ports';
import type { PlannedTarget } from '../../routing/plan';
import { type PrepareContext, type PreparedCall, prepareCall } from './prepare';
import { type AttemptOutcome, type Dispatched, dispatch } from './upstream';
import type { CallPlan } from './targets';

export interface CallOptions {
  readonly ttfbTimeoutMs: number;
  /** The client's cf-aig-max-attempts, which overrides every target's tries; null when not sent. */
  readonly attemptsOverride: number | null;
  readonly awaitFirstChunk: boolean;
  readonly now: () => number;
  readonly waitUntil: (work: Promise<unknown>) => void;
}

export interface Answered {
  readonly call: PreparedCall;
  readonly dispatched: Dispatched;
}

/** Provider failures another target may not share: its credentials, or its catalogue. */
const OTHER_TARGET_MAY_SERVE = new Set([
  'provider_auth_failed',
  'tenant_key_missing',
  'provider_not_configured',
]);

export async function callTargets(
  x: Exchange,
  deps: Pick<Deps, 'breakers'>,
  plan: CallPlan,
  prepare: PrepareContext,
  first: FirstCall,
  options: CallOptions,
): Promise<Answered> {
  let calls = 0;
  let lastError: GatewayError | null = first.error;
  for (let index = first.index; index < plan.targets.length; index++) {
    const planned = plan.targets[index] as PlannedTarget;
    if (calls >= plan.maxCalls) break;
    let call: PreparedCall;
    try {
      call = index === first.index ? first.call : await prepareCall(prepare, planned);
    } catch (err) {
      if (!(err instanceof GatewayError) || !fallsThrough(err, plan)) throw err;
      x.tries.push({ target: planned.model, status: 0, ttfbMs: 0, error: err.code ?? err.type });
      // A policy refusal here says nothing new to a client whose call already failed upstream.
      if (lastError === null || err.code !== UNSUPPORTED_FIELD) lastError = err;
      continue;
    }
    const breaker = breakerKey(call, prepare.principal.tenantId);
    // Breakers guard routes only: a direct `provider/model` call has no other target to go to.
    if (plan.route !== null && (await deps.breakers.admit(breaker, options.now())) === 'open') {
      x.tries.push({ target: planned.model, status: 0, ttfbMs: 0, error: 'circuit_open' });
      continue;
    }
    const attempts = Math.min(
      options.attemptsOverride ?? planned.attempts ?? plan.attempts,
      plan.maxCalls - calls,
    );
    let last: AttemptOutcome | null = null;
    x.target = planned.model;
    x.provider = call.route.providerId;
    try {
      const dispatched = await dispatch(call.route, {
        body: call.body,
        maxAttempts: attempts,
        ttfbTimeoutMs: planned.ttfbTimeoutMs ?? options.ttfbTimeoutMs,
        awaitFirstChunk: options.awaitFirstChunk,
        // Methods, not arrow properties: the bundle names arrow properties at run time, on every request.
        onAttempt() {
          calls++;
          x.attempts = calls;
        },
        onOutcome(outcome) {
          last = outcome;
          record(x, deps, plan, planned, breaker, outcome, options);
        },
      });
      return { call, dispatched };
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      lastError = err;
      const outcome = last as AttemptOutcome | null;
      const mayFallBack =
        outcome?.retryable || OTHER_TARGET_MAY_SERVE.has(err.code ?? '') || err.status === 404;
      if (!mayFallBack || plan.route === null) throw err;
    }
  }
  throw lastError ?? allSkipped(plan);
}

/** The first target that could be prepared before limits and cache, and why the ones before it could not. */
export interface FirstCall {
  readonly index: number;
  readonly call: PreparedCall;
  readonly error: GatewayError | null;
}

/**
 * Prepares the first target that can be prepared, before limits and cache, so a
 * request the client got wrong is refused (400) before anything is reserved.
 * On a route, targets that cannot be prepared are skipped (and recorded).
 */
export async function prepareFirst(x: Exchange, plan: CallPlan, prepare: PrepareContext): Promise<FirstCall> {
  let error: GatewayError | null = null;
  for (const [index, planned] of plan.targets.entries()) {
    try {
      return { index, call: await prepareCall(prepare, planned), error };
    } catch (err) {
      if (!(err instanceof GatewayError) || !fallsThrough(err, plan)) throw err;
      x.tries.push({ target: planned.model, status: 0, ttfbMs: 0, error: err.code ?? err.type });
      error = err;
    }
  }
  throw error ?? allSkipped(plan);
}

/**
 * A target that could not be prepared is skipped on a route, unless the refusal is about the client's own
 * request. A policy refusal (unsupported_field) is about the target's format: one of another format may
 * carry the request whole, and when none can, the last refusal is the answer.
 */
function fallsThrough(err: GatewayError, plan: CallPlan): boolean {
  if (plan.route === null) return false;
  const code = err.code ?? '';
  return OTHER_TARGET_MAY_SERVE.has(code) || code === 'model_not_found' || code === UNSUPPORTED_FIELD;
}

function record(
  x: Exchange,
  deps: Pick<Deps, 'breakers'>,
  plan: CallPlan,
  planned: PlannedTarget,
  breaker: string,
  outcome: AttemptOutcome,
  options: CallOptions,
): void {
  x.tries.push({
    target: planned.model,
    status: outcome.status,
    ttfbMs: Math.round(outcome.ttfbMs),
    error: outcome.error,
  });
  if (plan.route === null) return;
  // A client-side refusal says nothing about the target's health; everything else does.
  const ok = outcome.error === null || !(outcome.retryable || outcome.error === 'provider_auth_failed');
  const ttfbMs = outcome.error === null ? outcome.ttfbMs : null;
  options.waitUntil(deps.breakers.report(breaker, { ok, ttfbMs }, options.now()));
}

/**
 * Whose breaker a call counts toward: the target's, or, when it carries the
 * tenant's own key, the target's for that tenant alone (a tenant's revoked key
 * or exhausted quota must not open the target for everyone else).
 */
function breakerKey(call: PreparedCall, tenantId: string): string {
  return call.route.tenantKey ? `${call.planned.model}@${tenantId}` : call.planned.model;
}

function allSkipped(plan: CallPlan): GatewayError {
  return new GatewayError(
    503,
    `Every target of route '${plan.route}' is unavailable (circuit open or not configured); retry shortly.`,
    { code: 'route_unavailable', source: 'gateway', headers: { 'retry-after': '5' } },
  );
}
