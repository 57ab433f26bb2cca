import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { IndexedSemanticCache } from '../../../src/cache/semantic';
import type { VectorIndexDO } from '../../../src/durable/vector-index';
import { MAX_ROWS_PER_SCOPE, MAX_UPSERT_BATCH } from '../../../src/storage/vector-index-protocol';
import { durableVectorIndex } from '../../../src/storage/durable-vector-index';
import { embedLocally, localEmbedder } from '../../../src/storage/local-embedder';
import { unitVector } from '../../../src/util/vectors';

const index = durableVectorIndex(env.VECTOR_INDEX);
const HOUR = 3_600_000;
const PH_A = 'a'.repeat(64);
const PH_B = 'b'.repeat(64);

let seq = 0;
const tenant = () => `ten_index_${++seq}`;
const stubOf = (tenantId: string) => env.VECTOR_INDEX.get(env.VECTOR_INDEX.idFromName(tenantId));

function item(
  tenantId: string,
  paramsHash: string,
  text: string,
  cacheKey: string,
  expiresAt = Date.now() + HOUR,
) {
  return {
    id: `${paramsHash.slice(0, 8)}:${text}`.slice(0, 64),
    vector: embedLocally(text),
    tenantId,
    paramsHash,
    cacheKey,
    expiresAt,
  };
}

