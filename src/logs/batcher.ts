/**
 * The isolate's log batcher: events from concurrent requests share a queue
 * message. The request whose event opens a batch owns it: its one timer sends
 * the batch after `waitMs`, and that request's waitUntil awaits the send, so
 * all of a batch's I/O and the promise it settles belong to one request.
 * Others only append their event (plain data) and return at once; a batch that
 * reaches `maxEvents`, or that an event would take past `maxBytes`, is sealed
 * (the next event opens a new one) and still sent by its owner's timer.
 * workerd forbids settling a promise of one request from another's I/O
 * ("Cannot perform I/O on behalf of a different request"), which a shared
 * "flush done" promise did under load.
 */
import type { LogEvent } from '../core/log-event';
import { type LogBatch, MAX_BATCH_EVENTS } from './batch';
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
export const BATCH_WAIT_MS = 5;

interface Open {
  readonly events: LogEvent[];
  bytes: number;
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
    const size = jsonBytes(event) + 1;
    let open = this.#open;
    if (open && open.bytes + size > this.#maxBytes) open = this.#open = null;
    if (open) {
      open.events.push(event);
      open.bytes += size;
      if (open.events.length >= this.#maxEvents) this.#open = null;
      return Promise.resolve();
    }
    const opened: Open = { events: [event], bytes: size };
    this.#open = this.#maxEvents > 1 ? opened : null;
    return new Promise<void>((resolve) => {
      setTimeout(() => {
        if (this.#open === opened) this.#open = null;
        this.#send(opened.events).then(resolve, resolve);
      }, this.#waitMs);
    });
  }

  #send(events: LogEvent[]): Promise<void> {
    this.#seq += 1;
    this.#sent += events.length;
    return this.#deliver({ v: 2, isolate: this.isolate, seq: this.#seq, sent: this.#sent, events });
  }
}
