/**
 * The Workers AI models this gateway knows, with what each accepts (pure
 * data, from the models' published input schemas on developers.cloudflare.com/workers-ai/models).
 * Listed models appear in /v1/models and have their limits checked before the
 * call; any other `@cf/…` or `@hf/…` id is still sent, and the binding decides.
 */
/** The text-embedding models (the semantic cache's embedder uses them too), with their output dimensions. */
export const WORKERS_AI_EMBEDDING_MODELS = {
  '@cf/baai/bge-small-en-v1.5': 384,
  '@cf/baai/bge-base-en-v1.5': 768,
  '@cf/baai/bge-large-en-v1.5': 1024,
} as const;

export interface WorkersAiChatModel {
  readonly kind: 'chat';
  /** Takes `tools` (traditional function calling). */
  readonly tools: boolean;
  /** Takes `response_format` (JSON mode); never with `stream` (JSON mode does not stream). */
  readonly json: boolean;
  /** Message content may be an array of parts; otherwise it must be one string. */
  readonly parts: boolean;
  /** Takes `image_url` parts (needs `parts`). */
  readonly images: boolean;
}

export interface WorkersAiEmbeddingModel {
  readonly kind: 'embeddings';
  readonly dimensions: number;
}

export type WorkersAiModel = WorkersAiChatModel | WorkersAiEmbeddingModel;

type Content = 'string' | 'text parts' | 'images';

const chat = (tools: boolean, json: boolean, content: Content): WorkersAiChatModel => ({
  kind: 'chat',
  tools,
  json,
  parts: content !== 'string',
  images: content === 'images',
});

const CHAT_MODELS: Readonly<Record<string, WorkersAiChatModel>> = {
  '@cf/meta/llama-3.1-8b-instruct': chat(true, true, 'string'),
  '@cf/meta/llama-3.3-70b-instruct-fp8-fast': chat(true, true, 'text parts'),
  '@cf/meta/llama-4-scout-17b-16e-instruct': chat(true, true, 'images'),
  '@hf/nousresearch/hermes-2-pro-mistral-7b': chat(true, true, 'string'),
  '@cf/mistralai/mistral-small-3.1-24b-instruct': chat(true, false, 'images'),
  '@cf/google/gemma-3-12b-it': chat(true, false, 'images'),
  '@cf/qwen/qwen2.5-coder-32b-instruct': chat(true, true, 'string'),
};

export const WORKERS_AI_MODELS: Readonly<Record<string, WorkersAiModel>> = {
  ...CHAT_MODELS,
  ...Object.fromEntries(
    Object.entries(WORKERS_AI_EMBEDDING_MODELS).map(([id, dimensions]) => [
      id,
      { kind: 'embeddings', dimensions } satisfies WorkersAiEmbeddingModel,
    ]),
  ),
};

export function workersAiModel(id: string): WorkersAiModel | null {
  return Object.hasOwn(WORKERS_AI_MODELS, id) ? (WORKERS_AI_MODELS[id] ?? null) : null;
}

/** `text` items per embeddings call (the models' `maxItems`). */
export const WORKERS_AI_MAX_EMBEDDING_INPUTS = 100;
