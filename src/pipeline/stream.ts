/**
 * Stage 6, stream: relays an upstream SSE body to the client event by event,
 * with no buffering beyond one partial event. The relay reads the upstream and
 * writes into a native stream (IdentityTransformStream) that the runtime hands
 * to the client: each write resolves once the client has taken the chunk, so
 * at most one chunk is read ahead of the client, and there is no JS stream for
 * the runtime to pull through (the disconnect of a client cancels the native
 * stream, which rejects the writer: the relay aborts the upstream at once). Usage and completion are read on
 * the side by the format's observer; a usage chunk the client did not ask for
 * is dropped; a cut, stalled or malformed stream ends with an error frame; a
 * client disconnect aborts the upstream call. `outcome` settles when it ends.
 *
 * The idle timeout measures upstream silence only: the watchdog is armed while
 * a read from the upstream is pending and disarmed while the relay waits for
 * the client to pull (backpressure), so a slow reader is never blamed on a
 * healthy upstream. It is one timer per stream, not one per chunk: each read
 * only records when it started, and the timer re-arms itself for whatever is
 * left of the window (a timer and a Promise.race per chunk cost more CPU than
 * the rest of the relay). A single event larger than the framer's cap ends the
 * stream with `event_too_large`; the upstream is aborted, no neighbour waits.
 * An error event the upstream sends mid-stream is relayed scrubbed of credentials.
 * An observer with `observeBytes` (src/sse/byte-observer.ts) reads events from their raw bytes and
 * parses only the few that matter; any other observer is given every event parsed.
 */
import { within } from '../util/within';
import { MAX_EVENT_BYTES, parseEvent, SseFramer } from '../sse/framer';
import type { Usage } from '../core/usage';
import type { StreamFault, StreamObserver, Verdict } from '../sse/observer';

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
  /** Applied to an error event the upstream sends mid-stream before it is relayed (providers echo keys). */
  readonly scrub?: (text: string) => string;
  /**
   * A verdict still being reached alongside the stream (the guardrails' second opinion): a refusal ends the
   * stream at the next chunk, and the chunk that completes the stream waits for the verdict.
   */
  readonly gate?: { readonly judged: Promise<void>; readonly refusal: () => StreamFault | null } | undefined;
  /**
   * Work that must finish before the client sees the stream complete (keeping a stored response, so a
   * follow-up naming it finds it from any isolate): run once, when the observer first sees the
   * terminator, before the chunk that carries it is relayed. It must not throw.
   */
  readonly beforeEnd?: (() => Promise<void>) | undefined;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function relay(options: RelayOptions): {
  body: ReadableStream<Uint8Array>;
  outcome: Promise<RelayOutcome>;
} {
  const { reader, observer, idleTimeoutMs, abortUpstream } = options;
  const framer = new SseFramer();
  // A byte observer reads most events unparsed (src/sse/byte-observer.ts); any other gets each one parsed.
  const observe: (bytes: Uint8Array) => Verdict = observer.observeBytes
    ? observer.observeBytes.bind(observer)
    : (bytes) => observer.observe(parseEvent(bytes));
  let settle!: (o: RelayOutcome) => void;
  const outcome = new Promise<RelayOutcome>((resolve) => (settle = resolve));
  let ended = false;
  const watchdog = idleWatchdog(idleTimeoutMs, () => {
    abortUpstream();
    void reader.cancel().catch(() => {});
  });
  // The runtime moves the bytes from here to the client; each write resolves once the client took it.
  const { readable, writable } = new IdentityTransformStream();
  const writer = writable.getWriter();

  // What the client has taken: the observer counts a chunk as it passes, before its write resolves.
  let takenChars = 0;
  const end = (completed: boolean, error: RelayOutcome['error'], cancelledByClient = false) => {
    if (ended) return;
    ended = true;
    watchdog.stop();
    settle({
      completed,
      cancelledByClient,
      usage: observer.usage,
      deliveredChars: cancelledByClient ? takenChars : observer.deliveredChars,
      error,
    });
  };
  // The client went away: the upstream call is aborted at once, even while a read is pending. A write
  // still in flight may have reached the client just before: the outcome waits for it to settle, so what
  // the client took is counted (the pump's own continuation of that write runs first).
  let clientGone = false;
  let inFlight: Promise<void> = Promise.resolve();
  writer.closed.catch(() => {
    if (ended) return;
    clientGone = true;
    abortUpstream();
    void reader.cancel().catch(() => {});
    void inFlight.then(
      () => end(false, null, true),
      () => end(false, null, true),
    );
  });
  const write = async (bytes: Uint8Array) => {
    inFlight = writer.write(bytes);
    await inFlight;
  };

  const fail = async (code: string, message: string) => {
    if (clientGone) return;
    abortUpstream();
    void reader.cancel().catch(() => {});
    end(false, { code, message });
    await write(encoder.encode(observer.errorFrame(message, code)));
    await writer.close();
  };
  const idleFailure = () =>
    fail('stream_idle_timeout', `Upstream sent nothing for ${idleTimeoutMs} ms; the stream was closed.`);

  const pump = async (): Promise<void> => {
    const gate = options.gate;
    let beforeEnd = options.beforeEnd;
    let pendingFirst = options.first;
    for (;;) {
      if (ended || clientGone) return;
      const refusal = gate?.refusal();
      if (refusal) return fail(refusal.fault, refusal.message);
      let chunk: Uint8Array;
      if (pendingFirst) {
        chunk = pendingFirst;
        pendingFirst = null;
      } else {
        let read: ReadableStreamReadResult<Uint8Array>;
        watchdog.arm();
        try {
          read = await reader.read();
        } catch {
          if (ended || clientGone) return;
          if (watchdog.fired) return idleFailure();
          return fail('stream_interrupted', 'The upstream connection failed mid-stream.');
        } finally {
          watchdog.disarm();
        }
        if (ended || clientGone) return;
        if (watchdog.fired) return idleFailure();
        if (read.done) {
          if (!observer.done)
            return fail('stream_incomplete', 'The upstream stream ended before it was complete.');
          const upstreamError = observer.upstreamError;
          end(
            upstreamError === null,
            upstreamError ? { code: 'upstream_error', message: upstreamError } : null,
          );
          return writer.close();
        }
        chunk = read.value;
      }
      const hadPending = framer.pendingBytes > 0;
      const frames = framer.pushRaw(chunk);
      const out = select(frames, observe, observer, options.scrub);
      if (out === 'malformed')
        return fail('malformed_chunk', 'The upstream sent a malformed stream event; the stream was closed.');
      if ('fault' in out) {
        if (out.before.length > 0) await write(join(out.before));
        return fail(out.fault, out.message);
      }
      if (framer.tooLarge) {
        if (out.length > 0) await write(join(out));
        return fail(
          'event_too_large',
          `The upstream sent a single stream event larger than ${MAX_EVENT_BYTES} bytes; the stream was closed.`,
        );
      }
      if (gate && observer.done) {
        await gate.judged;
        const late = gate.refusal();
        if (late) return fail(late.fault, late.message);
      }
      if (beforeEnd && observer.done) {
        const work = beforeEnd;
        beforeEnd = undefined;
        await work();
        if (clientGone) return;
      }
      if (out.length === 0) continue;
      const whole =
        !hadPending &&
        framer.pendingBytes === 0 &&
        out.length === frames.length &&
        out.every((bytes, i) => bytes === frames[i]);
      await write(whole ? chunk : join(out));
      takenChars = observer.deliveredChars;
    }
  };
  // A write the client refused ends the pump; writer.closed above has recorded why.
  void pump().catch(() => {});
  return { body: readable, outcome };
}

