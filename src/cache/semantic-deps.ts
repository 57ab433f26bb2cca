/**
 * Builds the semantic cache from the bindings, choosing local fallbacks where
 * Cloudflare-only services are absent:
 * - index: Vectorize when `VECTORIZE` is bound, else the per-tenant SQLite
 *   Durable Object (`VECTOR_INDEX`);
 * - embedder: from SEMANTIC_EMBEDDER (see parseEmbedderSpec); "auto" (the
 *   default) is Workers AI bge-base when `AI` is bound, else the local one.
 * A SEMANTIC_EMBEDDER that cannot be honoured is a deploy mistake: it throws
 * here, naming the problem, as EDGEWAY_PROVIDERS does.
 */
import type { Bindings } from '../env';
import type { ProviderRegistry } from '../providers/registry';
import type { Embedder } from '../storage/embedder';
import { durableVectorIndex } from '../storage/durable-vector-index';
import { localEmbedder } from '../storage/local-embedder';
import { openAiEmbedder } from '../storage/openai-embedder';
import { vectorizeIndex, type VectorizeLike } from '../storage/vectorize-index';
import {
  DEFAULT_WORKERS_AI_MODEL,
  isWorkersAiEmbeddingModel,
  workersAiEmbedder,
  type EmbeddingRunner,
  type WorkersAiEmbeddingModel,
} from '../storage/workers-ai-embedder';
import { IndexedSemanticCache, type SemanticCache } from './semantic';

export type EmbedderSpec =
  | { readonly kind: 'auto' }
  | { readonly kind: 'local' }
  | { readonly kind: 'workers-ai'; readonly model: WorkersAiEmbeddingModel }
  | { readonly kind: 'openai'; readonly provider: string; readonly model: string };

/** What the factory reads from the bindings (the real ones fit; so do the test fakes). */
export interface SemanticEnv {
  readonly VECTOR_INDEX: Bindings['VECTOR_INDEX'];
  readonly SEMANTIC_EMBEDDER?: string;
  readonly AI?: EmbeddingRunner;
  readonly VECTORIZE?: VectorizeLike;
}

/** `auto` | `local` | `workers-ai[:<model>]` | `openai:<provider>/<model>` (pure). */
export function parseEmbedderSpec(raw: string | undefined): EmbedderSpec {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'auto') return { kind: 'auto' };
  if (value === 'local') return { kind: 'local' };
  if (value === 'workers-ai' || value.startsWith('workers-ai:')) {
    const model = value === 'workers-ai' ? DEFAULT_WORKERS_AI_MODEL : value.slice('workers-ai:'.length);
    if (!isWorkersAiEmbeddingModel(model))
      throw new Error(`SEMANTIC_EMBEDDER: unknown Workers AI embedding model '${model}'`);
    return { kind: 'workers-ai', model };
  }
  const openai = /^openai:([a-z0-9][a-z0-9-]*)\/(.+)$/.exec(value);
  if (openai) return { kind: 'openai', provider: openai[1] as string, model: openai[2] as string };
  throw new Error(
    `SEMANTIC_EMBEDDER: expected auto, local, workers-ai:<model> or openai:<provider>/<model>, got '${value}'`,
  );
}

export function chooseEmbedder(
  spec: EmbedderSpec,
  env: SemanticEnv,
  providers: Pick<ProviderRegistry, 'get'>,
): Embedder {
  switch (spec.kind) {
    case 'auto':
      return env.AI ? workersAiEmbedder(env.AI) : localEmbedder();
    case 'local':
      return localEmbedder();
    case 'workers-ai':
      if (!env.AI) throw new Error('SEMANTIC_EMBEDDER names Workers AI, but the AI binding is absent');
      return workersAiEmbedder(env.AI, spec.model);
    case 'openai': {
      const adapter = providers.get(spec.provider);
      if (typeof adapter === 'string')
        throw new Error(`SEMANTIC_EMBEDDER: provider '${spec.provider}' is ${adapter}`);
      return openAiEmbedder({ adapter, model: spec.model });
    }
  }
}

export function createSemanticCache(
  env: SemanticEnv,
  providers: Pick<ProviderRegistry, 'get'>,
): SemanticCache {
  const embedder = chooseEmbedder(parseEmbedderSpec(env.SEMANTIC_EMBEDDER), env, providers);
  const index = env.VECTORIZE ? vectorizeIndex(env.VECTORIZE) : durableVectorIndex(env.VECTOR_INDEX);
  return new IndexedSemanticCache(embedder, index);
}
