/**
 * The isolate's log batcher: events from concurrent requests share a queue
 * message. The request whose event opens a batch owns its timer: after
 * `waitMs` it sends the batch, and that request's waitUntil awaits the send.
 * Others only append their event (plain data) and return at once. A batch that
 * is full (`maxEvents`, or an event would take it past `maxBytes`) is sent at
 * once by the request whose call found it full, as that request's own I/O
 * (its add() resolves when the send is done); the owner's timer then finds it
 * sent and only resolves. So a busy isolate holds at most one open batch, and
 * the wait only delays the messages of a quiet one.
 * Sizes are counted from an upper bound (src/logs/produce/json-bound.ts) while a batch
 * is far from the cap, so the usual event is not serialised here; only a batch
 * the bound cannot clear is measured exactly, once, and its later events too.
 * workerd forbids settling a promise of one request from another's I/O
 * ("Cannot perform I/O on behalf of a different request"), which a shared
 * "flush done" promise did under load: every send here is awaited only by the
 * request that made it.
 */
import type { LogEvent } from '../../core/log-event';
import { type LogBatch, MAX_BATCH_EVENTS } from '../../core/log-batch';
import { jsonBytesBound } from './json-bound';
import { jsonBytes, MAX_MESSAGE_BYTES } from './normalise';

export interface BatcherOptions {
  /** Sends one batch; never rejects (failures are the delivery's to keep). */
  readonly deliver: (batch: LogBatch) => Promise<void>;
  readonly maxEvents?: number;
  readonly maxBytes?: number;
  /**
   * How long a batch that does not fill stays open (LOG_BATCH_WAIT_MS, 1 s by
   * default). Each queue message costs a send, the queue's own work and a
   * consumer write (and three billed queue operations) whatever it holds. A
   * full batch goes at once, so the wait only matters below about 1,000
   * requests/s per isolate: at concurrency 1 (about 45/s) 50 ms sends 20
   * messages of 2 events a second, 1 s one of about 45, 0.4 ms of CPU a
   * request less (bench/README.md, "The log batch's wait"). Only the waitUntil
   * of the request that opens a batch waits; no response does.
   */
  readonly waitMs: number;
  /** Names this isolate's batches; random per batcher by default. */
  readonly isolate?: string;
}

/** Room for the envelope (v, isolate, seq, sent) around the events. */
const ENVELOPE_BYTES = 200;

interface Open {
  readonly events: LogEvent[];
  /** Bytes of the events as JSON with their commas: an upper bound until `exact`. */
  bytes: number;
  exact: boolean;
  /** Sent by the call that found it full; the owner's timer then only resolves. */
  sent: boolean;
}

const done = (): void => {};

export class LogBatcher {
  readonly isolate: string;
  #seq = 0;
  #sent = 0;
  #open: Open | null = null;
  readonly #deliver: (batch: LogBatch) => Promise<void>;
  readonly #maxEvents: number;
  readonly #maxBytes: number;
  readonly #waitMs: number;

  constructor(options: BatcherOptions) {
    this.#deliver = options.deliver;
    this.#maxEvents = Math.min(options.maxEvents ?? MAX_BATCH_EVENTS, MAX_BATCH_EVENTS);
    this.#maxBytes = (options.maxBytes ?? MAX_MESSAGE_BYTES) - ENVELOPE_BYTES;
    this.#waitMs = options.waitMs;
    this.isolate = options.isolate ?? crypto.randomUUID();
  }

  /**
   * Adds a normalised event (src/logs/produce/normalise.ts). For the event that opens
   * a batch, and for the one that finds a batch full: resolves once the batch
   * it sends is sent (delivered, or kept by the fallback). For the others: at
   * once, their event riding the open batch.
   */
  add(event: LogEvent): Promise<void> {
    const bound = jsonBytesBound(event) + 1;
    const open = this.#open;
    const size = open ? this.#room(open, event, bound) : null;
    if (open && size !== null) {
      open.events.push(event);
      open.bytes += size;
      return open.events.length >= this.#maxEvents ? this.#seal(open) : Promise.resolve();
    }
    // The open batch (if any) cannot take this event: it is full, and goes now, with this call's I/O.
    const full = open ? this.#seal(open) : null;
    const opened: Open = { events: [event], bytes: bound, exact: false, sent: false };
    this.#open = opened;
    // A one-event batch is full at once (and then no batch was left open for this call to find).
    if (this.#maxEvents <= 1) return this.#seal(opened);
    // The opener's timer sends the batch unless a call that found it full has sent it already.
    const timed = new Promise<void>((resolve) => {
      setTimeout(() => (opened.sent ? resolve() : this.#seal(opened).then(resolve)), this.#waitMs);
    });
    return full ? Promise.all([full, timed]).then(done) : timed;
  }

  /** Closes `open` and sends it from the calling request; resolves when it is sent (never rejects). */
  #seal(open: Open): Promise<void> {
    if (this.#open === open) this.#open = null;
    open.sent = true;
    return this.#send(open.events).then(done, done);
  }

  /** What `event` adds to `open` (its bound, or its exact size near the cap), or null if it would pass the cap. */
  #room(open: Open, event: LogEvent, bound: number): number | null {
    if (!open.exact) {
      if (open.bytes + bound <= this.#maxBytes) return bound;
      let exact = 0;
      for (const e of open.events) exact += jsonBytes(e) + 1;
      open.bytes = exact;
      open.exact = true;
    }
    const size = jsonBytes(event) + 1;
    return open.bytes + size <= this.#maxBytes ? size : null;
  }

  #send(events: LogEvent[]): Promise<void> {
    this.#seq += 1;
    this.#sent += events.length;
    return this.#deliver({ v: 2, isolate: this.isolate, seq: this.#seq, sent: this.#sent, events });
  }
}