/**
 * One timer per stream: fires `onIdle` once when a read has been pending for
 * `ms`. Between reads (while the client is not pulling) it is disarmed; a timer
 * that finds it disarmed lapses, and the next arm() starts a new one.
 */
function idleWatchdog(ms: number, onIdle: () => void) {
  let since: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const state = { fired: false };
  const check = () => {
    timer = null;
    if (since === null) return;
    const left = since + ms - Date.now();
    if (left > 0) {
      timer = setTimeout(check, left);
      return;
    }
    state.fired = true;
    onIdle();
  };
  return {
    get fired() {
      return state.fired;
    },
    /** A read from the upstream starts: silence from now on counts. */
    arm() {
      since = Date.now();
      if (timer === null && !state.fired) timer = setTimeout(check, ms);
    },
    /** The read settled: waiting for the client does not count. */
    disarm() {
      since = null;
    },
    stop() {
      since = null;
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}

/** What one chunk's events become: bytes to relay, a malformed event, or a fault after some bytes. */
type Selected = Uint8Array[] | 'malformed' | (StreamFault & { before: Uint8Array[] });

function select(
  frames: Uint8Array[],
  observe: (bytes: Uint8Array) => Verdict,
  observer: StreamObserver,
  scrub: ((text: string) => string) | undefined,
): Selected {
  const out: Uint8Array[] = [];
  for (const frame of frames) {
    const errorBefore = observer.upstreamError;
    const verdict = observe(frame);
    if (verdict === 'malformed') return 'malformed';
    if (verdict === 'drop') continue;
    if (!(verdict instanceof Uint8Array) && verdict !== 'forward') return { ...verdict, before: out };
    const bytes = verdict === 'forward' ? frame : verdict;
    if (bytes.byteLength === 0) continue;
    const isError = scrub && observer.upstreamError !== errorBefore;
    out.push(isError ? encoder.encode(scrub(decoder.decode(bytes))) : bytes);
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
  return within(
    ms,
    reader.read().catch(() => 'error' as const),
    () => 'timeout' as const,
  );
}
