/**
 * The circuit breaker of one target (`provider/model`), as a pure state machine
 * of plain values and an injected `now`: closed → open when recent calls fail
 * too often; open → half-open after a cooldown; half-open admits one probe,
 * whose success closes it and whose failure re-opens it with a doubled
 * cooldown. The same machine runs in each isolate (LOCAL rules, its own calls)
 * and in the target's shared Breaker object (SHARED rules, every isolate's
 * calls); src/routing/breaker-board.ts combines the two. What counts as a
 * failure is the pipeline's call (timeouts, resets, 408/409/429/5xx before the
 * first byte): it passes `ok`.
 *
 * The window is the last `windowCalls` outcomes no older than `windowMs`, so a
 * dead target costs a bounded number of calls whatever the traffic: with the
 * LOCAL rules an isolate opens after at most 10 failures in a row (5 when it
 * had no success in the last 30 s); see docs/routes.md. The SHARED window is
 * larger because it sees every isolate's calls: a target failing 10-25 % of the
 * time would otherwise trip it by chance, many times an hour, at high traffic.
 */

export const WINDOW_MS = 30_000;
/** Fewer calls in the window than this never open the breaker. */
export const MIN_CALLS = 5;
/** The share of failed calls in the window that opens the breaker. */
export const FAILURE_RATE = 0.5;
export const COOLDOWN_MS = 15_000;
/** Each failed probe doubles the cooldown, up to this. */
export const MAX_COOLDOWN_MS = 120_000;
/** A claimed probe that never reports (its isolate died) frees the half-open state after this. */
export const PROBE_LEASE_MS = 30_000;

export interface BreakerRules {
  readonly windowCalls: number;
  readonly windowMs: number;
  readonly minCalls: number;
  readonly failureRate: number;
  readonly cooldownMs: number;
  readonly maxCooldownMs: number;
  readonly probeLeaseMs: number;
}

const COMMON = {
  windowMs: WINDOW_MS,
  minCalls: MIN_CALLS,
  failureRate: FAILURE_RATE,
  cooldownMs: COOLDOWN_MS,
  maxCooldownMs: MAX_COOLDOWN_MS,
  probeLeaseMs: PROBE_LEASE_MS,
};
/** One isolate's own calls. */
export const LOCAL_RULES: BreakerRules = { ...COMMON, windowCalls: 20 };
/** Every isolate's calls, in the target's Breaker object. */
export const SHARED_RULES: BreakerRules = { ...COMMON, windowCalls: 100 };

/** One call's result as the breaker counts it: when it was known, and whether it succeeded. */
export interface Mark {
  readonly at: number;
  readonly ok: boolean;
}

export interface Closed {
  readonly kind: 'closed';
  /** Recent outcomes, oldest first. */
  readonly recent: readonly Mark[];
}

export interface Open {
  readonly kind: 'open';
  /** From then on the breaker is half-open: one probe may be claimed. */
  readonly retryAt: number;
  /** The cooldown that led to retryAt (doubled by the next failed probe). */
  readonly cooldownMs: number;
  /** A probe claimed before this time is still out (0: none). */
  readonly probeUntil: number;
}

export type BreakerState = Closed | Open;
export const CLOSED: Closed = { kind: 'closed', recent: [] };

/** 'half-open' means a probe may be claimed now; while one is out the breaker reads 'open'. */
export type Phase = 'closed' | 'open' | 'half-open';
/** What a caller may do: call the target, skip it, or call it as its single probe. */
export type Verdict = 'closed' | 'open' | 'probe';

export function phaseOf(state: BreakerState, now: number): Phase {
  if (state.kind === 'closed') return 'closed';
  return now < state.retryAt || state.probeUntil > now ? 'open' : 'half-open';
}

/**
 * The state after one outcome. Closed: it joins the window, which may open the
 * breaker. Open: an outcome known before retryAt is a straggler (a call begun
 * before the breaker opened) and changes nothing; one known at or after it is
 * the half-open state's evidence: success closes, failure re-opens.
 */
export function record(state: BreakerState, mark: Mark, now: number, rules: BreakerRules): BreakerState {
  if (state.kind === 'open') {
    if (mark.at < state.retryAt) return state;
    return mark.ok ? CLOSED : reopen(Math.min(state.cooldownMs * 2, rules.maxCooldownMs), now);
  }
  const since = now - rules.windowMs;
  if (mark.at <= since) return state;
  const recent = [...state.recent.filter((m) => m.at > since), mark].slice(-rules.windowCalls);
  const failures = recent.filter((m) => !m.ok).length;
  if (recent.length >= rules.minCalls && failures >= rules.failureRate * recent.length)
    return reopen(rules.cooldownMs, now);
  return { kind: 'closed', recent };
}

/** Whether a call may go now; a granted probe is recorded in the state it returns. */
export function admission(
  state: BreakerState,
  now: number,
  rules: BreakerRules,
): { verdict: Verdict; state: BreakerState } {
  const phase = phaseOf(state, now);
  if (phase !== 'half-open' || state.kind !== 'open')
    return { verdict: phase === 'closed' ? 'closed' : 'open', state };
  return { verdict: 'probe', state: { ...state, probeUntil: now + rules.probeLeaseMs } };
}

function reopen(cooldownMs: number, now: number): Open {
  return { kind: 'open', retryAt: now + cooldownMs, cooldownMs, probeUntil: 0 };
}
