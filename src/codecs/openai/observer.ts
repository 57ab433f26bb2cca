/**
 * The observer of an OpenAI chat stream relayed to an OpenAI client: usage (the
 * chunk the gateway asked for is dropped when the client did not), the `[DONE]`
 * terminator, delivered text and tool-call arguments, in-stream errors (pure).
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
import { openAiUsage } from './usage';

export function openAiObserver(options: {
  stripUsage: boolean;
  onChunk?: ChunkListener;
  capture?: number;
  rewriter?: EventRewriter;
}): StreamObserver {
  const state: ObservedState = { done: false, usage: null, upstreamError: null };
  const delivered = deliveryCounter(options.capture);
  return stateObserver(
    state,
    delivered,
    (event) => {
      if (event.data === '') return 'forward';
      const rewriter = options.rewriter;
      if (event.data === '[DONE]') {
        state.done = true;
        if (!rewriter) return 'forward';
        const held = rewriter.finish();
        return 'fault' in held ? held : rewrittenBytes(held, account, 'data: [DONE]\n\n');
      }
      const chunk = eventObject(event.data);
      if (!chunk) return 'malformed';
      if (!rewriter) return account(chunk, event.event);
      const rewritten = rewriter.rewrite(chunk, event.event);
      return 'fault' in rewritten ? rewritten : rewrittenBytes(rewritten, account);
    },
    (message, code) =>
      `data: ${JSON.stringify({ error: { message, type: errorType(code), param: null, code } })}\n\n`,
  );

  function account(chunk: Json, event: string | null): 'forward' | 'drop' {
    options.onChunk?.(chunk, event);
    const error = obj(chunk.error);
    if (error) state.upstreamError = String(error.message ?? 'upstream error');
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    for (const choice of choices) {
      const delta = obj(obj(choice)?.delta);
      if (!delta) continue;
      if (typeof delta.content === 'string') delivered.add(delta.content);
      if (Array.isArray(delta.tool_calls)) {
        for (const call of delta.tool_calls) {
          const args = obj(obj(call)?.function)?.arguments;
          if (typeof args === 'string') delivered.add(args);
        }
      }
    }
    const usage = openAiUsage(chunk);
    if (usage) {
      state.usage = usage;
      if (options.stripUsage && choices.length === 0) return 'drop';
    }
    return 'forward';
  }
}

/** A guardrail's block is the request's fault as the client sees it; everything else is the server's. */
const errorType = (code: string) => (code === 'guardrail_blocked' ? 'invalid_request_error' : 'server_error');
