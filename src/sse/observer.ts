/**
 * What the gateway learns from a stream while relaying it: usage, whether the
 * terminator arrived, how much text was delivered, and which events to drop.
 * One observer per wire format; both are pure state machines over SseEvents.
 */
import { count, usageFromJson, type Usage } from '../core/usage';
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

type Json = Record<string, unknown>;

function asObject(v: unknown): Json | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
}

function parse(data: string): Json | null {
  try {
    return asObject(JSON.parse(data));
  } catch {
    return null;
  }
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

export function openAiObserver(options: {
  stripUsage: boolean;
  onChunk?: ChunkListener;
  capture?: number;
  rewriter?: EventRewriter;
}): StreamObserver {
  const state = { done: false, usage: null as Usage | null, upstreamError: null as string | null };
  const delivered = deliveryCounter(options.capture);
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
    observe(event) {
      if (event.data === '') return 'forward';
      const rewriter = options.rewriter;
      if (event.data === '[DONE]') {
        state.done = true;
        if (!rewriter) return 'forward';
        const held = rewriter.finish();
        return 'fault' in held ? held : rewrittenBytes(held, account, 'data: [DONE]\n\n');
      }
      const chunk = parse(event.data);
      if (!chunk) return 'malformed';
      if (!rewriter) return account(chunk, event.event);
      const rewritten = rewriter.rewrite(chunk, event.event);
      return 'fault' in rewritten ? rewritten : rewrittenBytes(rewritten, account);
    },
    errorFrame(message, code) {
      return `data: ${JSON.stringify({ error: { message, type: errorType(code), param: null, code } })}\n\n`;
    },
  };

  function account(chunk: Json, event: string | null): 'forward' | 'drop' {
    options.onChunk?.(chunk, event);
    const error = asObject(chunk.error);
    if (error) state.upstreamError = String(error.message ?? 'upstream error');
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    for (const choice of choices) {
      const delta = asObject(asObject(choice)?.delta);
      if (!delta) continue;
      if (typeof delta.content === 'string') delivered.add(delta.content);
      if (Array.isArray(delta.tool_calls)) {
        for (const call of delta.tool_calls) {
          const args = asObject(asObject(call)?.function)?.arguments;
          if (typeof args === 'string') delivered.add(args);
        }
      }
    }
    const usage = usageFromJson('openai', chunk);
    if (usage) {
      state.usage = usage;
      if (options.stripUsage && choices.length === 0) return 'drop';
    }
    return 'forward';
  }
}

/** A guardrail's block is the request's fault as the client sees it; everything else is the server's. */
const errorType = (code: string) => (code === 'guardrail_blocked' ? 'invalid_request_error' : 'server_error');

export function anthropicObserver(
  options: { onChunk?: ChunkListener; capture?: number; rewriter?: EventRewriter } = {},
): StreamObserver {
  const state = { done: false, usage: null as Usage | null, upstreamError: null as string | null };
  const delivered = deliveryCounter(options.capture);
  // Anthropic's input_tokens leaves out cache reads and writes; the gateway's inputTokens counts every prompt token.
  const raw = { input: 0, read: 0, write: 0, output: 0 };
  const readUsage = (u: Json | null) => {
    if (!u) return;
    if ('input_tokens' in u) raw.input = count(u.input_tokens);
    if ('cache_read_input_tokens' in u) raw.read = count(u.cache_read_input_tokens);
    if ('cache_creation_input_tokens' in u) raw.write = count(u.cache_creation_input_tokens);
    if ('output_tokens' in u) raw.output = count(u.output_tokens);
    state.usage = {
      inputTokens: raw.input + raw.read + raw.write,
      outputTokens: raw.output,
      cachedTokens: raw.read,
    };
  };
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
    observe(event) {
      if (event.data === '') return 'forward';
      const body = parse(event.data);
      if (!body) return 'malformed';
      const rewriter = options.rewriter;
      if (!rewriter) return account(body, event.event);
      const stop = (event.event ?? body.type) === 'message_stop';
      const rewritten = stop ? rewriter.finish() : rewriter.rewrite(body, event.event);
      if ('fault' in rewritten) return rewritten;
      return rewrittenBytes(stop ? [...rewritten, { event: event.event, data: body }] : rewritten, account);
    },
    errorFrame(message, code) {
      const type = code === 'guardrail_blocked' ? 'invalid_request_error' : 'api_error';
      return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message } })}\n\n`;
    },
  };

  function account(body: Json, event: string | null): 'forward' {
    options.onChunk?.(body, event);
    const type = event ?? String(body.type ?? '');
    if (type === 'message_start') readUsage(asObject(asObject(body.message)?.usage));
    else if (type === 'message_delta') readUsage(asObject(body.usage));
    else if (type === 'content_block_delta') {
      const delta = asObject(body.delta);
      const text = delta?.text ?? delta?.partial_json ?? delta?.thinking;
      if (typeof text === 'string') delivered.add(text);
    } else if (type === 'message_stop') state.done = true;
    else if (type === 'error')
      state.upstreamError = String(asObject(body.error)?.message ?? 'upstream error');
    return 'forward';
  }
}
