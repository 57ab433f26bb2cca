/**
 * /admin/routes: named routes, global or per tenant: create, list, get,
 * update (name and spec; a route never changes scope) and delete.
 *
 * Every write is checked against the routes it can affect before it is made
 * (src/routing/validate.ts): unknown providers or route names, loadbalance
 * weights summing to zero, loops and excess nesting are 400s naming the field;
 * a name already taken in the scope, or a delete or rename that would leave
 * another route naming nothing, is a 409. Each write then invalidates the
 * cached lookups of the names it touched, awaited before answering, so the
 * very next request here sees it (elsewhere within src/storage/route-store.ts's bound).
 * A route's health (breakers and fallback rate per target) is ./route-health.ts.
 */
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { GatewayError } from '../../core/errors';
import { checkRouteChange, nameTaken, type RouteProblem } from '../../routing/validate';
import { D1RouteAdminStore, type Route, type RouteScope, toStored } from '../../storage/route-admin-store';
import type { StoredRoute } from '../../storage/route-store';
import type { Operation } from '../operation';
import { listBody } from '../pagination';
import {
  GLOBAL_SCOPE,
  Route as RouteSchema,
  RouteCreate,
  RouteList,
  RouteListQuery,
  RouteUpdate,
} from './route-schemas';
import { routeHealth, routeHealthOperation } from './route-health';
import { tenantNotFound } from './tenants';
import { readBody, readQuery } from '../validate';

const routeDoc = { id: 'Route', schema: RouteSchema };

export const routeOperations: Operation[] = [
  {
    method: 'post',
    path: '/admin/routes',

    access: { level: 'write' },
    summary: 'Create a named route, global or for one tenant',
    body: { id: 'RouteCreate', schema: RouteCreate },
    status: 201,
    response: routeDoc,
  },
  {
    method: 'get',
    path: '/admin/routes',

    access: { level: 'read' },
    summary: 'List routes, newest first: all, the global ones, or one tenant’s own',
    query: RouteListQuery,
    status: 200,
    response: { id: 'RouteList', schema: RouteList },
  },
  {
    method: 'get',
    path: '/admin/routes/{id}',
    access: { level: 'read' },
    summary: 'Get a route',
    status: 200,
    response: routeDoc,
  },
  routeHealthOperation,
  {
    method: 'patch',
    path: '/admin/routes/{id}',

    access: { level: 'write' },
    summary: 'Rename a route or replace its spec',
    body: { id: 'RouteUpdate', schema: RouteUpdate },
    status: 200,
    response: routeDoc,
  },
  {
    method: 'delete',
    path: '/admin/routes/{id}',

    access: { level: 'write' },
    summary: 'Delete a route no other route names',
    status: 204,
  },
];

function routeNotFound(id: string): GatewayError {
  return new GatewayError(404, `No route with id '${id}'.`, { code: 'route_not_found' });
}

function refused(problem: RouteProblem): GatewayError {
  return new GatewayError(problem.status, problem.message, { code: problem.code, param: problem.param });
}

/** Refuses the change when it would break a route (see src/routing/validate.ts). */
async function check(
  c: Context<AppEnv>,
  store: D1RouteAdminStore,
  before: StoredRoute | null,
  after: StoredRoute | null,
): Promise<void> {
  const tenantId = (after ?? before)?.tenantId ?? null;
  const entries = c.var.deps.providers.entries();
  const problem = checkRouteChange({
    before,
    after,
    book: await store.book(tenantId),
    knownProvider: (id) => entries.some((e) => e.id === id),
  });
  if (problem) throw refused(problem);
}

async function requireTenant(c: Context<AppEnv>, id: string): Promise<void> {
  if (!(await c.var.deps.tenants.get(id))) throw tenantNotFound(id);
}

async function requireRoute(store: D1RouteAdminStore, id: string): Promise<Route> {
  const route = await store.get(id);
  if (!route) throw routeNotFound(id);
  return route;
}

export function routesRouter(now: () => number = Date.now) {
  const router = new Hono<AppEnv>();
  const storeOf = (c: Context<AppEnv>) => new D1RouteAdminStore(c.var.adminDb);

  router.post('/', async (c) => {
    const input = await readBody(c, RouteCreate);
    const store = storeOf(c);
    const tenantId = input.tenant_id ?? null;
    if (tenantId !== null) await requireTenant(c, tenantId);
    const route = { name: input.name, tenantId, spec: input.spec };
    await check(c, store, null, { id: '', ...route });
    const written = await store.create(route, now());
    if (!written.ok) throw refused(nameTaken(route));
    await c.var.deps.routes.invalidate(tenantId, route.name);
    return c.json(written.route, 201);
  });

  router.get('/', async (c) => {
    const query = readQuery(c, RouteListQuery);
    let scope: RouteScope = 'all';
    if (query.tenant_id === GLOBAL_SCOPE) scope = 'global';
    else if (query.tenant_id !== undefined) {
      await requireTenant(c, query.tenant_id);
      scope = { tenantId: query.tenant_id };
    }
    const page = await storeOf(c).list({ limit: query.limit, cursor: query.cursor ?? null }, scope);
    return c.json(listBody(page));
  });

  router.get('/:id', async (c) => c.json(await requireRoute(storeOf(c), c.req.param('id'))));

  router.get('/:id/health', async (c) =>
    c.json(await routeHealth(c, await requireRoute(storeOf(c), c.req.param('id')), now())),
  );

  router.patch('/:id', async (c) => {
    const patch = await readBody(c, RouteUpdate);
    const store = storeOf(c);
    const current = await requireRoute(store, c.req.param('id'));
    const before = toStored(current);
    const after = { ...before, name: patch.name ?? before.name, spec: patch.spec ?? before.spec };
    await check(c, store, before, after);
    const written = await store.update(current.id, patch, now());
    if (!written) throw routeNotFound(current.id);
    if (!written.ok) throw refused(nameTaken(after));
    const { routes } = c.var.deps;
    await Promise.all([
      routes.invalidate(before.tenantId, before.name),
      routes.invalidate(after.tenantId, after.name),
    ]);
    return c.json(written.route);
  });

  router.delete('/:id', async (c) => {
    const store = storeOf(c);
    const current = await requireRoute(store, c.req.param('id'));
    await check(c, store, toStored(current), null);
    if (!(await store.delete(current.id))) throw routeNotFound(current.id);
    await c.var.deps.routes.invalidate(current.tenant_id, current.name);
    return c.body(null, 204);
  });

  return router;
}
