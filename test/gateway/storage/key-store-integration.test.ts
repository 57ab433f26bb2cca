/**
 * The key store's tiers under a flood of unknown bearer values: no storage
 * write for a value that is not a key, D1 read at most once per unknown hash
 * per isolate and bounded overall; known keys still go through KV.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app';
import { GatewayError } from '../../../src/core/errors';
import type { KeyRecord } from '../../../src/core/key-record';
import { d1KeyLoader } from '../../../src/storage/d1-keys';
import { kvKey, MISS_BURST, MISS_PER_S, TieredKeyStore } from '../../../src/storage/key-store';
import { randomToken, sha256Hex } from '../../../src/util/crypto';
import { chatBody, countingKv, seedKey } from '../helpers';

describe('unknown bearer values', () => {
  it('cost no KV write: 100 random values through the gateway → 100 × 401, zero writes', async () => {
    const { kv, writes } = countingKv(env.KV_KEYS);
    const bindings = { ...env, KV_KEYS: kv };
    const app = createApp();
    const statuses = new Set<number>();
    // Each request's log event waits in its batch (LOG_BATCH_WAIT_MS): wait for all their work at the end.
    const contexts: ExecutionContext[] = [];
    for (let i = 0; i < 100; i++) {
      const ctx = createExecutionContext();
      contexts.push(ctx);
      const res = await app.fetch(
        new Request('http://gw.test/v1/chat/completions', {
          method: 'POST',
          headers: { authorization: `Bearer ew_${randomToken()}`, 'content-type': 'application/json' },
          body: JSON.stringify(chatBody('hi')),
        }),
        bindings,
        ctx,
      );
      statuses.add(res.status);
      await res.arrayBuffer();
    }
    await Promise.all(contexts.map((ctx) => waitOnExecutionContext(ctx)));
    expect([...statuses]).toEqual([401]);
    expect(writes).toEqual([]);
    expect((await env.KV_KEYS.list({ prefix: 'key:' })).keys).toEqual([]);
  });

  it('read D1 once per unknown hash per isolate (the isolate negative cache)', async () => {
    let loads = 0;
    const store = new TieredKeyStore(env.KV_KEYS, async (hash) => {
      loads += 1;
      return d1KeyLoader(env.DB)(hash);
    });
    const hash = await sha256Hex(`ew_${randomToken()}`);
    for (let i = 0; i < 20; i++) expect(await store.findByHash(hash)).toBeNull();
    expect(loads).toBe(1);
  });

  it(`are bounded per isolate: ${MISS_BURST} D1 misses at once, then ${MISS_PER_S}/s, then 503 with retry-after`, async () => {
    let now = 5_000_000;
    let loads = 0;
    const store = new TieredKeyStore(
      env.KV_KEYS,
      async () => {
        loads += 1;
        return null;
      },
      () => now,
    );
    const fresh = () => `miss-${randomToken(12)}`;
    for (let i = 0; i < MISS_BURST; i++) expect(await store.findByHash(fresh())).toBeNull();
    const refused = await store.findByHash(fresh()).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused).toMatchObject({ status: 503, code: 'key_lookup_busy', headers: { 'retry-after': '1' } });
    expect(loads).toBe(MISS_BURST);
    now += 1000;
    for (let i = 0; i < MISS_PER_S; i++) expect(await store.findByHash(fresh())).toBeNull();
    await expect(store.findByHash(fresh())).rejects.toBeInstanceOf(GatewayError);
    expect(loads).toBe(MISS_BURST + MISS_PER_S);
  });
});

describe('known keys', () => {
  it('keep the KV tier: the first lookup writes the record to KV', async () => {
    const { hash, id } = await seedKey();
    const { kv, writes } = countingKv(env.KV_KEYS);
    const first = await new TieredKeyStore(kv, d1KeyLoader(env.DB)).findByHash(hash);
    expect(first?.id).toBe(id);
    expect(writes).toEqual([`put ${kvKey(hash)}`]);
    const cached = (await env.KV_KEYS.get(kvKey(hash), 'json')) as KeyRecord | null;
    expect(cached?.id).toBe(id);
  });

  it('never spend the miss budget', async () => {
    const { hash } = await seedKey();
    const load = d1KeyLoader(env.DB);
    const store = new TieredKeyStore(
      env.KV_KEYS,
      (h) => (h === hash ? load(h) : Promise.resolve(null)),
      () => 9e6,
    );
    for (let i = 0; i < MISS_BURST - 1; i++) await store.findByHash(`miss-${i}`);
    for (let i = 0; i < 20; i++) {
      await store.invalidate(hash);
      expect(await store.findByHash(hash)).not.toBeNull();
    }
    expect(await store.findByHash('miss-last')).toBeNull();
    await expect(store.findByHash('miss-one-too-many')).rejects.toMatchObject({ status: 503 });
  });
});
