/**
 * /admin/routes through the worker: create, list, get, update and delete
 * routes, global and per tenant; refusals as 400 (naming the field), 404 and
 * 409 in the admin API's error envelope; keys may allow routes by name.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Route, RouteList } from '../../../../src/admin/resources/route-schemas';
import { admin, createKey, createTenant } from '../../admin-helpers';

let tenantId: string;

const spec = (...models: string[]) => ({ strategy: 'fallback', targets: models.map((model) => ({ model })) });

async function createRoute(name: string, body: Record<string, unknown> = {}): Promise<Route> {
  const res = await admin('POST', '/routes', { name, spec: spec('mock/echo'), ...body });
  expect(res.status, res.text).toBe(201);
  return Route.parse(res.json);
}

function errorOf(res: { json: unknown }) {
  return (res.json as { error: { message: string; code: string | null; param: string | null } }).error;
}

beforeAll(async () => {
  tenantId = (await createTenant('routes co')).id;
});

describe('POST /admin/routes', () => {
  it('creates a global route, with the spec defaults filled in', async () => {
    const route = await createRoute('crud-global');
    expect(route).toMatchObject({
      id: expect.stringMatching(/^rte_/),
      name: 'crud-global',
      tenant_id: null,
      spec: {
        strategy: 'fallback',
        max_calls: 6,
        targets: [{ model: 'mock/echo', weight: 1, credential: 'auto' }],
      },
    });
    expect(route.created_at).toBe(route.updated_at);
    expect(Route.parse((await admin('GET', `/routes/${route.id}`)).json)).toEqual(route);
  });

  it("creates a tenant's route, and a route named like a provider", async () => {
    expect(await createRoute('crud-own', { tenant_id: tenantId })).toMatchObject({ tenant_id: tenantId });
    expect(await createRoute('openai', { tenant_id: tenantId })).toMatchObject({ name: 'openai' });
  });

  it('404 for an unknown tenant', async () => {
    const res = await admin('POST', '/routes', { name: 'x', tenant_id: 'ten_nope', spec: spec('mock/echo') });
    expect(res.status).toBe(404);
    expect(errorOf(res)).toMatchObject({ code: 'tenant_not_found', param: 'tenant_id' });
  });

  it('400 for a name with a slash, and for a malformed spec, naming the field', async () => {
    const slash = await admin('POST', '/routes', { name: 'a/b', spec: spec('mock/echo') });
    expect(slash.status).toBe(400);
    expect(errorOf(slash).param).toBe('name');
    const weight = await admin('POST', '/routes', {
      name: 'bad-weight',
      spec: { strategy: 'loadbalance', targets: [{ model: 'mock/echo', weight: -1 }] },
    });
    expect(weight.status).toBe(400);
    expect(errorOf(weight).param).toBe('spec.targets.0.weight');
  });

  it('400 for an unknown provider or route, naming the target', async () => {
    const provider = await admin('POST', '/routes', { name: 'x1', spec: spec('mock/echo', 'nope/model') });
    expect(provider.status).toBe(400);
    expect(errorOf(provider)).toEqual({
      message: "No provider 'nope' on this gateway (target 'nope/model').",
      type: 'invalid_request_error',
      code: 'unknown_provider',
      param: 'spec.targets.1.model',
    });
    const route = await admin('POST', '/routes', { name: 'x2', spec: spec('ghost') });
    expect(route.status).toBe(400);
    expect(errorOf(route)).toMatchObject({ code: 'unknown_route', param: 'spec.targets.0.model' });
  });

  it('400 for loadbalance weights that sum to zero', async () => {
    const res = await admin('POST', '/routes', {
      name: 'zero',
      spec: { strategy: 'loadbalance', targets: [{ model: 'mock/echo', weight: 0 }] },
    });
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: 'zero_weights', param: 'spec' });
  });

  it('409 for a name taken in the same scope; the same name in another scope is fine', async () => {
    await createRoute('taken');
    const again = await admin('POST', '/routes', { name: 'taken', spec: spec('mock/echo') });
    expect(again.status).toBe(409);
    expect(errorOf(again)).toMatchObject({ code: 'route_exists', param: 'name' });
    await createRoute('taken', { tenant_id: tenantId });
  });
});

describe('PATCH /admin/routes/:id', () => {
  it('replaces the spec, renames, and refuses a loop with the chain', async () => {
    const smart = await createRoute('loop-smart');
    await createRoute('loop-fast', { spec: spec('loop-smart') });
    const changed = await admin('PATCH', `/routes/${smart.id}`, { spec: spec('mock/echo', 'mock/other') });
    expect(changed.status).toBe(200);
    expect(Route.parse(changed.json).spec.targets).toHaveLength(2);

    const loop = await admin('PATCH', `/routes/${smart.id}`, { spec: spec('mock/echo', 'loop-fast') });
    expect(loop.status).toBe(400);
    expect(errorOf(loop)).toMatchObject({
      code: 'route_cycle',
      message: "Route 'loop-smart' reaches itself: loop-smart → loop-fast → loop-smart.",
      param: 'spec.targets.1.model',
    });

    const renamed = await admin('PATCH', `/routes/${smart.id}`, { name: 'loop-clever' });
    expect(renamed.status).toBe(409);
    expect(errorOf(renamed)).toMatchObject({ code: 'route_in_use', param: 'name' });
  });

  it('404 for an unknown id; 400 for an empty patch', async () => {
    expect((await admin('PATCH', '/routes/rte_nope', { spec: spec('mock/echo') })).status).toBe(404);
    const route = await createRoute('patch-empty');
    expect((await admin('PATCH', `/routes/${route.id}`, {})).status).toBe(400);
  });
});

describe('DELETE /admin/routes/:id', () => {
  it('409 naming the routes that still name it; 204 once they are gone', async () => {
    const fast = await createRoute('del-fast');
    const smart = await createRoute('del-smart', { spec: spec('del-fast') });
    const refused = await admin('DELETE', `/routes/${fast.id}`);
    expect(refused.status).toBe(409);
    expect(errorOf(refused)).toMatchObject({
      code: 'route_in_use',
      message: "Route 'del-fast' (global) is named by route 'del-smart' (global); change those first.",
    });
    expect((await admin('DELETE', `/routes/${smart.id}`)).status).toBe(204);
    expect((await admin('DELETE', `/routes/${fast.id}`)).status).toBe(204);
    expect((await admin('GET', `/routes/${fast.id}`)).status).toBe(404);
    expect((await admin('DELETE', `/routes/${fast.id}`)).status).toBe(404);
  });
});

describe('GET /admin/routes', () => {
  it('lists all, the global ones (tenant_id=global), or one tenant’s own; pages with a cursor', async () => {
    const other = (await createTenant('list co')).id;
    const g = await createRoute('list-global');
    const own = await createRoute('list-own', { tenant_id: other });
    const list = async (query: string) => RouteList.parse((await admin('GET', `/routes${query}`)).json);

    const ids = (await list('?limit=100')).data.map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining([g.id, own.id]));
    const globals = (await list('?tenant_id=global&limit=100')).data;
    expect(globals.every((r) => r.tenant_id === null)).toBe(true);
    expect(globals.map((r) => r.id)).toContain(g.id);
    expect((await list(`?tenant_id=${other}`)).data.map((r) => r.id)).toEqual([own.id]);

    const first = await list('?limit=1');
    expect(first.has_more).toBe(true);
    const second = await list(`?limit=1&cursor=${first.next_cursor}`);
    expect(second.data[0]?.id).not.toBe(first.data[0]?.id);
  });

  it('404 for an unknown tenant', async () => {
    expect((await admin('GET', '/routes?tenant_id=ten_nope')).status).toBe(404);
  });
});

describe("a key's allow-list", () => {
  it('may name a route', async () => {
    const key = await createKey(tenantId, { models: ['smart', 'mock/*', 'openai/gpt-4o'] });
    expect(key.models).toEqual(['smart', 'mock/*', 'openai/gpt-4o']);
    const res = await admin('POST', '/keys', { tenant_id: tenantId, models: ['not a route'] });
    expect(res.status).toBe(400);
    expect(errorOf(res).param).toBe('models.0');
  });
});