describe('VectorIndexDO through the VectorIndex port', () => {
  it('finds the stored conversation, best match first', async () => {
    const t = tenant();
    await index.upsert([
      item(t, PH_A, 'What is the capital of France?', 'k-france'),
      item(t, PH_A, 'How do I bake bread?', 'k-bread'),
    ]);
    const matches = await index.query(embedLocally("What's the capital city of France?"), {
      topK: 2,
      tenantId: t,
      paramsHash: PH_A,
      now: Date.now(),
    });
    expect(matches.map((m) => m.cacheKey)).toEqual(['k-france', 'k-bread']);
    expect(matches[0]!.score).toBeGreaterThan(matches[1]!.score);
  });

  it("never returns another tenant's row, even for identical text and params", async () => {
    const [a, b] = [tenant(), tenant()];
    await index.upsert([item(a, PH_A, 'identical question', 'k-tenant-a')]);
    const q = { topK: 5, paramsHash: PH_A, now: Date.now() };
    expect(await index.query(embedLocally('identical question'), { ...q, tenantId: b })).toEqual([]);
    expect((await index.query(embedLocally('identical question'), { ...q, tenantId: a }))[0]?.cacheKey).toBe(
      'k-tenant-a',
    );
  });

  it('never returns a row of another params hash, even for identical text', async () => {
    const t = tenant();
    await index.upsert([item(t, PH_A, 'identical question', 'k-params-a')]);
    expect(
      await index.query(embedLocally('identical question'), {
        topK: 5,
        tenantId: t,
        paramsHash: PH_B,
        now: Date.now(),
      }),
    ).toEqual([]);
  });

  it('ignores rows past their expiry and prunes them on the alarm', async () => {
    const t = tenant();
    const now = Date.now();
    await index.upsert([
      item(t, PH_A, 'short lived', 'k-1', now + 1000),
      item(t, PH_A, 'already gone', 'k-2', now - 1),
    ]);
    const q = { topK: 5, tenantId: t, paramsHash: PH_A };
    expect((await index.query(embedLocally('short lived'), { ...q, now })).map((m) => m.cacheKey)).toEqual([
      'k-1',
    ]);
    expect(await index.query(embedLocally('short lived'), { ...q, now: now + 1000 })).toEqual([]);
    const stub = stubOf(t);
    expect(await stub.count()).toBe(1);
    await runInDurableObject(stub, (_: VectorIndexDO, state) => {
      state.storage.sql.exec('UPDATE vectors SET expires_at = ?', Date.now() - 1);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await stub.count()).toBe(0);
  });

  it('keeps at most MAX_ROWS_PER_SCOPE rows per params hash, evicting the oldest written', async () => {
    const t = tenant();
    const total = MAX_ROWS_PER_SCOPE + 5;
    const rows = Array.from({ length: total }, (_, i) => ({
      id: `row-${i}`,
      vector: unitVector([1, i, 0, 1]),
      tenantId: t,
      paramsHash: PH_A,
      cacheKey: `k-${i}`,
      expiresAt: Date.now() + HOUR,
    }));
    for (let i = 0; i < total; i += MAX_UPSERT_BATCH) await index.upsert(rows.slice(i, i + MAX_UPSERT_BATCH));
    await index.upsert([{ ...rows[0]!, id: 'other-scope', paramsHash: PH_B }]);
    await runInDurableObject(stubOf(t), (_: VectorIndexDO, state) => {
      const ids = state.storage.sql
        .exec<{ id: string }>('SELECT id FROM vectors WHERE params_hash = ?', PH_A)
        .toArray()
        .map((r) => r.id);
      expect(ids).toHaveLength(MAX_ROWS_PER_SCOPE);
      expect(ids).not.toContain('row-0');
      expect(ids).not.toContain('row-4');
      expect(ids).toContain('row-5');
      expect(ids).toContain(`row-${total - 1}`);
      expect(
        state.storage.sql.exec('SELECT id FROM vectors WHERE params_hash = ?', PH_B).toArray(),
      ).toHaveLength(1);
    });
  });

  it('skips rows of another dimension instead of comparing them', async () => {
    const t = tenant();
    await index.upsert(
      [
        { ...item(t, PH_A, 'x', 'k-small'), vector: unitVector([1, 0, 0]) },
        item(t, PH_A, 'x', 'k-local'),
      ].map((r, i) => ({ ...r, id: `d${i}` })),
    );
    const matches = await index.query(embedLocally('x'), {
      topK: 5,
      tenantId: t,
      paramsHash: PH_A,
      now: Date.now(),
    });
    expect(matches.map((m) => m.cacheKey)).toEqual(['k-local']);
  });

  it('refuses an oversized upsert batch', async () => {
    const rows = Array.from({ length: MAX_UPSERT_BATCH + 1 }, (_, i) => ({
      id: `r${i}`,
      vector: unitVector([1]),
      paramsHash: PH_A,
      cacheKey: 'k',
      expiresAt: Date.now() + HOUR,
    }));
    // Called on the instance: a rejecting RPC through a stub leaks an unhandled rejection in
    // vitest-pool-workers (cloudflare/workers-sdk#14736).
    await runInDurableObject(stubOf(tenant()), async (instance: VectorIndexDO) => {
      await expect(instance.upsert(rows)).rejects.toThrow(/at most/);
    });
  });
});

describe('IndexedSemanticCache over the Durable Object index', () => {
  const clock = { now: Date.now() };
  const cache = new IndexedSemanticCache(localEmbedder(), index, () => clock.now);

  it('hits a paraphrase at or above the threshold and misses below it', async () => {
    const t = tenant();
    const query = { tenantId: t, paramsHash: PH_A, text: 'How do I learn Python quickly?' };
    await cache.remember(query, 'v1:k-python', 600);
    const paraphrase = { ...query, text: 'What is the quickest way to learn Python?' };
    const hit = await cache.find(paraphrase, 0.4);
    expect(hit?.cacheKey).toBe('v1:k-python');
    expect(await cache.find(paraphrase, hit!.score + 0.001)).toBeNull();
    expect(await cache.find({ ...query, text: 'Why is the sky blue?' }, 0.4)).toBeNull();
    expect(await cache.find(query, 1)).toEqual({ cacheKey: 'v1:k-python', score: 1 });
  });

  it('isolates tenants and params hashes for identical text', async () => {
    const [a, b] = [tenant(), tenant()];
    const query = { tenantId: a, paramsHash: PH_A, text: 'Same words exactly' };
    await cache.remember(query, 'v1:k-a', 600);
    expect(await cache.find({ ...query, tenantId: b }, 0)).toBeNull();
    expect(await cache.find({ ...query, paramsHash: PH_B }, 0)).toBeNull();
    expect(await cache.find(query, 0.99)).not.toBeNull();
  });

  it('forgets an entry after its TTL', async () => {
    const query = { tenantId: tenant(), paramsHash: PH_A, text: 'Expiring question' };
    await cache.remember(query, 'v1:k-ttl', 60);
    expect(await cache.find(query, 0.99)).not.toBeNull();
    clock.now += 60_000;
    expect(await cache.find(query, 0.99)).toBeNull();
  });

  it('replaces the row when the same conversation is remembered again', async () => {
    const query = { tenantId: tenant(), paramsHash: PH_A, text: 'Asked twice' };
    await cache.remember(query, 'v1:k-old', 600);
    await cache.remember(query, 'v1:k-new', 600);
    expect((await cache.find(query, 0.99))?.cacheKey).toBe('v1:k-new');
    expect(await stubOf(query.tenantId).count()).toBe(1);
  });
});
