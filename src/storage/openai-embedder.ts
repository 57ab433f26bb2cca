/**
 * Embedder over any OpenAI-compatible `/embeddings` route, reached through a
 * provider adapter from the providers table (so its base URL, key and fetch,
 * e.g. the mock's service binding, are configured once, in one place).
 * Configured as `SEMANTIC_EMBEDDER=openai:<provider>/<model>`.
 *
 * Bounded: at most MAX_INPUTS texts per call (OpenAI's limit), and each call
 * gives up after `timeoutMs`, since a lookup sits on the response path.
 * Answers are validated: one vector per input, all of one length.
 */
import * as z from 'zod';
import { openAiUpstream } from '../codecs/openai/index';
import { UPSTREAM_CODECS } from '../codecs/index';
import type { ProviderAdapter } from '../providers/types';
import type { Embedder } from './embedder';

export const MAX_INPUTS = 2048;
const DEFAULT_TIMEOUT_MS = 5000;

/** Output sizes of well-known models; others are learned from the first answer. */
const KNOWN_DIMENSIONS: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

const Response = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) })),
});

export interface OpenAiEmbedderOptions {
  readonly adapter: ProviderAdapter;
  /** The provider's own model id (without the `provider/` prefix). */
  readonly model: string;
  readonly timeoutMs?: number;
}

export function openAiEmbedder({
  adapter,
  model,
  timeoutMs = DEFAULT_TIMEOUT_MS,
}: OpenAiEmbedderOptions): Embedder {
  const prepared = adapter.prepare({ endpoint: 'embeddings', model, stream: false, passHeaders: [] });
  if (!prepared || UPSTREAM_CODECS[prepared.format] !== openAiUpstream)
    throw new Error(`provider '${adapter.id}' does not serve OpenAI-compatible embeddings`);
  const target = prepared;
  let dimensions = KNOWN_DIMENSIONS[model] ?? 0;

  async function embedBatch(texts: string[]): Promise<number[][]> {
    const res = await adapter.send(
      target,
      JSON.stringify({ model, input: texts, encoding_format: 'float' }),
      AbortSignal.timeout(timeoutMs),
    );
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`embeddings call to '${adapter.id}' failed with HTTP ${res.status}`);
    }
    const parsed = Response.safeParse(await res.json());
    if (!parsed.success) throw new Error(`embeddings answer from '${adapter.id}' has an unexpected shape`);
    const vectors = [...parsed.data.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    if (vectors.length !== texts.length)
      throw new Error(`'${adapter.id}' returned ${vectors.length} embeddings for ${texts.length} inputs`);
    for (const v of vectors) {
      if (dimensions === 0) dimensions = v.length;
      if (v.length !== dimensions)
        throw new Error(`'${adapter.id}' returned a ${v.length}-dimensional vector, expected ${dimensions}`);
    }
    return vectors;
  }

  return {
    id: `openai:${adapter.id}/${model}`,
    get dimensions() {
      return dimensions;
    },
    async embed(texts) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += MAX_INPUTS)
        out.push(...(await embedBatch(texts.slice(i, i + MAX_INPUTS))));
      return out;
    },
  };
}
