/** The shape of a cached response, as stored in KV and validated when read back. */
import * as z from 'zod';
import { CLIENT_FORMATS } from '../core/endpoints';

export const CachedEntry = z.object({
  v: z.literal(1),
  format: z.enum(CLIENT_FORMATS),
  endpoint: z.enum(['chat', 'embeddings', 'messages']),
  /** The complete JSON response (assembled from the stream when the original was streamed). */
  body: z.record(z.string(), z.unknown()),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number(), cachedTokens: z.number() }),
  storedAt: z.number(),
});
export type CachedEntry = z.infer<typeof CachedEntry>;
