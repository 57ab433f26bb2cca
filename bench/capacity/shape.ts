/**
 * Queue batches shaped like production's, for the capacity bench: a queue
 * batch of up to 100 messages, each a producer batch (src/core/log-batch.ts) of
 * 20–50 LogEvents from one isolate, tenants mixed within a message, a share of
 * the events carrying prompt and completion payloads. A seeded generator, so
 * every run and every mode consumes the same shapes; fresh UUIDv7 ids each
 * call, so nothing is ignored as a redelivery.
 */
import type { LogEvent } from '../../src/core/log-event';
import type { LogBatch } from '../../src/core/log-batch';
import { uuid7 } from '../../src/util/uuid7';

export interface Shape {
  /** Queue messages per queue batch (the queue's max_batch_size, at most 100). */
  readonly messages: number;
  /** Events per message, drawn uniformly from this range. */
  readonly events: readonly [number, number];
  /** Tenants the events are spread over (each message mixes them). */
  readonly tenants: number;
  /** Share of events that log their payloads, 0…1. */
  readonly payloadShare: number;
  /** UTF-8 characters of a logged prompt and of a logged completion. */
  readonly payloadChars: readonly [number, number];
}

/** mulberry32: a small seeded PRNG, so shapes repeat run to run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = 'the gateway answers every request with a model reply and logs what it cost'.split(' ');

function prose(rand: () => number, chars: number): string {
  let s = '';
  while (s.length < chars) s += `${WORDS[Math.floor(rand() * WORDS.length)]} `;
  return s.slice(0, chars);
}

export function logEvent(rand: () => number, shape: Shape, now: number): LogEvent {
  const tenant = `ten_${Math.floor(rand() * shape.tenants)}`;
  const input = 200 + Math.floor(rand() * 1800);
  const output = 50 + Math.floor(rand() * 600);
  const payload =
    rand() < shape.payloadShare
      ? {
          request: JSON.stringify({
            messages: [{ role: 'user', content: prose(rand, shape.payloadChars[0]) }],
          }),
          response: prose(rand, shape.payloadChars[1]),
          truncated: false,
        }
      : null;
  const ttfb = 150 + rand() * 600;
  // Drawn in the order the fields were before end users were logged, so runs stay comparable.
  const stream = rand() < 0.5;
  const latencyMs = ttfb + rand() * 2000;
  const user = `u${Math.floor(rand() * 1000)}`;
  return {
    requestId: uuid7(now),
    time: now,
    tenantId: tenant,
    keyId: `key_${tenant}_${Math.floor(rand() * 3)}`,
    endpoint: '/v1/chat/completions',
    provider: 'openai',
    model: 'openai/gpt-4o-mini',
    status: 200,
    errorSource: null,
    errorCode: null,
    cache: 'MISS',
    stream,
    streamCompleted: null,
    inputTokens: input,
    outputTokens: output,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    cacheWrite1hTokens: 0,
    reasoningTokens: 0,
    costUsd: (input * 0.15 + output * 0.6) / 1e6,
    latencyMs,
    ttftMs: ttfb,
    attempts: 1,
    metadata: { app: 'bench', user },
    // An end user and one tag per event: the consumer then writes the per-user and per-tag rollups too.
    endUser: user,
    tags: { app: 'bench' },
    mcp: null,
    savedUsd: 0,
    payload,
    route: null,
    tries: [{ target: 'openai/gpt-4o-mini', status: 200, ttfbMs: ttfb, error: null }],
    guardrails: [],
    traceId: null,
    parentSpanId: null,
  };
}

/** One queue batch's message bodies; `seq` numbers the producer batches across calls. */
export function queueBodies(
  rand: () => number,
  shape: Shape,
  now: number,
  seq: { next: number },
): LogBatch[] {
  const bodies: LogBatch[] = [];
  for (let m = 0; m < shape.messages; m++) {
    const [lo, hi] = shape.events;
    const n = lo + Math.floor(rand() * (hi - lo + 1));
    const events = Array.from({ length: n }, () => logEvent(rand, shape, now));
    const s = seq.next++;
    bodies.push({ v: 2, isolate: 'bench-capacity', seq: s, sent: s * 50, events });
  }
  return bodies;
}
