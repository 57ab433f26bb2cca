/**
 * A stream observer that translates as it observes (pure, one per stream):
 * each upstream event is decoded by the provider's codec into canonical
 * events and encoded by the client's codec into the frames relayed in its
 * place, event by event, never buffered. Usage, completion and delivered text
 * are read from the canonical events, so limits and logs get the provider's
 * exact counts whatever the two formats are.
 */
import type { Usage } from '../core/usage';
import {
  type ChunkListener,
  deliveryCounter,
  type EventRewriter,
  type RewrittenEvent,
  type StreamFault,
  type StreamObserver,
} from '../sse/observer';
import type { Frame, StreamDecoder, StreamEncoder } from './codec';
import type { TokenUsage } from './ir';
import { gatewayUsage, merge, ZERO } from './usage';

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

export function serialiseFrame(frame: Frame): string {
  const data = frame.data === '[DONE]' ? '[DONE]' : JSON.stringify(frame.data);
  return frame.event ? `event: ${frame.event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
}

export function translatingObserver(options: {
  readonly decoder: StreamDecoder;
  readonly encoder: StreamEncoder;
  readonly onChunk?: ChunkListener;
  readonly capture?: number;
  /** Rewrites each client-format frame before it is relayed (guardrails); absent for most streams. */
  readonly rewriter?: EventRewriter;
}): StreamObserver {
  const rewrite = options.rewriter ? rewriting(options.rewriter) : null;
  const delivered = deliveryCounter(options.capture);
  const state = { done: false, usage: null as TokenUsage | null, upstreamError: null as string | null };
  const deliver = (text: string) => delivered.add(text);
  return {
    get done() {
      return state.done;
    },
    get usage(): Usage | null {
      return state.usage ? gatewayUsage(state.usage) : null;
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
    observe(event) {
      const events = options.decoder.decode(event);
      if (events === 'malformed') return 'malformed';
      let out = '';
      for (const e of events) {
        if (e.type === 'end') state.done = true;
        else if (e.type === 'usage') state.usage = merge(state.usage ?? ZERO, e.usage);
        else if (e.type === 'text') deliver(e.text);
        else if (e.type === 'tool_arguments') deliver(e.arguments);
        else if (e.type === 'error') state.upstreamError = e.message;
        const frames = options.encoder.encode(e);
        const relayed = rewrite ? rewrite(frames) : frames;
        if ('fault' in relayed) return relayed;
        for (const frame of relayed) {
          if (frame.data !== '[DONE]') options.onChunk?.(frame.data, frame.event);
          out += serialiseFrame(frame);
        }
      }
      return out === '' ? EMPTY : encoder.encode(out);
    },
    errorFrame(message, code) {
      return serialiseFrame(options.encoder.errorFrame(message, code));
    },
  };
}

/** Frames through a rewriter: what it holds back is released before the terminator. */
function rewriting(rewriter: EventRewriter) {
  return (frames: readonly Frame[]): Frame[] | StreamFault => {
    const out: Frame[] = [];
    for (const frame of frames) {
      const rewritten: RewrittenEvent[] | StreamFault = frame.ends
        ? rewriter.finish()
        : rewriter.rewrite(frame.data as Record<string, unknown>, frame.event);
      if ('fault' in rewritten) return rewritten;
      for (const r of rewritten) out.push(r);
      if (frame.ends === undefined) continue;
      if (frame.ends === 'verbatim') {
        out.push(frame);
        continue;
      }
      const last = rewriter.rewrite(frame.data as Record<string, unknown>, frame.event);
      if ('fault' in last) return last;
      for (const r of last) out.push(r);
    }
    return out;
  };
}
