/**
 * Embedder on Workers AI (binding `AI`): `env.AI.run(model, { text: [...] })`
 * → `{ shape: [n, d], data: number[][] }`. Batches are split at the model's
 * limit (100 texts); the answer is validated (count and dimensions) before
 * use. `cls` pooling: the models' card recommends it for accuracy, and it is
 * part of the embedder id because mean- and cls-pooled vectors are not
 * comparable. Tested against test/gateway/fakes/workers-ai.ts.
 */
import * as z from 'zod';
import type { Embedder } from './embedder';

import { WORKERS_AI_EMBEDDING_MODELS } from '../codecs/workers-ai/models';

export { WORKERS_AI_EMBEDDING_MODELS };
export type WorkersAiEmbeddingModel = keyof typeof WORKERS_AI_EMBEDDING_MODELS;
export const DEFAULT_WORKERS_AI_MODEL: WorkersAiEmbeddingModel = '@cf/baai/bge-base-en-v1.5';
/** `maxItems` of the `text` array in these models' input schema. */
export const WORKERS_AI_MAX_BATCH = 100;

/** The slice of the `Ai` binding this adapter uses. */
export interface EmbeddingRunner {
  run(model: WorkersAiEmbeddingModel, inputs: { text: string[]; pooling: 'mean' | 'cls' }): Promise<unknown>;
}

const Output = z.object({
  shape: z.array(z.number()).optional(),
  data: z.array(z.array(z.number())),
});

export function isWorkersAiEmbeddingModel(model: string): model is WorkersAiEmbeddingModel {
  return Object.hasOwn(WORKERS_AI_EMBEDDING_MODELS, model);
}

export function workersAiEmbedder(
  ai: EmbeddingRunner,
  model: WorkersAiEmbeddingModel = DEFAULT_WORKERS_AI_MODEL,
): Embedder {
  const dimensions = WORKERS_AI_EMBEDDING_MODELS[model];
  return {
    id: `workers-ai:${model}:cls`,
    dimensions,
    async embed(texts) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += WORKERS_AI_MAX_BATCH) {
        const batch = texts.slice(i, i + WORKERS_AI_MAX_BATCH);
        const parsed = Output.safeParse(await ai.run(model, { text: batch, pooling: 'cls' }));
        if (!parsed.success) throw new Error(`Workers AI ${model} returned an unexpected shape`);
        const { data } = parsed.data;
        if (data.length !== batch.length || data.some((v) => v.length !== dimensions)) {
          throw new Error(
            `Workers AI ${model} returned ${data.length} vectors for ${batch.length} texts, or not ${dimensions}-dimensional`,
          );
        }
        out.push(...data);
      }
      return out;
    },
  };
}
