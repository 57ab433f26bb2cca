/**
 * What the gateway learns from a stream while relaying it: usage, whether the
 * terminator arrived, how much text was delivered, and which events to drop.
 * One observer per wire format; both are pure state machines over SseEvents.
 */
import { count, usageFromJson, type Usage } from '../core/usage';
import type { SseEvent } from './framer';

/**
 * forward: pass on; drop: remove (usage chunk the client did not ask for);
 * malformed: a fault; bytes: relay these instead (a translated event).
 */
export type Verdict = 'forward' | 'drop' | 'malformed' | Uint8Array;

export interface StreamObserver {
  observe(event: SseEvent): Verdict;
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
      if (event.data === '[DONE]') {
        state.done = true;
        return 'forward';
      }
      const chunk = parse(event.data);
      if (!chunk) return 'malformed';
      options.onChunk?.(chunk, event.event);
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
    },
    errorFrame(message, code) {
      return `data: ${JSON.stringify({ error: { message, type: 'server_error', param: null, code } })}\n\n`;
    },
  };
}

export function anthropicObserver(
  options: { onChunk?: ChunkListener; capture?: number } = {},
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
      options.onChunk?.(body, event.event);
      const type = event.event ?? String(body.type ?? '');
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
    },
    errorFrame(message) {
      return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message } })}\n\n`;
    },
  };
}
