/**
 * Request schemas for the proxied endpoints. They check what the gateway itself
 * relies on (model, messages, stream flags, token caps) and keep every other
 * field untouched so it reaches the provider as the client sent it.
 *
 * Every number the limiter, the cache or the log reads is bounded here, per
 * endpoint (docs/limits.md, "Validated fields"): zod's numbers are finite, so
 * JSON's 1e309 (Infinity) is refused, and token caps and counts are integers
 * in a range whose products stay far inside Number.MAX_SAFE_INTEGER. A field
 * an endpoint's API does not have (max_completion_tokens or n on /v1/messages)
 * is not validated and never read: it passes through to the provider untouched.
 */
import * as z from 'zod';
import type { Endpoint } from './endpoints';

const message = z.looseObject({ role: z.string().min(1) });

/**
 * The longest model id a request may name (docs/api.md, "Model ids"): far above any provider's id or route
 * name (route targets are at most 200), small enough that every stage may key, log and reflect it in a header.
 */
export const MAX_MODEL_ID_LENGTH = 256;
/** Printable ASCII only: no control character, nothing a header or a log line could not carry as it is. */
export const MODEL_ID_PATTERN = /^[\x20-\x7e]+$/;

const modelId = z
  .string()
  .min(1)
  .max(MAX_MODEL_ID_LENGTH, `must be at most ${MAX_MODEL_ID_LENGTH} characters`)
  .regex(MODEL_ID_PATTERN, 'must be printable ASCII (no control or non-ASCII characters)');

/** The largest output-token cap a request may name: above any model's real limit, small enough to sum safely. */
export const MAX_OUTPUT_TOKENS = 10_000_000;
/** Most choices one chat request may ask for (OpenAI's own limit). */
export const MAX_CHOICES = 128;
/** Largest embedding size a request may ask for. */
export const MAX_EMBEDDING_DIMENSIONS = 65_536;

const maxTokens = z.number().int().min(1).max(MAX_OUTPUT_TOKENS);

export const ChatRequest = z.looseObject({
  model: modelId,
  messages: z.array(message).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  max_tokens: maxTokens.nullish(),
  max_completion_tokens: maxTokens.nullish(),
  n: z.number().int().min(1).max(MAX_CHOICES).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  tools: z.array(z.looseObject({})).nullish(),
});

export const EmbeddingsRequest = z.looseObject({
  model: modelId,
  input: z.union([
    z.string(),
    z.array(z.string()).min(1),
    z.array(z.number().int()).min(1),
    z.array(z.array(z.number().int()).min(1)).min(1),
  ]),
  dimensions: z.number().int().min(1).max(MAX_EMBEDDING_DIMENSIONS).nullish(),
  encoding_format: z.enum(['float', 'base64']).nullish(),
});

export const MessagesRequest = z.looseObject({
  model: modelId,
  messages: z.array(message).min(1),
  max_tokens: maxTokens,
  stream: z.boolean().nullish(),
  system: z.union([z.string(), z.array(z.looseObject({}))]).nullish(),
  temperature: z.number().min(0).max(1).nullish(),
  tools: z.array(z.looseObject({})).nullish(),
});

/**
 * OpenAI's Responses API (/v1/responses): `input` as a string or a list of items. `previous_response_id`
 * names a response the gateway stored; it is resolved before this schema sees the body (the stored
 * conversation becomes part of `input`, src/pipeline/conversation.ts).
 */
export const ResponsesRequest = z.looseObject({
  model: modelId,
  input: z.union([z.string(), z.array(z.looseObject({})).min(1)]),
  instructions: z.string().nullish(),
  stream: z.boolean().nullish(),
  max_output_tokens: maxTokens.nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  tools: z.array(z.looseObject({})).nullish(),
  store: z.boolean().nullish(),
  previous_response_id: z.string().min(1).max(256).nullish(),
});

export type ChatBody = z.infer<typeof ChatRequest>;
export type ResponsesBody = z.infer<typeof ResponsesRequest>;
export type EmbeddingsBody = z.infer<typeof EmbeddingsRequest>;
export type MessagesBody = z.infer<typeof MessagesRequest>;

export const REQUEST_SCHEMAS = {
  chat: ChatRequest,
  embeddings: EmbeddingsRequest,
  messages: MessagesRequest,
  responses: ResponsesRequest,
} as const satisfies Record<Endpoint, z.ZodType>;
