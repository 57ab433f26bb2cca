/**
 * The route store's tiers with real KV and D1: a known route costs one D1 read
 * then lives in KV and the isolate; a tenant's route shadows the global one;
 * unknown names cost no storage write and one D1 read per isolate, bounded
 * overall; an admin write is seen by the very next lookup in this isolate.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors';
import { RouteSpec } from '../../../src/core/route-spec';
import { D1RouteAdminStore, d1RouteLoader } from '../../../src/storage/route-admin-store';
import {
  ISOLATE_TTL_MS,
  MISS_BURST,
  MISS_PER_S,
  NEGATIVE_TTL_MS,
  type RouteLoader,
  routeKvKey,
  TieredRouteStore,
} from '../../../src/storage/route-store';
import { randomToken } from '../../../src/util/crypto';
import { admin, createTenant } from '../admin-helpers';
import { countingKv } from '../helpers';

/** The D1 loader, counting its reads. */
function countingLoader(): { load: RouteLoader; reads: () => number } {
  let reads = 0;
  const load = d1RouteLoader(env.DB);
  return {
    load: (tenantId, name) => {
      reads += 1;
      return load(tenantId, name);
    },
    reads: () => reads,
  };
}

const spec = (model: string) => RouteSpec.parse({ strategy: 'fallback', targets: [{ model }] });
const unique = (base: string) => `${base}-${randomToken(6)}`;

async function seedRoute(name: string, tenantId: string | null, model: string) {
  const written = await new D1RouteAdminStore(env.DB).create(
    { name, tenantId, spec: spec(model) },
    Date.now(),
  );
  if (!written.ok) throw new Error('name taken');
  return written.route;
}

describe('known routes', () => {
  it('cost one D1 read per scope, then are served from KV and the isolate', async () => {
    const name = unique('known');
    const stored = await seedRoute(name, null, 'mock/echo');
    const { kv, writes } = countingKv(env.KV_KEYS);
    const { load, reads } = countingLoader();
    let now = 1_000_000;
    const store = new TieredRouteStore(kv, load, () => now);
    const found = await store.find('ten_any', name);
    expect(found).toEqual({ id: stored.id, name, tenantId: null, spec: stored.spec });
    expect(writes).toEqual([`put ${routeKvKey(null, name)}`]);
    expect(await env.KV_KEYS.get(routeKvKey(null, name), 'json')).toMatchObject({ id: stored.id });
    for (let i = 0; i < 10; i++) await store.find('ten_any', name);
    now += ISOLATE_TTL_MS + 1;
    // Past the isolate TTL the route comes back from KV; the tenant-scope miss stays cached.
    await store.find('ten_any', name);
    expect(reads()).toBe(2);
  });

  it("a tenant's own route shadows the global one of the same name, for that tenant only", async () => {
    const tenant = await createTenant('shadow');
    const name = unique('shared');
    await seedRoute(name, null, 'mock/global');
    await seedRoute(name, tenant.id, 'mock/own');
    const store = new TieredRouteStore(env.KV_KEYS, d1RouteLoader(env.DB));
    expect((await store.find(tenant.id, name))?.spec.targets[0]).toMatchObject({ model: 'mock/own' });
    expect((await store.find('ten_other', name))?.spec.targets[0]).toMatchObject({ model: 'mock/global' });
    expect(await env.KV_KEYS.get(routeKvKey(tenant.id, name))).not.toBeNull();
  });

  it('a KV entry that fails the schema is ignored, and D1 answers', async () => {
    const name = unique('corrupt');
    await seedRoute(name, null, 'mock/echo');
    await env.KV_KEYS.put(routeKvKey(null, name), JSON.stringify({ id: 'x', spec: { strategy: 'nope' } }));
    const found = await new TieredRouteStore(env.KV_KEYS, d1RouteLoader(env.DB)).find('ten_any', name);
    expect(found?.spec.targets[0]).toMatchObject({ model: 'mock/echo' });
  });
});

describe('unknown names', () => {
  it('cost no storage write, and one D1 read per scope per isolate until the negative TTL', async () => {
    const { kv, writes } = countingKv(env.KV_KEYS);
    const { load, reads } = countingLoader();
    let now = 2_000_000;
    const store = new TieredRouteStore(kv, load, () => now);
    const name = unique('ghost');
    for (let i = 0; i < 20; i++) expect(await store.find('ten_a', name)).toBeNull();
    expect(reads()).toBe(2);
    expect(writes).toEqual([]);
    // A route created behind the store's back is seen once the negative entry expires.
    await seedRoute(name, null, 'mock/echo');
    expect(await store.find('ten_a', name)).toBeNull();
    now += NEGATIVE_TTL_MS + 1;
    expect(await store.find('ten_a', name)).not.toBeNull();
  });

  it(`are bounded per isolate: ${MISS_BURST} D1 misses at once, then ${MISS_PER_S}/s, then 503 with retry-after`, async () => {
    let now = 5_000_000;
    let loads = 0;
    const store = new TieredRouteStore(
      env.KV_KEYS,
      async () => {
        loads += 1;
        return null;
      },
      () => now,
    );
    // Each unknown name misses twice: the tenant's scope, then the global one.
    for (let i = 0; i < MISS_BURST / 2; i++) expect(await store.find('ten_a', unique('flood'))).toBeNull();
    const refused = await store.find('ten_a', unique('flood')).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused).toMatchObject({
      status: 503,
      code: 'route_lookup_busy',
      headers: { 'retry-after': '1' },
    });
    expect(loads).toBe(MISS_BURST);
    now += 1000;
    for (let i = 0; i < MISS_PER_S / 2; i++) expect(await store.find('ten_a', unique('flood'))).toBeNull();
    await expect(store.find('ten_a', unique('flood'))).rejects.toMatchObject({ status: 503 });
    expect(loads).toBe(MISS_BURST + MISS_PER_S);
  });
});

describe('admin writes', () => {
  it('are seen by the very next lookup in this isolate: create, update, shadow, rename, delete', async () => {
    const tenant = await createTenant('writes');
    const name = unique('smart');
    const store = new TieredRouteStore(env.KV_KEYS, d1RouteLoader(env.DB));
    const model = async () =>
      ((await store.find(tenant.id, name))?.spec.targets[0] as { model: string } | undefined)?.model;

    expect(await model()).toBeUndefined();
    const created = await admin('POST', '/routes', { name, spec: spec('mock/one') });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as { id: string }).id;
    expect(await model()).toBe('mock/one');

    expect((await admin('PATCH', `/routes/${id}`, { spec: spec('mock/two') })).status).toBe(200);
    expect(await model()).toBe('mock/two');

    const own = await admin('POST', '/routes', { name, tenant_id: tenant.id, spec: spec('mock/own') });
    expect(own.status, own.text).toBe(201);
    expect(await model()).toBe('mock/own');
    const ownId = (own.json as { id: string }).id;
    expect((await admin('DELETE', `/routes/${ownId}`)).status).toBe(204);
    expect(await model()).toBe('mock/two');

    const renamed = unique('renamed');
    expect((await admin('PATCH', `/routes/${id}`, { name: renamed })).status).toBe(200);
    expect(await model()).toBeUndefined();
    expect(await store.find(tenant.id, renamed)).not.toBeNull();
    expect((await admin('DELETE', `/routes/${id}`)).status).toBe(204);
    expect(await store.find(tenant.id, renamed)).toBeNull();
    expect(await env.KV_KEYS.get(routeKvKey(null, renamed))).toBeNull();
  });
});
