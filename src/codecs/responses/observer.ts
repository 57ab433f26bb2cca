/**
 * The observer of a Responses stream relayed to a Responses client (pure): the terminator
 * (`response.completed`, `response.incomplete` or `response.failed`), usage from it, delivered text
 * and tool-call arguments, and upstream errors (an `error` event, or the failed response's `error`).
 * Nothing is dropped: the client gets every event (`stripUsage` does not apply, usage is always in
 * the terminal response). A `[DONE]`, which the format does not have, is dropped rather than relayed.
 *
 * With the guardrails' rewriter, what a text still held is flushed before the terminal event, and
 * the terminal event itself is rewritten so its response carries the texts as relayed.
 * The gateway's own error frame is the format's `error` event, numbered after the last event relayed.
 */
import {
  type ChunkListener,
  deliveryCounter,
  type EventRewriter,
  type ObservedState,
  rewrittenBytes,
  type StreamObserver,
  stateObserver,
} from '../../sse/observer';
import { eventObject, type Json, num, obj, str } from '../json';
import { DELIVERED_DELTAS, eventType, isTerminal } from './relay-events';
import { responsesUsage } from './usage';

/** The sequence number the next event gets: one past the last one relayed. */
export interface Sequence {
  next: number;
}

export interface ResponsesObserverOptions {
  readonly onChunk?: ChunkListener | undefined;
  readonly capture?: number;
  readonly rewriter?: EventRewriter | undefined;
}

export function responsesObserver(options: ResponsesObserverOptions = {}): StreamObserver {
  return sequencedObserver(options, { next: 0 });
}

/** The observer, numbering its error frame from `sequence` (which the byte observer updates too). */
export function sequencedObserver(options: ResponsesObserverOptions, sequence: Sequence): StreamObserver {
  const state: ObservedState = { done: false, usage: null, upstreamError: null };
  const delivered = deliveryCounter(options.capture);
  return stateObserver(
    state,
    delivered,
    (event) => {
      if (event.data === '') return 'forward';
      if (event.data === '[DONE]') return 'drop';
      const body = eventObject(event.data);
      if (!body) return 'malformed';
      const rewriter = options.rewriter;
      if (!rewriter) return account(body, event.event);
      const type = eventType(body, event.event);
      const held = isTerminal(type) ? rewriter.finish() : [];
      if ('fault' in held) return held;
      const rewritten = rewriter.rewrite(body, event.event);
      if ('fault' in rewritten) return rewritten;
      return rewrittenBytes([...held, ...rewritten], account);
    },
    (message, code) => {
      const data = { type: 'error', code, message, param: null, sequence_number: sequence.next };
      return `event: error\ndata: ${JSON.stringify(data)}\n\n`;
    },
  );

  function account(body: Json, event: string | null): 'forward' {
    options.onChunk?.(body, event);
    const seq = num(body.sequence_number);
    if (seq !== null) sequence.next = seq + 1;
    const type = eventType(body, event);
    if (DELIVERED_DELTAS.includes(type)) {
      const delta = str(body.delta);
      if (delta !== null) delivered.add(delta);
    } else if (isTerminal(type)) {
      state.done = true;
      state.usage = responsesUsage(body) ?? state.usage;
      const response = obj(body.response);
      if (type === 'response.failed')
        state.upstreamError = str(obj(response?.error)?.message) ?? 'The response failed.';
    } else if (type === 'error') {
      state.upstreamError = str(body.message) ?? str(obj(body.error)?.message) ?? 'upstream error';
    }
    return 'forward';
  }
}
