/**
 * Stage 5a, route: what the request's `model` names, as the ordered targets
 * this request may call. A `provider/model` is one target. A name without a
 * slash is a named route (the tenant's own, else a global one): its nested
 * routes are looked up, then src/routing/plan.ts orders its targets for this
 * request (weighted draws scaled by each target's health). Each target is
 * prepared only when it is about to be called (./prepare.ts).
 */
import { GatewayError } from '../../core/errors';
import type { Principal } from '../../core/principal';
import type { ProxyRequest } from '../../core/request';
import { isGroup, MAX_ROUTE_DEPTH, type RouteSpec, type RouteStep } from '../../core/route-spec';
import type { Deps } from '../../ports';
import { type PlannedTarget, planTargets } from '../../routing/plan';

export interface CallPlan {
  /** The named route called, or null for a `provider/model`. */
  readonly route: string | null;
  readonly targets: readonly PlannedTarget[];
  /** Most upstream calls across all targets. */
  readonly maxCalls: number;
  /** Tries per target that does not set its own. */
  readonly attempts: number;
}

const DIRECT_MAX_CALLS = 20;

export async function planCalls(
  deps: Pick<Deps, 'routes' | 'breakers' | 'config'>,
  principal: Principal,
  request: ProxyRequest,
  now: number,
  random: () => number = Math.random,
): Promise<CallPlan> {
  const { model } = request;
  if (model.includes('/')) {
    const target: PlannedTarget = {
      model,
      attempts: null,
      ttfbTimeoutMs: null,
      credential: 'auto',
      overrides: null,
      onUnsupported: 'drop',
    };
    return { route: null, targets: [target], maxCalls: DIRECT_MAX_CALLS, attempts: deps.config.maxAttempts };
  }
  const found = await deps.routes.find(principal.tenantId, model);
  if (!found) {
    throw new GatewayError(
      404,
      `The model '${model}' does not exist. Name a model as 'provider/model' (e.g. 'openai/gpt-4o-mini') or a route defined on this gateway.`,
      { param: 'model', code: 'model_not_found', type: 'invalid_request_error' },
    );
  }
  const nested = await nestedRoutes(deps, principal.tenantId, found.spec);
  const targets = planTargets(found.spec, {
    random,
    factors: (models) => deps.breakers.factors(models, now),
    route: (name) => nested.get(name) ?? null,
  });
  return {
    route: model,
    targets,
    maxCalls: found.spec.max_calls,
    attempts: found.spec.attempts ?? deps.config.maxAttempts,
  };
}

/** The specs of the routes a route names, to the depth bound (looked up in parallel per level). */
async function nestedRoutes(
  deps: Pick<Deps, 'routes'>,
  tenantId: string,
  spec: RouteSpec,
): Promise<Map<string, RouteSpec>> {
  const found = new Map<string, RouteSpec>();
  let level = namesIn(spec.targets);
  for (let depth = 1; depth < MAX_ROUTE_DEPTH && level.length > 0; depth++) {
    const fresh = level.filter((name) => !found.has(name));
    const specs = await Promise.all(fresh.map((name) => deps.routes.find(tenantId, name)));
    const next: string[] = [];
    fresh.forEach((name, i) => {
      const route = specs[i];
      if (!route) return;
      found.set(name, route.spec);
      next.push(...namesIn(route.spec.targets));
    });
    level = next;
  }
  return found;
}

function namesIn(steps: readonly RouteStep[]): string[] {
  return steps.flatMap((step) =>
    isGroup(step) ? namesIn(step.targets) : step.model.includes('/') ? [] : [step.model],
  );
}
