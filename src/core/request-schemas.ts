/**
 * Request schemas for the proxied endpoints. They check what the gateway itself
 * relies on (model, messages, stream flags, token caps) and keep every other
 * field untouched so it reaches the provider as the client sent it.
 */
import { z } from 'zod';
import type { Endpoint } from './endpoints';

const message = z.looseObject({ role: z.string().min(1) });
const maxTokens = z.number().int().positive();

export const ChatRequest = z.looseObject({
  model: z.string().min(1),
  messages: z.array(message).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  max_tokens: maxTokens.nullish(),
  max_completion_tokens: maxTokens.nullish(),
  n: z.number().int().min(1).max(128).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  tools: z.array(z.looseObject({})).nullish(),
});

export const EmbeddingsRequest = z.looseObject({
  model: z.string().min(1),
  input: z.union([
    z.string(),
    z.array(z.string()).min(1),
    z.array(z.number().int()).min(1),
    z.array(z.array(z.number().int()).min(1)).min(1),
  ]),
  dimensions: z.number().int().positive().nullish(),
  encoding_format: z.enum(['float', 'base64']).nullish(),
});

export const MessagesRequest = z.looseObject({
  model: z.string().min(1),
  messages: z.array(message).min(1),
  max_tokens: maxTokens,
  stream: z.boolean().nullish(),
  system: z.union([z.string(), z.array(z.looseObject({}))]).nullish(),
  temperature: z.number().min(0).max(1).nullish(),
  tools: z.array(z.looseObject({})).nullish(),
});

export type ChatBody = z.infer<typeof ChatRequest>;
export type EmbeddingsBody = z.infer<typeof EmbeddingsRequest>;
export type MessagesBody = z.infer<typeof MessagesRequest>;

export const REQUEST_SCHEMAS = {
  chat: ChatRequest,
  embeddings: EmbeddingsRequest,
  messages: MessagesRequest,
} as const satisfies Record<Endpoint, z.ZodType>;
