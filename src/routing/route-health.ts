/**
 * A route's per-target health, as operators read it (pure): which targets a
 * spec names (its leaves, in order, each once), whose breakers to read for
 * them, and one status per target from its breakers and its recent traffic:
 *
 *   open       a breaker is open: the target is skipped without a call
 *   half-open  a breaker lets one probe through
 *   failing    breakers closed, but in the last hour at least FAILING_RATE of
 *              the requests that reached it were not served by it (fallback
 *              rate), over at least FAILING_MIN_REQUESTS requests; or half the
 *              calls in the shared breaker's window failed
 *   healthy    called recently, and none of the above
 *   idle       no call in the breaker's memory and no request in 24 h
 *
 * The first three are unhealthy; the dashboard and the CLI flag them.
 */
import type { RouteSpec, RouteStep } from '../core/route-spec';
import { isGroup } from '../core/route-spec';
import type { BreakerInspection } from './breaker-inspection';

export const FAILING_RATE = 0.25;
export const FAILING_MIN_REQUESTS = 4;
/** The most targets one health read inspects (breaker reads are one Durable Object call each). */
export const MAX_HEALTH_TARGETS = 32;

export type TargetStatus = 'open' | 'half-open' | 'failing' | 'healthy' | 'idle';
export const UNHEALTHY: ReadonlySet<TargetStatus> = new Set(['open', 'half-open', 'failing']);

export interface SpecTarget {
  /** `provider/model`, or the name of another route (no slash). */
  readonly model: string;
  readonly kind: 'model' | 'route';
  readonly credential: 'auto' | 'tenant' | 'deployment';
}

/** The spec's leaf targets, depth first in the order a fallback tries them, each model once. */
export function specTargets(spec: Pick<RouteSpec, 'targets'>): SpecTarget[] {
  const out = new Map<string, SpecTarget>();
  const walk = (steps: readonly RouteStep[]) => {
    for (const step of steps) {
      if (isGroup(step)) walk(step.targets);
      else if (!out.has(step.model))
        out.set(step.model, {
          model: step.model,
          kind: step.model.includes('/') ? 'model' : 'route',
          credential: step.credential,
        });
    }
  };
  walk(spec.targets);
  return [...out.values()];
}

export interface BreakerKey {
  readonly key: string;
  /** deployment: the target's breaker for calls with the deployment's key; tenant: with the tenant's own key. */
  readonly scope: 'deployment' | 'tenant';
}

/**
 * The breakers a target's calls count toward (src/pipeline/route/fallback.ts breakerKey): the model's,
 * and on a tenant's route, unless the target always uses the deployment's key, the model's for that
 * tenant's own key. A global route's calls with tenants' own keys are per tenant, and not read here.
 */
export function breakerKeys(target: SpecTarget, tenantId: string | null): BreakerKey[] {
  if (target.kind !== 'model') return [];
  const keys: BreakerKey[] = [{ key: target.model, scope: 'deployment' }];
  if (tenantId !== null && target.credential !== 'deployment')
    keys.push({ key: `${target.model}@${tenantId}`, scope: 'tenant' });
  return keys;
}

/** Whether a breaker has anything to say (a tenant breaker never used is left out of the answer). */
export function breakerUsed(b: BreakerInspection): boolean {
  return b.phase !== 'closed' || b.since !== null || b.windowCalls > 0 || b.health.calls >= 0.01;
}

export interface StatusInput {
  readonly breakers: readonly BreakerInspection[];
  /** Requests that reached the target and those it served, in the last hour and 24 h (null: not read). */
  readonly lastHour: { readonly requests: number; readonly served: number } | null;
  readonly last24h: { readonly requests: number; readonly served: number } | null;
}

export function targetStatus(t: StatusInput): TargetStatus {
  if (t.breakers.some((b) => b.phase === 'open')) return 'open';
  if (t.breakers.some((b) => b.phase === 'half-open')) return 'half-open';
  const hour = t.lastHour;
  if (
    hour &&
    hour.requests >= FAILING_MIN_REQUESTS &&
    (hour.requests - hour.served) / hour.requests >= FAILING_RATE
  )
    return 'failing';
  if (t.breakers.some((b) => b.windowCalls > 0 && b.windowFailures * 2 >= b.windowCalls)) return 'failing';
  const called = t.breakers.some((b) => b.windowCalls > 0 || b.health.calls >= 0.01);
  return called || (t.last24h?.requests ?? 0) > 0 ? 'healthy' : 'idle';
}

const RANK: Record<TargetStatus, number> = { open: 4, 'half-open': 3, failing: 2, healthy: 1, idle: 0 };

/** The worst of several statuses (idle when there are none). */
export function worstStatus(statuses: readonly TargetStatus[]): TargetStatus {
  return statuses.reduce<TargetStatus>((w, s) => (RANK[s] > RANK[w] ? s : w), 'idle');
}
