/**
 * The isolate's log batcher: events from concurrent requests share a queue
 * message. The request whose event opens a batch owns it: its one timer sends
 * the batch after `waitMs`, and that request's waitUntil awaits the send, so
 * all of a batch's I/O and the promise it settles belong to one request.
 * Others only append their event (plain data) and return at once; a batch that
 * reaches `maxEvents`, or that an event would take past `maxBytes`, is sealed
 * (the next event opens a new one) and still sent by its owner's timer.
 * Sizes are counted from an upper bound (src/logs/json-bound.ts) while a batch
 * is far from the cap, so the usual event is not serialised here; only a batch
 * the bound cannot clear is measured exactly, once, and its later events too.
 * workerd forbids settling a promise of one request from another's I/O
 * ("Cannot perform I/O on behalf of a different request"), which a shared
 * "flush done" promise did under load.
 */
import type { LogEvent } from '../core/log-event';
import { type LogBatch, MAX_BATCH_EVENTS } from './batch';
import { jsonBytesBound } from './json-bound';
import { jsonBytes, MAX_MESSAGE_BYTES } from './normalise';

export interface BatcherOptions {
  /** Sends one batch; never rejects (failures are the delivery's to keep). */
  readonly deliver: (batch: LogBatch) => Promise<void>;
  readonly maxEvents?: number;
  readonly maxBytes?: number;
  readonly waitMs?: number;
  /** Names this isolate's batches; random per batcher by default. */
  readonly isolate?: string;
}

/** Room for the envelope (v, isolate, seq, sent) around the events. */
const ENVELOPE_BYTES = 200;
/**
 * How long a batch stays open. Each queue message costs a send, the queue's own
 * work and a consumer write whatever it holds: at 600 requests/s, 50 ms rather
 * than 5 ms cut the gateway's CPU per request by about a tenth (bench/README.md).
 * Only the opening request's waitUntil waits; no response does.
 */
export const BATCH_WAIT_MS = 50;

interface Open {
  readonly events: LogEvent[];
  /** Bytes of the events as JSON with their commas: an upper bound until `exact`. */
  bytes: number;
  exact: boolean;
}

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
    this.#waitMs = options.waitMs ?? BATCH_WAIT_MS;
    this.isolate = options.isolate ?? crypto.randomUUID();
  }

  /**
   * Adds a normalised event (src/logs/normalise.ts). For the event that opens
   * a batch: resolves once that batch is sent (delivered, or kept by the
   * fallback). For the others: at once, their event riding the open batch.
   */
  add(event: LogEvent): Promise<void> {
    const bound = jsonBytesBound(event) + 1;
    const open = this.#open;
    const size = open ? this.#room(open, event, bound) : null;
    if (open && size !== null) {
      open.events.push(event);
      open.bytes += size;
      if (open.events.length >= this.#maxEvents) this.#open = null;
      return Promise.resolve();
    }
    const opened: Open = { events: [event], bytes: bound, exact: false };
    this.#open = this.#maxEvents > 1 ? opened : null;
    return new Promise<void>((resolve) => {
      setTimeout(() => {
        if (this.#open === opened) this.#open = null;
        this.#send(opened.events).then(resolve, resolve);
      }, this.#waitMs);
    });
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
