/**
 * A spend-triggered downgrade names a route (src/core/settings.ts Downgrade), and a downgrade to a route
 * that does not exist would fail every request it catches; so the admin API refuses it when it is set.
 * `downgradeRoutes` lists where a body names one, by the body's own parameter path (`downgrade.route`,
 * `model_limits.2.downgrade.route`, as validation errors name fields); `checkDowngradeRoutes` answers
 * 400 for the first one neither the tenant nor the deployment (a global route) has.
 */
import { badRequest } from '../core/errors';
import type { Downgrade, ScopeRule } from '../core/settings';
import { routeNames } from '../storage/route-names';

/** The scope fields of a tenant or key body that may hold downgrades (each optional). */
export interface ScopesWithDowngrades {
  readonly downgrade?: Downgrade | null;
  readonly end_users?: ScopeRule | null;
  readonly model_limits?: readonly ScopeRule[];
  readonly tag_limits?: readonly ScopeRule[];
}

export interface NamedRoute {
  /** Where the body names it, e.g. `model_limits.0.downgrade.route`. */
  readonly param: string;
  readonly route: string;
}

/** Every route a body's downgrades name (pure); `prefix` is prepended to each param (a nested rule). */
export function downgradeRoutes(body: ScopesWithDowngrades, prefix = ''): NamedRoute[] {
  const out: NamedRoute[] = [];
  const add = (param: string, downgrade: Downgrade | null | undefined) => {
    if (downgrade) out.push({ param: `${prefix}${param}downgrade.route`, route: downgrade.route });
  };
  add('', body.downgrade);
  add('end_users.', body.end_users?.downgrade);
  for (const [i, rule] of (body.model_limits ?? []).entries()) add(`model_limits.${i}.`, rule.downgrade);
  for (const [i, rule] of (body.tag_limits ?? []).entries()) add(`tag_limits.${i}.`, rule.downgrade);
  return out;
}

/** Throws a 400 naming the first downgrade whose route the tenant cannot call (one D1 read, none if no downgrade). */
export async function checkDowngradeRoutes(
  db: D1Database,
  tenantId: string,
  named: readonly NamedRoute[],
): Promise<void> {
  if (named.length === 0) return;
  const known = new Set((await routeNames(db, tenantId)).map((r) => r.name));
  const missing = named.find((n) => !known.has(n.route));
  if (missing) {
    throw badRequest(
      `${missing.param}: no route named '${missing.route}' for this tenant or global; create it first (POST /admin/routes).`,
      missing.param,
      'unknown_route',
    );
  }
}
