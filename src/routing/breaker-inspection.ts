/**
 * A target's breaker as an operator reads it (pure): the phase now, since
 * when, the calls and failures the breaker's window holds, and the health
 * sums decayed to now. Built from the shared Breaker object's state
 * (src/durable/breaker.ts `inspect`) for the admin API's route health
 * (src/admin/resources/route-health.ts); the request path never calls it.
 *
 * "Since": open → when it (re-)opened (retryAt − cooldown); half-open → from
 * retryAt; closed → when it last closed, or null when it has not opened since
 * the object was created (closed all along).
 */
import { type BreakerState, phaseOf, type Phase } from './breaker';
import { decayed, type Health } from './health';

export interface BreakerInspection {
  readonly phase: Phase;
  readonly since: number | null;
  /** When an open breaker lets a probe through (null: closed). */
  readonly retryAt: number | null;
  readonly cooldownMs: number | null;
  /** Outcomes in the closed breaker's window (the last WINDOW_MS; none while open). */
  readonly windowCalls: number;
  readonly windowFailures: number;
  /** Calls and failures, decayed with the health half-life (recent ones count most). */
  readonly health: Health;
}

export function inspectBreaker(
  state: BreakerState,
  health: Health,
  closedAt: number | null,
  now: number,
  windowMs: number,
): BreakerInspection {
  const phase = phaseOf(state, now);
  const h = decayed(health, now);
  if (state.kind === 'closed') {
    const recent = state.recent.filter((m) => m.at > now - windowMs);
    return {
      phase,
      since: closedAt,
      retryAt: null,
      cooldownMs: null,
      windowCalls: recent.length,
      windowFailures: recent.filter((m) => !m.ok).length,
      health: h,
    };
  }
  return {
    phase,
    since: phase === 'half-open' ? state.retryAt : state.retryAt - state.cooldownMs,
    retryAt: state.retryAt,
    cooldownMs: state.cooldownMs,
    windowCalls: 0,
    windowFailures: 0,
    health: h,
  };
}
