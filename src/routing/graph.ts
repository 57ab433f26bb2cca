/**
 * Routes as seen from one scope, and how deep one nests (pure). In a tenant's
 * scope a name is the tenant's own route, else the global one; in the global
 * scope only global routes exist. Depth counts levels: a route's top group is
 * 1, each nested group one more, and a route named as a target adds its own
 * depth below the level that names it; so `smart → [fast → [openai/x]]` is 2.
 */
import { isGroup, type RouteGroup, type RouteSpec } from '../core/route-spec';
import type { StoredRoute } from '../storage/route-store';

export class RouteView {
  private readonly byName = new Map<string, StoredRoute>();

  /** `scope`: a tenant id, or null for the global routes alone. */
  constructor(
    routes: readonly StoredRoute[],
    readonly scope: string | null,
  ) {
    for (const r of routes) if (r.tenantId === null) this.byName.set(r.name, r);
    if (scope !== null) for (const r of routes) if (r.tenantId === scope) this.byName.set(r.name, r);
  }

  resolve(name: string): StoredRoute | null {
    return this.byName.get(name) ?? null;
  }

  /** The routes a request in this scope can reach by name. */
  visible(): StoredRoute[] {
    return [...this.byName.values()];
  }
}

export interface RouteWalk {
  /** Levels below and including the route's top group; Infinity when it loops. */
  depth: number;
  /** The names from a route back to itself (`a → b → a`), when one is reachable. */
  cycle: string[] | null;
  /** The field of the walked route's spec through which the loop is reached (`spec.targets.0.model`). */
  via: string | null;
}

/** `memo` (route id → depth) may be shared by walks of one view; it only ever holds loop-free depths. */
export function routeDepth(view: RouteView, root: StoredRoute, memo: Map<string, number>): RouteWalk {
  const stack: StoredRoute[] = [];
  const walk: RouteWalk = { depth: 0, cycle: null, via: null };

  const ofRoute = (route: StoredRoute): number => {
    const known = memo.get(route.id);
    if (known !== undefined) return known;
    const at = stack.findIndex((r) => r.id === route.id);
    if (at >= 0) {
      walk.cycle = [...stack.slice(at).map((r) => r.name), route.name];
      return Number.POSITIVE_INFINITY;
    }
    stack.push(route);
    const depth = ofGroup(route.spec, 1, 'spec');
    stack.pop();
    if (!walk.cycle) memo.set(route.id, depth);
    return depth;
  };

  const ofGroup = (group: RouteGroup | RouteSpec, level: number, path: string): number => {
    let deepest = level;
    for (const [i, step] of group.targets.entries()) {
      const at = `${path}.targets.${i}`;
      let depth = level;
      if (isGroup(step)) depth = ofGroup(step, level + 1, at);
      else if (!step.model.includes('/')) {
        const named = view.resolve(step.model);
        if (named) depth = level + ofRoute(named);
      }
      if (walk.cycle) {
        if (stack.length === 1) walk.via ??= isGroup(step) ? at : `${at}.model`;
        return Number.POSITIVE_INFINITY;
      }
      deepest = Math.max(deepest, depth);
    }
    return deepest;
  };

  walk.depth = ofRoute(root);
  return walk;
}
