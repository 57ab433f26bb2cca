import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../../src/env';
import { buildRegistry } from '../../../src/providers/registry';
import type { ProviderAdapter } from '../../../src/providers/types';
import { embedLocally, localEmbedder, LOCAL_EMBEDDER_DIMENSIONS } from '../../../src/storage/local-embedder';
import { openAiEmbedder } from '../../../src/storage/openai-embedder';
import { WORKERS_AI_MAX_BATCH, workersAiEmbedder } from '../../../src/storage/workers-ai-embedder';
import { dot, unitVector } from '../../../src/util/vectors';
import { FakeWorkersAi } from '../fakes/workers-ai';

const cos = (a: string, b: string) => dot(embedLocally(a), embedLocally(b));

describe('local embedder', () => {
  it('is deterministic and unit length', async () => {
    const [a, b] = await localEmbedder().embed(['How do I learn Python?', 'How do I learn Python?']);
    expect(a).toEqual(b);
    expect(a!.length).toBe(LOCAL_EMBEDDER_DIMENSIONS);
    expect(dot(a!, a!)).toBeCloseTo(1, 5);
  });

  it('scores paraphrases above unrelated questions', () => {
    const pairs: [string, string, string][] = [
      ['How do I learn Python quickly?', 'What is the quickest way to learn Python?', 'Why is the sky blue?'],
      [
        'What is the capital of France?',
        "What's the capital city of France?",
        'How do I bake sourdough bread?',
      ],
      [
        'How can I improve my English speaking skills?',
        'How do I improve my spoken English?',
        'Which laptop should I buy for gaming?',
      ],
    ];
    for (const [q, paraphrase, unrelated] of pairs) {
      expect(cos(q, paraphrase)).toBeGreaterThan(cos(q, unrelated) + 0.3);
    }
  });

  it('ignores case, accents and punctuation but not the question word', () => {
    expect(cos('Café prices in Paris?', 'cafe PRICES in paris')).toBeCloseTo(1, 5);
    expect(cos('Why are suspension bridges used?', 'How are suspension bridges used?')).toBeLessThan(0.95);
  });

  it('gives the empty text the zero vector (it never matches anything)', () => {
    expect(dot(embedLocally(''), embedLocally('anything'))).toBe(0);
  });
});

describe('Workers AI embedder against the fake binding', () => {
  it('embeds in batches of at most 100 and returns one vector per text', async () => {
    const ai = new FakeWorkersAi();
    const embedder = workersAiEmbedder(ai, '@cf/baai/bge-small-en-v1.5');
    const texts = Array.from({ length: 250 }, (_, i) => `question number ${i}`);
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(250);
    expect(vectors.every((v) => v.length === 384)).toBe(true);
    expect(ai.calls.map((c) => c.count)).toEqual([WORKERS_AI_MAX_BATCH, WORKERS_AI_MAX_BATCH, 50]);
    expect(embedder.id).toBe('workers-ai:@cf/baai/bge-small-en-v1.5:cls');
  });

  it('the fake refuses what the service refuses', async () => {
    const ai = new FakeWorkersAi();
    await expect(ai.run('@cf/baai/bge-tiny', { text: ['x'] })).rejects.toThrow(/No such model/);
    await expect(ai.run('@cf/baai/bge-base-en-v1.5', { text: Array(101).fill('x') })).rejects.toThrow(
      /maxItems/,
    );
    await expect(ai.run('@cf/baai/bge-base-en-v1.5', { text: [''] })).rejects.toThrow(/non-empty/);
    await expect(ai.run('@cf/baai/bge-base-en-v1.5', { text: 42 })).rejects.toThrow(/text/);
    await expect(ai.run('@cf/baai/bge-base-en-v1.5', { text: 'x', pooling: 'max' })).rejects.toThrow(
      /pooling/,
    );
    await expect(ai.run('@cf/baai/bge-base-en-v1.5', { text: 'x' })).resolves.toMatchObject({
      shape: [1, 768],
    });
  });

  it('rejects an answer of the wrong size instead of indexing it', async () => {
    const liar = { run: async () => ({ shape: [1, 3], data: [[1, 2, 3]] }) };
    await expect(workersAiEmbedder(liar).embed(['x'])).rejects.toThrow(/768/);
    const garbage = { run: async () => ({ request_id: 'queued' }) };
    await expect(workersAiEmbedder(garbage).embed(['x'])).rejects.toThrow(/unexpected shape/);
  });
});

describe('OpenAI-compatible embedder', () => {
  const mock = () => {
    const bindings: Bindings = { ...env };
    const adapter = buildRegistry(bindings).get('mock');
    if (typeof adapter === 'string') throw new Error(`mock provider is ${adapter}`);
    return adapter;
  };

  it('embeds through a provider row (the mock LLM) with the known model size', async () => {
    const embedder = openAiEmbedder({ adapter: mock(), model: 'text-embedding-3-small' });
    expect(embedder.dimensions).toBe(1536);
    const [a, b, c] = await embedder.embed(['alpha', 'beta', 'alpha']);
    expect(a).toHaveLength(1536);
    expect(a).toEqual(c);
    expect(a).not.toEqual(b);
    expect(embedder.id).toBe('openai:mock/text-embedding-3-small');
  });

  it('learns the size of an unknown model from its first answer', async () => {
    const embedder = openAiEmbedder({ adapter: mock(), model: 'mock-some-large-model' });
    expect(embedder.dimensions).toBe(0);
    await embedder.embed(['x']);
    expect(embedder.dimensions).toBe(3072);
  });

  it('throws on an upstream error or a malformed answer', async () => {
    const answering = (response: Response): ProviderAdapter => ({
      id: 'stub',
      prepare: (input) => ({
        ...input,
        url: 'http://stub/v1/embeddings',
        headers: new Headers(),
        format: 'openai',
      }),
      send: async () => response,
      scrub: (message) => message,
      requestIdHeader: null,
    });
    await expect(
      openAiEmbedder({ adapter: answering(new Response('no', { status: 500 })), model: 'm' }).embed(['x']),
    ).rejects.toThrow(/HTTP 500/);
    await expect(
      openAiEmbedder({ adapter: answering(Response.json({ data: [] })), model: 'm' }).embed(['x']),
    ).rejects.toThrow(/0 embeddings for 1/);
    await expect(
      openAiEmbedder({ adapter: answering(Response.json({ nope: 1 })), model: 'm' }).embed(['x']),
    ).rejects.toThrow(/unexpected shape/);
  });

  it('refuses a provider that does not serve embeddings', () => {
    const anthropicOnly: ProviderAdapter = {
      id: 'a',
      prepare: () => null,
      send: async () => new Response(),
      scrub: (message) => message,
      requestIdHeader: null,
    };
    expect(() => openAiEmbedder({ adapter: anthropicOnly, model: 'm' })).toThrow(/does not serve/);
  });
});

describe('unitVector', () => {
  it('scales to length 1 and leaves zero alone', () => {
    const v = unitVector([3, 4]);
    expect(Array.from(v)).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect(Array.from(unitVector([0, 0]))).toEqual([0, 0]);
  });
});
