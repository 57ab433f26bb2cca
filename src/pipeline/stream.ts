/**
 * Stage 6, stream: relays an upstream SSE body to the client event by event,
 * with no buffering beyond one partial event. Usage and completion are read on
 * the side by the format's observer; a usage chunk the client did not ask for
 * is dropped; a cut, stalled or malformed stream ends with an error frame; a
 * client disconnect aborts the upstream call. `outcome` settles when it ends.
 *
 * The idle timeout is one watchdog timer per stream, not one per chunk: each
 * chunk only records the time, and the watchdog re-arms itself for whatever is
 * left of the window (a timer and a Promise.race per chunk cost more CPU than
 * the rest of the relay).
 */
import { SseFramer, type SseFrame } from '../sse/framer';
import type { Usage } from '../core/usage';
import type { StreamObserver } from '../sse/observer';

export interface RelayOutcome {
  readonly completed: boolean;
  readonly cancelledByClient: boolean;
  readonly usage: Usage | null;
  readonly deliveredChars: number;
  readonly error: { code: string; message: string } | null;
}

export interface RelayOptions {
  readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  /** The first chunk, already read while the upstream call could still be retried. */
  readonly first: Uint8Array | null;
  readonly observer: StreamObserver;
  readonly idleTimeoutMs: number;
  readonly abortUpstream: () => void;
}

const encoder = new TextEncoder();

export function relay(options: RelayOptions): {
  body: ReadableStream<Uint8Array>;
  outcome: Promise<RelayOutcome>;
} {
  const { reader, observer, idleTimeoutMs, abortUpstream } = options;
  const framer = new SseFramer();
  let pendingFirst = options.first;
  let settle!: (o: RelayOutcome) => void;
  const outcome = new Promise<RelayOutcome>((resolve) => (settle = resolve));
  let ended = false;
  const watchdog = idleWatchdog(idleTimeoutMs, () => {
    abortUpstream();
    void reader.cancel().catch(() => {});
  });

  const end = (completed: boolean, error: RelayOutcome['error'], cancelledByClient = false) => {
    if (ended) return;
    ended = true;
    watchdog.stop();
    settle({
      completed,
      cancelledByClient,
      usage: observer.usage,
      deliveredChars: observer.deliveredChars,
      error,
    });
  };

  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, code: string, message: string) => {
    abortUpstream();
    controller.enqueue(encoder.encode(observer.errorFrame(message, code)));
    controller.close();
    end(false, { code, message });
  };

  const idleFailure = (controller: ReadableStreamDefaultController<Uint8Array>) =>
    fail(
      controller,
      'stream_idle_timeout',
      `Upstream sent nothing for ${idleTimeoutMs} ms; the stream was closed.`,
    );

  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          let chunk: Uint8Array;
          if (pendingFirst) {
            chunk = pendingFirst;
            pendingFirst = null;
          } else {
            let read: ReadableStreamReadResult<Uint8Array>;
            try {
              read = await reader.read();
            } catch {
              if (watchdog.fired) return idleFailure(controller);
              return fail(controller, 'stream_interrupted', 'The upstream connection failed mid-stream.');
            }
            if (watchdog.fired) return idleFailure(controller);
            if (read.done) {
              if (!observer.done)
                return fail(
                  controller,
                  'stream_incomplete',
                  'The upstream stream ended before it was complete.',
                );
              controller.close();
              const upstreamError = observer.upstreamError;
              return end(
                upstreamError === null,
                upstreamError ? { code: 'upstream_error', message: upstreamError } : null,
              );
            }
            chunk = read.value;
            watchdog.touch();
          }
          const hadPending = framer.remainder.byteLength > 0;
          const frames = framer.push(chunk);
          const out = select(frames, observer);
          if (out === 'malformed')
            return fail(
              controller,
              'malformed_chunk',
              'The upstream sent a malformed stream event; the stream was closed.',
            );
          if (out.length === 0) continue;
          const whole = !hadPending && framer.remainder.byteLength === 0 && out.length === frames.length;
          controller.enqueue(whole ? chunk : join(out));
          return;
        }
      },
      cancel() {
        abortUpstream();
        end(false, null, true);
      },
    },
    { highWaterMark: 0 },
  );
  return { body, outcome };
}

/** One timer per stream: fires `onIdle` once when no touch() happened for `ms`. */
function idleWatchdog(ms: number, onIdle: () => void) {
  let last = Date.now();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const state = { fired: false };
  const check = () => {
    const left = last + ms - Date.now();
    if (left > 0) {
      timer = setTimeout(check, left);
      return;
    }
    timer = null;
    state.fired = true;
    onIdle();
  };
  timer = setTimeout(check, ms);
  return {
    get fired() {
      return state.fired;
    },
    touch() {
      last = Date.now();
    },
    stop() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}

function select(frames: SseFrame[], observer: StreamObserver): Uint8Array[] | 'malformed' {
  const out: Uint8Array[] = [];
  for (const frame of frames) {
    const verdict = observer.observe(frame.event);
    if (verdict === 'malformed') return 'malformed';
    if (verdict === 'forward') out.push(frame.bytes);
  }
  return out;
}

function join(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.byteLength;
  }
  return out;
}

/** One read, bounded in time (used once per upstream call, for the first chunk). */
export async function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ms: number,
): Promise<ReadableStreamReadResult<Uint8Array> | 'timeout' | 'error'> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const read = reader.read().catch(() => 'error' as const);
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  try {
    return await Promise.race([read, timeout]);
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
}
