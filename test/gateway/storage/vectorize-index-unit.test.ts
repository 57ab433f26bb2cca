import { describe, expect, it } from 'vitest';
import { embedLocally } from '../../../src/storage/local-embedder';
import type { VectorItem } from '../../../src/storage/vector-index';
import { tenantNamespace, vectorizeIndex } from '../../../src/storage/vectorize-index';
import { FakeVectorize } from '../fakes/vectorize';

const DIMS = 512;
const PH_A = 'a'.repeat(64);
const PH_B = 'b'.repeat(64);
const HOUR = 3_600_000;

function setup() {
  const fake = new FakeVectorize({
    dimensions: DIMS,
    metadataIndexes: { params_hash: 'string', expires_at: 'number' },
  });
  return { fake, index: vectorizeIndex(fake) };
}

function item(
  tenantId: string,
  paramsHash: string,
  text: string,
  cacheKey: string,
  expiresAt = Date.now() + HOUR,
): VectorItem {
  return {
    id: `${tenantId}:${paramsHash.slice(0, 4)}:${text}`.slice(0, 64),
    vector: embedLocally(text),
    tenantId,
    paramsHash,
    cacheKey,
    expiresAt,
  };
}

const query = (tenantId: string, paramsHash = PH_A, now = Date.now(), topK = 5) => ({
  topK,
  tenantId,
  paramsHash,
  now,
});

describe('Vectorize adapter against the fake index', () => {
  it('stores each tenant in its own namespace and never crosses them', async () => {
    const { fake, index } = setup();
    await index.upsert([
      item('ten_a', PH_A, 'same question', 'k-a'),
      item('ten_b', PH_A, 'same question', 'k-b'),
    ]);
    expect([...fake.rows.values()].map((r) => r.namespace).sort()).toEqual(['ten_a', 'ten_b']);
    expect((await index.query(embedLocally('same question'), query('ten_a'))).map((m) => m.cacheKey)).toEqual(
      ['k-a'],
    );
    expect((await index.query(embedLocally('same question'), query('ten_b'))).map((m) => m.cacheKey)).toEqual(
      ['k-b'],
    );
    expect(await index.query(embedLocally('same question'), query('ten_c'))).toEqual([]);
  });

  it('filters on the params hash and on expiry', async () => {
    const { index } = setup();
    const now = Date.now();
    await index.upsert([item('t', PH_A, 'q', 'k-live', now + 1000), item('t', PH_B, 'q', 'k-other-params')]);
    expect((await index.query(embedLocally('q'), query('t', PH_A, now))).map((m) => m.cacheKey)).toEqual([
      'k-live',
    ]);
    expect(await index.query(embedLocally('q'), query('t', PH_A, now + 1000))).toEqual([]);
  });

  it('re-checks metadata: a longer hash sharing the 64 indexed bytes does not match', async () => {
    const { index } = setup();
    await index.upsert([item('t', `${PH_A}-suffix`, 'q', 'k-long')]);
    expect(await index.query(embedLocally('q'), query('t', PH_A))).toEqual([]);
  });

  it('re-checks metadata: a row in the namespace claiming another tenant is dropped', async () => {
    const { fake, index } = setup();
    await fake.upsert([
      {
        id: 'x',
        values: embedLocally('q'),
        namespace: 't',
        metadata: { tenant: 'intruder', params_hash: PH_A, cache_key: 'k', expires_at: Date.now() + HOUR },
      },
    ]);
    expect(await index.query(embedLocally('q'), query('t'))).toEqual([]);
  });

  it('keeps topK within the limit for queries returning metadata', async () => {
    const { index } = setup();
    await index.upsert(Array.from({ length: 30 }, (_, i) => item('t', PH_A, `question ${i}`, `k-${i}`)));
    expect(await index.query(embedLocally('question'), query('t', PH_A, Date.now(), 50))).toHaveLength(20);
  });

  it('splits upserts at 1000 vectors and hashes tenant ids too long for a namespace', async () => {
    const { fake, index } = setup();
    const long = 't'.repeat(100);
    await index.upsert(
      Array.from({ length: 1500 }, (_, i) => ({ ...item(long, PH_A, 'q', `k-${i}`), id: `id-${i}` })),
    );
    expect(fake.rows.size).toBe(1500);
    expect(tenantNamespace(long)).toMatch(/^h:[0-9a-f]{62}$/);
    expect((await index.query(embedLocally('q'), query(long)))[0]?.cacheKey).toMatch(/^k-/);
  });
});

