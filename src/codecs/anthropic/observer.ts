/**
 * The observer of an Anthropic Messages stream relayed to an Anthropic client:
 * usage from message_start and message_delta, the message_stop terminator,
 * delivered text, JSON and thinking, in-stream error events (pure).
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
import { eventObject, type Json, obj } from '../json';
import { noAnthropicCounts, readAnthropicCounts, usageOfCounts } from './usage';

export function anthropicObserver(
  options: { onChunk?: ChunkListener; capture?: number; rewriter?: EventRewriter } = {},
): StreamObserver {
  const state: ObservedState = { done: false, usage: null, upstreamError: null };
  const delivered = deliveryCounter(options.capture);
  // Anthropic's input_tokens leaves out cache reads and writes; the gateway's inputTokens counts every prompt token.
  const raw = noAnthropicCounts();
  const readUsage = (u: Json | null) => {
    if (!u) return;
    readAnthropicCounts(u, raw);
    state.usage = usageOfCounts(raw);
  };
  return stateObserver(
    state,
    delivered,
    (event) => {
      if (event.data === '') return 'forward';
      const body = eventObject(event.data);
      if (!body) return 'malformed';
      const rewriter = options.rewriter;
      if (!rewriter) return account(body, event.event);
      const stop = (event.event ?? body.type) === 'message_stop';
      const rewritten = stop ? rewriter.finish() : rewriter.rewrite(body, event.event);
      if ('fault' in rewritten) return rewritten;
      return rewrittenBytes(stop ? [...rewritten, { event: event.event, data: body }] : rewritten, account);
    },
    (message, code) => {
      const type = code === 'guardrail_blocked' ? 'invalid_request_error' : 'api_error';
      return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message } })}\n\n`;
    },
  );

  function account(body: Json, event: string | null): 'forward' {
    options.onChunk?.(body, event);
    const type = event ?? String(body.type ?? '');
    if (type === 'message_start') readUsage(obj(obj(body.message)?.usage));
    else if (type === 'message_delta') readUsage(obj(body.usage));
    else if (type === 'content_block_delta') {
      const delta = obj(body.delta);
      const text = delta?.text ?? delta?.partial_json ?? delta?.thinking;
      if (typeof text === 'string') delivered.add(text);
    } else if (type === 'message_stop') state.done = true;
    else if (type === 'error') state.upstreamError = String(obj(body.error)?.message ?? 'upstream error');
    return 'forward';
  }
}
