/**
 * ConverseStream in the real binary encoding (application/vnd.amazon.eventstream,
 * encoded by the AWS SDK's codec): a stream plan of Bedrock events played
 * through the mock's fault schedule (src/schedule.ts), so pacing, stalls, cuts,
 * resets and malformed messages work as on the other routes. A plan's events
 * are `<:event-type>\n<payload JSON>` strings, turned into binary messages as
 * they are sent. `malformed_after` sends a message whose checksum is wrong;
 * `huge_event_bytes` one text delta of about that size (built in memory);
 * `unterminated_bytes` a message whose prelude declares that size and that never ends.
 */
import { Crc32 } from '@smithy/core/checksum';
import { EventStreamCodec } from '@smithy/core/event-streams';
import type { Controls } from './controls';
import { schedule, type Step, type StreamPlan } from './schedule';

const encoder = new TextEncoder();
const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => encoder.encode(text),
);

export const MALFORMED = '!malformed';
const PIECE = 64 * 1024;
const FILLER = encoder.encode('x'.repeat(PIECE));
const BATCH_BYTES = 16 * 1024;
const QUEUE: QueuingStrategy<Uint8Array> = { highWaterMark: 0 };

const PAD = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0';

/**
 * One plan event. Bedrock pads every payload with a `p` field of varying
 * length; the fake does too, its length derived from `n` (the event's position)
 * so the same request always gets the same bytes.
 */
export function planEvent(type: string, payload: Record<string, unknown>, n: number): string {
  return `${type}\n${JSON.stringify({ ...payload, p: PAD.slice(0, 1 + ((n * 7) % PAD.length)) })}`;
}

export function encodeMessage(type: string, payload: string): Uint8Array {
  const str = (value: string) => ({ type: 'string' as const, value });
  return codec.encode({
    headers: {
      ':event-type': str(type),
      ':content-type': str('application/json'),
      ':message-type': str('event'),
    },
    body: encoder.encode(payload),
  });
}

function stepBytes(event: string): Uint8Array {
  if (event === MALFORMED) {
    const bytes = encodeMessage('contentBlockDelta', '{"contentBlockIndex":0,"delta":{"text":"?"}}');
    const last = bytes.byteLength - 1;
    bytes[last] = (bytes[last] as number) ^ 0xff;
    return bytes;
  }
  const cut = event.indexOf('\n');
  return encodeMessage(event.slice(0, cut), event.slice(cut + 1));
}

/** The pieces of a blob step: a whole huge text delta, or a prelude declaring `bytes` and filler that never completes it. */
function* blobPieces(step: Extract<Step, { kind: 'blob' }>): Generator<Uint8Array, void> {
  if (step.close !== null) {
    yield encodeMessage(
      'contentBlockDelta',
      JSON.stringify({ contentBlockIndex: 0, delta: { text: 'x'.repeat(step.bytes) } }),
    );
    return;
  }
  const prelude = new Uint8Array(12);
  const view = new DataView(prelude.buffer);
  view.setUint32(0, step.bytes);
  view.setUint32(4, 0);
  const crc = new Crc32();
  crc.update(prelude.subarray(0, 8));
  view.setUint32(8, crc.digestSync());
  yield prelude;
  for (let left = Math.max(0, step.bytes - 16); left > 0; left -= PIECE)
    yield left >= PIECE ? FILLER : FILLER.subarray(0, left);
}

function join(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** Plays the steps as binary, pull-based (no read-ahead), pacing and coalescing as src/sse.ts does. */
function playBinary(steps: Iterator<Step, void>, paceMs: number): ReadableStream<Uint8Array> {
  let held: Step | undefined;
  let blob: Generator<Uint8Array, void> | undefined;
  let sent = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;
  let cancelled = false;
  const take = (): Step | undefined => {
    const step = held ?? steps.next().value ?? undefined;
    held = undefined;
    return step;
  };
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, ms);
    });
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (blob) {
          const piece = blob.next();
          if (!piece.done) return controller.enqueue(piece.value);
          blob = undefined;
        }
        for (;;) {
          const step = take();
          if (step === undefined || step.kind === 'cut') return controller.close();
          if (step.kind === 'reset')
            return controller.error(new Error('mock-llm: connection reset (mock.reset_after)'));
          if (step.kind === 'stall') {
            await wait(step.ms);
            if (cancelled) return;
            continue;
          }
          if (step.kind === 'blob') {
            blob = blobPieces(step);
            continue;
          }
          if (sent > 0 && paceMs > 0) {
            await wait(paceMs);
            if (cancelled) return;
          }
          const parts = [stepBytes(step.event)];
          let size = parts[0]?.byteLength ?? 0;
          while (paceMs === 0 && size < BATCH_BYTES) {
            const next = take();
            if (next?.kind !== 'send') {
              held = next;
              break;
            }
            const bytes = stepBytes(next.event);
            parts.push(bytes);
            size += bytes.byteLength;
          }
          sent++;
          return controller.enqueue(join(parts));
        }
      },
      cancel() {
        cancelled = true;
        if (timer !== undefined) clearTimeout(timer);
        wake?.();
      },
    },
    QUEUE,
  );
}

export const EVENT_STREAM_HEADERS = { 'content-type': 'application/vnd.amazon.eventstream' } as const;

/** The ConverseStream response for a plan; a reset stream declares its full length so the cut is a truncated transfer. */
export function eventStreamResponse(
  plan: StreamPlan,
  controls: Controls,
  headers: Record<string, string>,
): Response {
  const init = { headers: { ...EVENT_STREAM_HEADERS, ...headers } };
  const body = playBinary(schedule(plan, controls), controls.pace_ms);
  if (controls.reset_after === undefined) return new Response(body, init);
  let length = 0;
  for (const step of schedule(plan, { ...controls, cut_after: undefined, reset_after: undefined })) {
    if (step.kind === 'send') length += stepBytes(step.event).byteLength;
    if (step.kind === 'blob') for (const piece of blobPieces(step)) length += piece.byteLength;
  }
  const { readable, writable } = new FixedLengthStream(length);
  body.pipeTo(writable).catch(() => undefined);
  return new Response(readable, init);
}
