import { env } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { IndexedSemanticCache } from '../../../src/cache/semantic';
import { createSemanticCache, parseEmbedderSpec, type SemanticEnv } from '../../../src/cache/semantic-deps';
import type { Bindings } from '../../../src/env';
import { buildRegistry } from '../../../src/providers/registry';
import { durableVectorIndex } from '../../../src/storage/durable-vector-index';
import { localEmbedder } from '../../../src/storage/local-embedder';
import type { VectorIndex } from '../../../src/storage/vector-index';
import { FakeVectorize } from '../fakes/vectorize';
import { FakeWorkersAi } from '../fakes/workers-ai';

/** The test env, typed as the Worker sees it (a fresh object literal needs no cast). */
const bindings: Bindings = { ...env };
const providers = buildRegistry(bindings);
let seq = 0;
const tenant = () => `ten_semcache_${++seq}`;
const PH = 'c'.repeat(64);

function withFakes(overrides: Partial<SemanticEnv> = {}) {
  const ai = new FakeWorkersAi();
  const vectorize = new FakeVectorize({
    dimensions: 768,
    metadataIndexes: { params_hash: 'string', expires_at: 'number' },
  });
  return { ai, vectorize, semanticEnv: { ...env, AI: ai, VECTORIZE: vectorize, ...overrides } };
}

describe('parseEmbedderSpec', () => {
  it('reads every documented form', () => {
    expect(parseEmbedderSpec(undefined)).toEqual({ kind: 'auto' });
    expect(parseEmbedderSpec(' auto ')).toEqual({ kind: 'auto' });
    expect(parseEmbedderSpec('local')).toEqual({ kind: 'local' });
    expect(parseEmbedderSpec('workers-ai')).toEqual({
      kind: 'workers-ai',
      model: '@cf/baai/bge-base-en-v1.5',
    });
    expect(parseEmbedderSpec('workers-ai:@cf/baai/bge-small-en-v1.5')).toEqual({
      kind: 'workers-ai',
      model: '@cf/baai/bge-small-en-v1.5',
    });
    expect(parseEmbedderSpec('openai:mock/text-embedding-3-small')).toEqual({
      kind: 'openai',
      provider: 'mock',
      model: 'text-embedding-3-small',
    });
  });

  it('refuses what it cannot honour, naming it', () => {
    expect(() => parseEmbedderSpec('workers-ai:@cf/unknown')).toThrow(/unknown Workers AI embedding model/);
    expect(() => parseEmbedderSpec('cohere')).toThrow(/expected auto, local/);
  });
});

describe('createSemanticCache', () => {
  it('without Cloudflare-only bindings: local embedder and the Durable Object index, end to end', async () => {
    const cache = createSemanticCache(env, providers);
    const [a, b] = [tenant(), tenant()];
    await cache.remember(
      { tenantId: a, paramsHash: PH, text: 'What is the capital of France?' },
      'v1:k-paris',
      600,
    );
    expect(
      await cache.find({ tenantId: a, paramsHash: PH, text: 'what is the capital of france' }, 0.95),
    ).toMatchObject({ cacheKey: 'v1:k-paris' });
    expect(
      await cache.find({ tenantId: b, paramsHash: PH, text: 'What is the capital of France?' }, 0),
    ).toBeNull();
  });

  it('with AI and VECTORIZE bound: Workers AI embeddings in Vectorize, one namespace per tenant', async () => {
    const { ai, vectorize, semanticEnv } = withFakes();
    const cache = createSemanticCache(semanticEnv, providers);
    const t = tenant();
    await cache.remember(
      { tenantId: t, paramsHash: PH, text: 'How do I reset my password?' },
      'v1:k-reset',
      600,
    );
    expect([...vectorize.rows.values()].map((r) => r.namespace)).toEqual([t]);
    expect(
      await cache.find({ tenantId: t, paramsHash: PH, text: 'How do I reset my password' }, 0.95),
    ).toMatchObject({ cacheKey: 'v1:k-reset' });
    expect(ai.calls.every((c) => c.model === '@cf/baai/bge-base-en-v1.5')).toBe(true);
    expect(ai.calls).toHaveLength(2);
  });

  it('an OpenAI-compatible embedder via the providers table (the mock)', async () => {
    const cache = createSemanticCache(
      { ...env, SEMANTIC_EMBEDDER: 'openai:mock/text-embedding-3-small' },
      providers,
    );
    const t = tenant();
    await cache.remember({ tenantId: t, paramsHash: PH, text: 'exact words' }, 'v1:k-mock', 600);
    expect(await cache.find({ tenantId: t, paramsHash: PH, text: 'exact words' }, 0.99)).toMatchObject({
      cacheKey: 'v1:k-mock',
      score: 1,
    });
  });

  it('never compares vectors of another embedder, even of the same size in the same index', async () => {
    const index = durableVectorIndex(env.VECTOR_INDEX);
    const query = { tenantId: tenant(), paramsHash: PH, text: 'Shared index, two models' };
    await new IndexedSemanticCache(localEmbedder(), index).remember(query, 'v1:k-local', 600);
    const renamed = new IndexedSemanticCache({ ...localEmbedder(), id: 'another-model:512' }, index);
    expect(await renamed.find(query, 0)).toBeNull();
    expect(await new IndexedSemanticCache(localEmbedder(), index).find(query, 0.99)).not.toBeNull();
  });

  it('fails loudly on a SEMANTIC_EMBEDDER it cannot honour', () => {
    expect(() => createSemanticCache({ ...env, SEMANTIC_EMBEDDER: 'workers-ai' }, providers)).toThrow(
      /AI binding is absent/,
    );
    expect(() => createSemanticCache({ ...env, SEMANTIC_EMBEDDER: 'openai:nope/m' }, providers)).toThrow(
      /'nope' is unknown/,
    );
    expect(() =>
      createSemanticCache({ ...env, SEMANTIC_EMBEDDER: 'openai:openai/text-embedding-3-small' }, providers),
    ).toThrow(/unconfigured/);
  });
});

describe('IndexedSemanticCache fails open', () => {
  it('treats an embedder or index failure as a miss and stores nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const broken: VectorIndex = {
      query: async () => {
        throw new Error('index down');
      },
      upsert: async () => {
        throw new Error('index down');
      },
    };
    const cache = new IndexedSemanticCache(localEmbedder(), broken);
    const query = { tenantId: 't', paramsHash: PH, text: 'q' };
    await expect(cache.find(query, 0.9)).resolves.toBeNull();
    await expect(cache.remember(query, 'k', 60)).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });

  it('a dimension mismatch between embedder and Vectorize index is a miss, not an error', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { vectorize, semanticEnv } = withFakes({ SEMANTIC_EMBEDDER: 'local' });
    const cache = createSemanticCache(semanticEnv, providers);
    await cache.remember({ tenantId: 't', paramsHash: PH, text: 'q' }, 'k', 60);
    expect(vectorize.rows.size).toBe(0);
    expect(await cache.find({ tenantId: 't', paramsHash: PH, text: 'q' }, 0)).toBeNull();
    expect(warn.mock.calls.flat().join(' ')).toMatch(/expected 768 dimensions/);
    warn.mockRestore();
  });
});
