/**
 * The LogEvent, one per /v1 request: its schema (the queue message, validated
 * again by the consumer) and the LogSink port the pipeline hands it to.
 */
import { z } from 'zod';

export const LogEvent = z.object({
  requestId: z.string(),
  time: z.number(),
  tenantId: z.string().nullable(),
  keyId: z.string().nullable(),
  endpoint: z.string(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  status: z.number().int(),
  errorSource: z.enum(['gateway', 'provider']).nullable(),
  errorCode: z.string().nullable(),
  cache: z.enum(['HIT', 'SEMANTIC', 'MISS', 'BYPASS']).nullable(),
  stream: z.boolean(),
  streamCompleted: z.boolean().nullable(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cachedTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
  latencyMs: z.number().nonnegative(),
  ttftMs: z.number().nonnegative().nullable(),
  attempts: z.number().int().nonnegative(),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullable(),
  // Fields added after the first release default, so messages already queued still parse.
  /** What a gateway cache hit would have cost (costUsd is 0 for hits). */
  savedUsd: z.number().nonnegative().default(0),
  /** Prompt and completion, only for keys that opt in; each cut to LOG_PAYLOAD_MAX_BYTES. */
  payload: z
    .object({ request: z.string().nullable(), response: z.string().nullable(), truncated: z.boolean() })
    .nullable()
    .default(null),
});
export type LogEvent = z.infer<typeof LogEvent>;

export interface LogSink {
  send(event: LogEvent): Promise<void>;
}
