/**
 * What the gateway learns from a stream while relaying it: usage, whether the
 * terminator arrived, how much text was delivered, and which events to drop.
 * This is the contract and the format-free helpers; each client format's
 * observer is a pure state machine over SseEvents in its codec
 * (src/codecs/<format>/observer.ts).
 */
import type { Usage } from '../core/usage';
import type { SseEvent } from './framer';

/** A fault the gateway itself ends a stream with (a guardrail's block), relayed as the format's error frame. */
export interface StreamFault {
  readonly fault: string;
  readonly message: string;
}

/**
 * forward: pass on; drop: remove (usage chunk the client did not ask for);
 * malformed: a fault; bytes: relay these instead (a translated or rewritten event); a StreamFault: end here.
 */
export type Verdict = 'forward' | 'drop' | 'malformed' | Uint8Array | StreamFault;

/** One event to relay, in the client's format, before serialising. */
export interface RewrittenEvent {
  readonly event: string | null;
  readonly data: Record<string, unknown>;
}

/**
 * Rewrites each parsed client-format event before it is counted and relayed
 * (the guardrails' answer side, src/guardrails/stream-guard.ts). Streams
 * without one are never parsed for it.
 */
export interface EventRewriter {
  /** The events to relay in place of this one, or a fault that ends the stream. */
  rewrite(data: Record<string, unknown>, event: string | null): RewrittenEvent[] | StreamFault;
  /** Events to relay before the terminator (what a text still held back), or a fault. */
  finish(): RewrittenEvent[] | StreamFault;
}

const textEncoder = new TextEncoder();

/** Serialises rewritten events as SSE, each through `account` (which may drop it). */
export function rewrittenBytes(
  events: readonly RewrittenEvent[],
  account: (data: Record<string, unknown>, event: string | null) => 'forward' | 'drop',
  tail = '',
): Uint8Array | 'drop' {
  let out = '';
  for (const e of events) {
    if (account(e.data, e.event) === 'drop') continue;
    const data = JSON.stringify(e.data);
    out += e.event ? `event: ${e.event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
  }
  out += tail;
  return out === '' ? 'drop' : textEncoder.encode(out);
}

export interface StreamObserver {
  observe(event: SseEvent): Verdict;
  /**
   * The same verdict from the event's raw bytes, for observers that can leave most events unparsed
   * (src/sse/byte-observer.ts); the relay parses each event for `observe` when this is absent.
   */
  observeBytes?(bytes: Uint8Array): Verdict;
  /** The stream's terminator was seen. */
  readonly done: boolean;
  readonly usage: Usage | null;
  /** Characters of content delivered so far (text and tool-call arguments). */
  readonly deliveredChars: number;
  /** The first `capture` characters of that content (payload logging); '' when not asked. */
  readonly captured: string;
  /** An error the upstream reported inside the stream, if any. */
  readonly upstreamError: string | null;
  /** A final SSE frame telling the client the stream failed. */
  errorFrame(message: string, code: string): string;
}

/** Called with every parsed JSON event, e.g. to assemble the full response for the cache. */
export type ChunkListener = (chunk: Record<string, unknown>, event: string | null) => void;

/** Counts delivered text and keeps its first `capture` characters. */
export function deliveryCounter(capture = 0) {
  const kept = { chars: 0, text: '' };
  return {
    get chars() {
      return kept.chars;
    },
    get text() {
      return kept.text;
    },
    add(text: string) {
      kept.chars += text.length;
      if (kept.text.length < capture) kept.text += text.slice(0, capture - kept.text.length);
    },
  };
}

export type DeliveryCounter = ReturnType<typeof deliveryCounter>;

/** What a same-format observer learns as it goes; the observer's read-only fields show it. */
export interface ObservedState {
  done: boolean;
  usage: Usage | null;
  upstreamError: string | null;
}

/** A same-format observer from its state, its delivery counter and its two format-specific functions. */
export function stateObserver(
  state: ObservedState,
  delivered: DeliveryCounter,
  observe: (event: SseEvent) => Verdict,
  errorFrame: (message: string, code: string) => string,
): StreamObserver {
  return {
    get done() {
      return state.done;
    },
    get usage() {
      return state.usage;
    },
    get deliveredChars() {
      return delivered.chars;
    },
    get captured() {
      return delivered.text;
    },
    get upstreamError() {
      return state.upstreamError;
    },
    observe,
    errorFrame,
  };
}
