/**
 * Where LogEvents go: the log Queue (its consumer writes D1), the Worker's
 * console, or nowhere, chosen by LOG_SINK; and the one call that hands an
 * event over (from the exchange's exit, inside waitUntil).
 */
import type { LogEvent, LogSink } from '../core/log-event';

/** Production and dev: the log Queue; its consumer writes D1. */
export function queueSink(queue: Queue<LogEvent>): LogSink {
  return {
    send: async (event) => {
      await queue.send(fitMessage(event), { contentType: 'json' });
    },
  };
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
    e = {
      ...e,
      payload: {
        request: cutRequest ? halve(request) : request,
        response: cutRequest ? response : halve(response),
        truncated: true,
      },
    };
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

/** Sends one event; a failure is reported, never thrown (the caller runs inside waitUntil). */
export async function emit(sink: LogSink, event: LogEvent): Promise<void> {
  await sink
    .send(event)
    .catch((err: unknown) => console.error('log send failed', err instanceof Error ? err.message : err));
}
