/** The shape of a cached response, as stored in KV and validated when read back. */
import * as z from 'zod';
import { CLIENT_FORMATS } from '../core/endpoints';

export const CachedEntry = z.object({
  v: z.literal(1),
  format: z.enum(CLIENT_FORMATS),
  endpoint: z.enum(['chat', 'embeddings', 'messages', 'responses']),
  /** The complete JSON response (assembled from the stream when the original was streamed). */
  body: z.record(z.string(), z.unknown()),
  /** The usage the original answer reported; the fields added after the first release default to 0 for older entries. */
  usage: z.object({
    inputTokens: z.number(),
    outputTokens: z.number(),
    cachedTokens: z.number(),
    cacheWriteTokens: z.number().default(0),
    cacheWrite1hTokens: z.number().default(0),
    reasoningTokens: z.number().default(0),
  }),
  storedAt: z.number(),
});
export type CachedEntry = z.infer<typeof CachedEntry>;
