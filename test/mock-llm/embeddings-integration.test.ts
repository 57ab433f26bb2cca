import { describe, expect, it } from 'vitest';
import { postOpenAI } from './helpers';

interface EmbeddingList<T = number[]> {
  object: string;
  data: { object: string; index: number; embedding: T }[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

async function embed<T = number[]>(body: Record<string, unknown>): Promise<EmbeddingList<T>> {
  const res = await postOpenAI('/v1/embeddings', body);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json');
  return (await res.json()) as EmbeddingList<T>;
}

function norm(v: readonly number[]): number {
  return Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
}

function decodeBase64Float32(b64: string): number[] {
  const binary = atob(b64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const view = new DataView(bytes.buffer);
  return Array.from({ length: bytes.length / 4 }, (_, i) => view.getFloat32(i * 4, true));
}

describe('POST /v1/embeddings', () => {
  it('returns one unit-length 1536-dimension vector for a string, with ceil(chars/4) prompt tokens', async () => {
    const body = await embed({ model: 'text-embedding-3-small', input: 'hello embeddings' });
    expect(body).toMatchObject({
      object: 'list',
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: 4, total_tokens: 4 },
    });
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ object: 'embedding', index: 0 });
    expect(body.data[0]!.embedding).toHaveLength(1536);
    expect(norm(body.data[0]!.embedding)).toBeCloseTo(1, 5);
  });

  it('defaults to 3072 dimensions for "large" models and honours dimensions', async () => {
    expect((await embed({ model: 'text-embedding-3-large', input: 'x' })).data[0]!.embedding).toHaveLength(
      3072,
    );
    const short = await embed({ model: 'text-embedding-3-large', input: 'x', dimensions: 256 });
    expect(short.data[0]!.embedding).toHaveLength(256);
    expect(norm(short.data[0]!.embedding)).toBeCloseTo(1, 5);
  });

  it('is deterministic per input and differs between inputs and models', async () => {
    const a = await embed({ model: 'mock-m', input: ['one', 'two', 'one'] });
    const b = await embed({ model: 'mock-m', input: 'one' });
    const c = await embed({ model: 'mock-other', input: 'one' });
    expect(a.data.map((d) => d.index)).toEqual([0, 1, 2]);
    expect(a.data[0]!.embedding).toEqual(a.data[2]!.embedding);
    expect(a.data[0]!.embedding).toEqual(b.data[0]!.embedding);
    expect(a.data[0]!.embedding).not.toEqual(a.data[1]!.embedding);
    expect(c.data[0]!.embedding).not.toEqual(b.data[0]!.embedding);
    expect(a.usage.prompt_tokens).toBe(3);
  });

  it('encodes base64 as little-endian float32 equal to the float output', async () => {
    const floats = await embed({ model: 'mock-m', input: 'same text', dimensions: 64 });
    const b64 = await embed<string>({
      model: 'mock-m',
      input: 'same text',
      dimensions: 64,
      encoding_format: 'base64',
    });
    expect(typeof b64.data[0]!.embedding).toBe('string');
    expect(decodeBase64Float32(b64.data[0]!.embedding)).toEqual(floats.data[0]!.embedding);
  });

  it('accepts token ids, one array or many, counting one prompt token per id', async () => {
    const one = await embed({ model: 'mock-m', input: [1, 2, 3], dimensions: 8 });
    expect(one.data).toHaveLength(1);
    expect(one.usage.prompt_tokens).toBe(3);
    const many = await embed({
      model: 'mock-m',
      input: [
        [1, 2, 3],
        [4, 5],
      ],
      dimensions: 8,
    });
    expect(many.data).toHaveLength(2);
    expect(many.data[0]!.embedding).toEqual(one.data[0]!.embedding);
    expect(many.usage.prompt_tokens).toBe(5);
  });
});
