/**
 * Stage 7, log: one LogEvent per request, handed to the LogSink inside
 * `waitUntil` so nothing on the response path waits for it.
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
  payload: z.object({ request: z.string().nullable(), response: z.string().nullable(), truncated: z.boolean() }).nullable().default(null),
});
export type LogEvent = z.infer<typeof LogEvent>;

export interface LogSink {
  send(event: LogEvent): Promise<void>;
}

/** Production and dev: the log Queue; its consumer writes D1. */
export function queueSink(queue: Queue<LogEvent>): LogSink {
  return { send: async (event) => { await queue.send(fitMessage(event), { contentType: 'json' }); } };
}

/** Below the Queue's 128 KB message limit, with room for the envelope. */
export const MAX_MESSAGE_BYTES = 120_000;
const encoder = new TextEncoder();

/**
 * Payloads are already cut to LOG_PAYLOAD_MAX_BYTES (≤ 64 KiB each), but JSON
 * escaping can grow them; if the event would not fit in one message, the
 * longer payload side is halved until it does (and marked truncated), so the
 * log row is never lost to its payload.
 */
export function fitMessage(event: LogEvent): LogEvent {
  let e = event;
  while (e.payload && encoder.encode(JSON.stringify(e)).byteLength > MAX_MESSAGE_BYTES) {
    const { request, response } = e.payload;
    const cutRequest = (request?.length ?? 0) >= (response?.length ?? 0);
    e = { ...e, payload: { request: cutRequest ? halve(request) : request, response: cutRequest ? response : halve(response), truncated: true } };
    if (!e.payload?.request && !e.payload?.response) e = { ...e, payload: null };
  }
  return e;
}

function halve(text: string | null): string | null {
  if (!text) return null;
  let cut = Math.floor(text.length / 2);
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return text.slice(0, cut);
}

/** Without a queue binding the event goes to the Worker's own log stream (wrangler tail). */
export const consoleSink: LogSink = {
  send: async (event) => console.log(JSON.stringify({ edgeway_log: event })),
};

/**
 * LOG_SINK picks the sink: "queue" (the default; the console when the
 * LOG_QUEUE binding is absent), "console", or "off" (benchmarks measuring
 * logging on versus off; requests are then not logged at all).
 */
export function chooseSink(mode: string | undefined, queue: Queue<LogEvent> | undefined): LogSink {
  if (mode === 'off') return offSink;
  if (mode === 'console' || !queue) return consoleSink;
  return queueSink(queue);
}

const offSink: LogSink = { send: async () => {} };

export function emit(ctx: { waitUntil(p: Promise<unknown>): void }, sink: LogSink, event: LogEvent): void {
  ctx.waitUntil(sink.send(event).catch((err: unknown) => console.error('log send failed', err instanceof Error ? err.message : err)));
}
