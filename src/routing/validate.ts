/**
 * Write-time checks of a route change (pure; the routes and the known
 * providers are passed in): the spec's own targets must exist (a provider this
 * deployment knows, or a route visible from the route's scope), loadbalance
 * weights must not sum to zero, and no route may reach itself or nest deeper
 * than MAX_ROUTE_DEPTH, in any scope the change is seen from. A route named
 * inside a route resolves as a client's `model` does: the tenant's own route
 * first, else the global one; so a global route is checked from the global
 * scope and from every tenant that has routes of its own (one may shadow a
 * name it uses). Deleting or renaming a route that others still name is
 * refused with the referrers. Only problems the change introduces are
 * reported: an older one elsewhere never blocks an unrelated write.
 */
import {
  MAX_ROUTE_DEPTH,
  ROUTE_NAME,
  isGroup,
  type RouteGroup,
  type RouteSpec,
  type RouteTarget,
} from '../core/route-spec';
import type { StoredRoute } from '../storage/route-store';
import { RouteView, routeDepth, type RouteWalk } from './graph';

export interface RouteChange {
  /** The route as stored before the change; null for a create. */
  before: StoredRoute | null;
  /** The route as it would be stored after; null for a delete. */
  after: StoredRoute | null;
  /** Every route the change can affect (D1RouteAdminStore.book), `before` included. */
  book: readonly StoredRoute[];
  knownProvider: (id: string) => boolean;
}

/** Why a change is refused: the admin API answers it as is (a 400 or 409 in its error envelope). */
export interface RouteProblem {
  status: 400 | 409;
  code:
    | 'route_exists'
    | 'route_in_use'
    | 'unknown_provider'
    | 'unknown_route'
    | 'invalid_target'
    | 'zero_weights'
    | 'route_cycle'
    | 'route_too_deep';
  message: string;
  /** The offending field, dotted as the admin API's zod errors are (`spec.targets.1.model`). */
  param: string | null;
}

const bad = (code: RouteProblem['code'], message: string, param: string | null): RouteProblem => ({
  status: 400,
  code,
  message,
  param,
});

export function describeRoute(route: StoredRoute): string {
  return `'${route.name}' (${route.tenantId === null ? 'global' : `tenant ${route.tenantId}`})`;
}

/** The name is another route's in the same scope (a tenant's, or the global ones). */
export function nameTaken(route: Pick<StoredRoute, 'name' | 'tenantId'>): RouteProblem {
  const scope = route.tenantId === null ? 'among the global routes' : `for tenant ${route.tenantId}`;
  return {
    status: 409,
    code: 'route_exists',
    message: `A route named '${route.name}' exists ${scope}.`,
    param: 'name',
  };
}

export function checkRouteChange(change: RouteChange): RouteProblem | null {
  const { before, after, book, knownProvider } = change;
  const changed = (after ?? before)?.id;
  const proposed = [...book.filter((r) => r.id !== changed), ...(after ? [after] : [])];
  if (after) {
    const taken = proposed.find(
      (r) => r.id !== after.id && r.tenantId === after.tenantId && r.name === after.name,
    );
    if (taken) return nameTaken(after);
    const own = checkSpec(after, new RouteView(proposed, after.tenantId), knownProvider);
    if (own) return own;
  }
  const home = (after ?? before)?.tenantId ?? null;
  const scopes = home === null ? [null, ...tenantsOf(book), ...tenantsOf(proposed)] : [home];
  const removed = before && (!after || after.name !== before.name) ? before : null;
  const verb = !after ? 'Deleting it' : removed ? 'Renaming it' : 'This change';
  for (const scope of new Set(scopes)) {
    const now = new RouteView(proposed, scope);
    if (removed) {
      const referrers = now
        .visible()
        .filter((r) => names(r.spec).includes(removed.name) && !now.resolve(removed.name));
      if (referrers.length) {
        const list = referrers.map(describeRoute).join(', ');
        return {
          status: 409,
          code: 'route_in_use',
          message: `Route ${describeRoute(removed)} is named by route ${list}; change those first.`,
          param: after ? 'name' : null,
        };
      }
    }
    const problem = newLoop(new RouteView(book, scope), now, after, verb);
    if (problem) return after ? problem : { ...problem, status: 409, code: 'route_in_use' };
  }
  return null;
}

