/**
 * Paced SSE delivery: plays a step schedule into a pull-based ReadableStream so
 * pacing and backpressure are real and a client cancel clears the pending timer,
 * and wraps it in a Response with the providers' SSE headers.
 */
import type { Controls } from './controls';
import { schedule, type Step, type StreamPlan } from './schedule';

const encoder = new TextEncoder();

/**
 * No read-ahead: `pull` runs only when the reader asks for data, so pacing is
 * measured from the consumer's side and nothing sits in the queue when a reset
 * fires (erroring a stream discards its queued chunks, which would swallow the
 * N chunks `reset_after` promises to deliver).
 */
const QUEUE: QueuingStrategy<Uint8Array> = { highWaterMark: 0 };

/** Unpaced streams coalesce consecutive events into writes of about this many characters. */
const BATCH_CHARS = 16 * 1024;

/** A huge event is written in pieces of this size, as a TCP stream would deliver it. */
const BLOB_PIECE = 64 * 1024;
const FILLER = encoder.encode('x'.repeat(BLOB_PIECE));

/** The bytes of a blob step after its opening text: filler, then its close (if it has one). */
function* blobPieces(step: Extract<Step, { kind: 'blob' }>): Generator<Uint8Array, void> {
  const close = step.close === null ? new Uint8Array(0) : encoder.encode(step.close);
  let left = Math.max(0, step.bytes - encoder.encode(step.open).byteLength - close.byteLength);
  while (left > 0) {
    const n = Math.min(left, BLOB_PIECE);
    yield n === BLOB_PIECE ? FILLER : FILLER.subarray(0, n);
    left -= n;
  }
  if (close.byteLength > 0) yield close;
}

/**
 * Plays `steps` as a byte stream, waiting `paceMs` between events (a burst's
 * later events join the write of its first). With
 * `paceMs` 0 consecutive events share one write (up to BATCH_CHARS), as a fast
 * upstream's TCP stream would deliver them: one write per token would make the
 * mock, not the gateway, the bottleneck of a benchmark. Stalls, cuts and resets
 * always fall between writes.
 */
export function pacedStream(steps: Iterator<Step, void>, paceMs: number): ReadableStream<Uint8Array> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;
  let cancelled = false;
  let sent = 0;
  let held: Step | undefined;
  let exhausted = false;
  let blob: Generator<Uint8Array, void> | undefined;

  const take = (): Step | undefined => {
    if (held !== undefined) {
      const step = held;
      held = undefined;
      return step;
    }
    if (exhausted) return undefined;
    const next = steps.next();
    if (next.done) {
      exhausted = true;
      return undefined;
    }
    return next.value;
  };

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      wake = resolve;
      timer = setTimeout(() => {
        timer = undefined;
        wake = undefined;
        resolve();
      }, ms);
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
          if (step === undefined) return controller.close();
          switch (step.kind) {
            case 'stall':
              await wait(step.ms);
              if (cancelled) return;
              continue;
            case 'cut':
              return controller.close();
            case 'reset':
              return controller.error(new Error('mock-llm: connection reset (mock.reset_after)'));
            case 'blob':
              blob = blobPieces(step);
              sent++;
              return controller.enqueue(encoder.encode(step.open));
            case 'send': {
              if (sent > 0 && paceMs > 0) {
                await wait(paceMs);
                if (cancelled) return;
              }
              let text = step.event;
              for (;;) {
                const following = take();
                const joins =
                  following?.kind === 'send' &&
                  (paceMs === 0 ? text.length < BATCH_CHARS : following.burst === true);
                if (!joins) {
                  held = following;
                  break;
                }
                text += following.event;
              }
              sent++;
              return controller.enqueue(encoder.encode(text));
            }
          }
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

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
};

/** Bytes of every event the schedule sends, ignoring cut and reset. */
export function plannedLength(plan: StreamPlan, controls: Controls): number {
  let bytes = 0;
  for (const step of schedule(plan, { ...controls, cut_after: undefined, reset_after: undefined })) {
    if (step.kind === 'send') bytes += encoder.encode(step.event).byteLength;
    if (step.kind === 'blob')
      for (const piece of [encoder.encode(step.open), ...blobPieces(step)]) bytes += piece.byteLength;
  }
  return bytes;
}

/**
 * The streaming response for a plan. workerd finishes a chunked response
 * cleanly even when its body errors, which would make `reset_after` look like
 * `cut_after` to an HTTP client; so a reset stream declares its full length
 * (FixedLengthStream → content-length) and stopping short of it is a truncated
 * transfer to any client, over HTTP or a service binding.
 */
export function sseResponse(plan: StreamPlan, controls: Controls, headers: Record<string, string>): Response {
  const body = pacedStream(schedule(plan, controls), controls.pace_ms);
  const init = { headers: { ...SSE_HEADERS, ...headers } };
  if (controls.reset_after === undefined) return new Response(body, init);
  const { readable, writable } = new FixedLengthStream(plannedLength(plan, controls));
  body.pipeTo(writable).catch(() => undefined);
  return new Response(readable, init);
}