describe('the Vectorize fake refuses what the service refuses', () => {
  const { fake } = setup();
  const v = embedLocally('x');
  const ok = { id: 'ok', values: v };

  it('vectors of the wrong dimension', async () => {
    await expect(fake.upsert([{ id: 'a', values: [1, 2, 3] }])).rejects.toThrow(/expected 512 dimensions/);
    await expect(fake.query([1, 2, 3])).rejects.toThrow(/expected 512 dimensions/);
  });

  it('topK beyond 100, or beyond 20 when values or all metadata are returned', async () => {
    await expect(fake.query(v, { topK: 101 })).rejects.toThrow(/topK/);
    await expect(fake.query(v, { topK: 21, returnMetadata: 'all' })).rejects.toThrow(/topK/);
    await expect(fake.query(v, { topK: 21, returnValues: true })).rejects.toThrow(/topK/);
    await expect(fake.query(v, { topK: 100, returnMetadata: 'indexed' })).resolves.toBeTruthy();
  });

  it('ids and namespaces over 64 bytes, oversized or badly keyed metadata, oversized batches', async () => {
    await expect(fake.upsert([{ ...ok, id: 'é'.repeat(33) }])).rejects.toThrow(/vector id/);
    await expect(fake.upsert([{ ...ok, namespace: 'n'.repeat(65) }])).rejects.toThrow(/namespace/);
    await expect(fake.query(v, { namespace: 'n'.repeat(65) })).rejects.toThrow(/namespace/);
    await expect(fake.upsert([{ ...ok, metadata: { blob: 'x'.repeat(10_241) } }])).rejects.toThrow(
      /metadata over/,
    );
    for (const key of ['a.b', '$a', 'a"b', ''])
      await expect(fake.upsert([{ ...ok, metadata: { [key]: 1 } }])).rejects.toThrow(/metadata key/);
    await expect(
      fake.upsert(Array.from({ length: 1001 }, (_, i) => ({ ...ok, id: `i${i}` }))),
    ).rejects.toThrow(/1000/);
  });

  it('filters on non-indexed properties, with unknown operators, empty or too large', async () => {
    await expect(fake.query(v, { filter: { tenant: 'x' } })).rejects.toThrow(/no metadata index/);
    await expect(fake.query(v, { filter: { params_hash: { $regex: 'x' } as never } })).rejects.toThrow(
      /operator/,
    );
    await expect(fake.query(v, { filter: {} })).rejects.toThrow(/non-empty/);
    await expect(
      fake.query(v, { filter: { params_hash: { $in: Array(300).fill('abcdefgh') } } }),
    ).rejects.toThrow(/2048/);
    await expect(fake.query(v, { filter: { params_hash: { $in: [{}] as never } } })).rejects.toThrow(
      /operand/,
    );
  });

  it('applies the documented operators', async () => {
    const f = new FakeVectorize({ dimensions: 2, metadataIndexes: { n: 'number', s: 'string' } });
    await f.upsert([
      { id: '1', values: [1, 0], metadata: { n: 1, s: 'a' } },
      { id: '2', values: [1, 0], metadata: { n: 2, s: 'b' } },
      { id: '3', values: [1, 0], metadata: { n: 3 } },
    ]);
    const ids = async (filter: VectorizeVectorMetadataFilter) =>
      (await f.query([1, 0], { topK: 10, filter })).matches.map((m) => m.id).sort();
    expect(await ids({ n: { $gt: 1 } })).toEqual(['2', '3']);
    expect(await ids({ n: { $gte: 1, $lt: 3 } })).toEqual(['1', '2']);
    expect(await ids({ n: { $lte: 1 } })).toEqual(['1']);
    expect(await ids({ s: 'a' })).toEqual(['1']);
    expect(await ids({ s: { $ne: 'a' } })).toEqual(['2', '3']);
    expect(await ids({ s: { $in: ['a', 'b'] } })).toEqual(['1', '2']);
    expect(await ids({ s: { $nin: ['a'] } })).toEqual(['2', '3']);
  });
});