/** The spec's own targets and groups, from the route's own scope. */
function checkSpec(
  route: StoredRoute,
  view: RouteView,
  knownProvider: (id: string) => boolean,
): RouteProblem | null {
  for (const { group, path } of groupsOf(route.spec)) {
    if (group.strategy === 'loadbalance' && group.targets.every((t) => t.weight === 0)) {
      return bad(
        'zero_weights',
        `The loadbalance group at ${path} has weights that sum to 0; give a target a weight above 0.`,
        path,
      );
    }
    for (const [i, step] of group.targets.entries()) {
      if (!isGroup(step)) {
        const problem = checkTarget(step, `${path}.targets.${i}.model`, route, view, knownProvider);
        if (problem) return problem;
      }
    }
  }
  return null;
}

function checkTarget(
  target: RouteTarget,
  param: string,
  route: StoredRoute,
  view: RouteView,
  knownProvider: (id: string) => boolean,
): RouteProblem | null {
  const { model } = target;
  const slash = model.indexOf('/');
  if (slash >= 0) {
    const provider = model.slice(0, slash);
    if (slash === 0 || slash === model.length - 1)
      return bad('invalid_target', `'${model}' is neither "provider/model" nor a route name.`, param);
    if (!knownProvider(provider))
      return bad('unknown_provider', `No provider '${provider}' on this gateway (target '${model}').`, param);
    return null;
  }
  if (!ROUTE_NAME.test(model))
    return bad('invalid_target', `'${model}' is neither "provider/model" nor a route name.`, param);
  if (view.resolve(model)) return null;
  const where =
    route.tenantId === null ? 'among the global routes' : `for tenant ${route.tenantId} or globally`;
  return bad('unknown_route', `No route named '${model}' ${where}.`, param);
}

/** The first loop or excess depth seen from `scope` after the change that was not there before it. */
function newLoop(
  old: RouteView,
  now: RouteView,
  after: StoredRoute | null,
  verb: string,
): RouteProblem | null {
  const memoOld = new Map<string, number>();
  const memoNow = new Map<string, number>();
  const roots = now.visible().sort((a, b) => (a.id === after?.id ? -1 : b.id === after?.id ? 1 : 0));
  for (const route of roots) {
    const walk = routeDepth(now, route, memoNow);
    if (!walk.cycle && walk.depth <= MAX_ROUTE_DEPTH) continue;
    const was = old.resolve(route.name);
    const previous = was?.id === route.id ? routeDepth(old, was, memoOld) : null;
    if (previous && sameProblem(previous, walk)) continue;
    return describeLoop(route, walk, route.id === after?.id, now.scope, verb);
  }
  return null;
}

const sameProblem = (a: RouteWalk, b: RouteWalk) =>
  a.cycle && b.cycle ? a.cycle.join() === b.cycle.join() : !a.cycle && !b.cycle && a.depth >= b.depth;

function describeLoop(
  route: StoredRoute,
  walk: RouteWalk,
  own: boolean,
  scope: string | null,
  verb: string,
): RouteProblem {
  const seen = scope !== route.tenantId ? ` for tenant ${scope}, through that tenant's own routes` : '';
  if (walk.cycle) {
    const chain = walk.cycle.join(' → ');
    const message =
      own && walk.cycle[0] === route.name
        ? `Route '${route.name}' reaches itself${seen}: ${chain}.`
        : `${verb} would make route ${describeRoute(route)} loop${seen}: ${chain}.`;
    return bad('route_cycle', message, own ? walk.via : 'spec');
  }
  const depth = `nest ${walk.depth} levels deep${seen} (each group and each route named counts); at most ${MAX_ROUTE_DEPTH}`;
  const message = own
    ? `Route '${route.name}' would ${depth}.`
    : `${verb} would make route ${describeRoute(route)} ${depth}.`;
  return bad('route_too_deep', message, 'spec');
}

function* groupsOf(
  group: RouteGroup | RouteSpec,
  path = 'spec',
): Generator<{ group: RouteGroup | RouteSpec; path: string }> {
  yield { group, path };
  for (const [i, step] of group.targets.entries())
    if (isGroup(step)) yield* groupsOf(step, `${path}.targets.${i}`);
}

/** Every route name the spec names (its targets without a slash). */
export function names(spec: RouteSpec): string[] {
  const out: string[] = [];
  for (const { group } of groupsOf(spec))
    for (const step of group.targets) if (!isGroup(step) && !step.model.includes('/')) out.push(step.model);
  return out;
}

const tenantsOf = (routes: readonly StoredRoute[]) =>
  routes.flatMap((r) => (r.tenantId === null ? [] : [r.tenantId]));
