/**
 * The Messages answer in Anthropic's wire format: the `message` object, or
 * the event stream message_start → content_block_start → ping →
 * content_block_delta… → content_block_stop → message_delta → message_stop.
 * With thinking on, a `thinking` block comes first (streamed as thinking_deltas
 * and one signature_delta), then an optional `redacted_thinking` block, then
 * the text or tool_use block at the next index.
 */
import type { Completion } from './completion';
import { outputTokens } from './completion';
import type { MessagesRequest } from './messages-request';
import type { ExplicitUsage } from './prompt-cache';
import type { StreamPlan } from './schedule';

export interface MessageMeta {
  readonly id: string;
  /** Id of the tool_use block, when the completion is one. */
  readonly toolUseId: string;
  /** The thinking block's signature, when thinking is on. */
  readonly signature?: string;
  /** The redacted_thinking block's data, when asked for. */
  readonly redacted?: string;
  /** Total input tokens (the prompt-token rule). */
  readonly input: number;
  readonly cache: ExplicitUsage;
}

function stopReason(completion: Completion): 'end_turn' | 'max_tokens' | 'tool_use' {
  if (completion.kind === 'tool') return 'tool_use';
  return completion.truncated ? 'max_tokens' : 'end_turn';
}

/** Anthropic's usage: `input_tokens` excludes what was read from or written to the cache. */
export function messageUsage(meta: MessageMeta, output: number): Record<string, unknown> {
  const { read, write5m, write1h } = meta.cache;
  return {
    input_tokens: meta.input - read - write5m - write1h,
    cache_creation_input_tokens: write5m + write1h,
    cache_read_input_tokens: read,
    cache_creation: { ephemeral_5m_input_tokens: write5m, ephemeral_1h_input_tokens: write1h },
    output_tokens: output,
    service_tier: 'standard',
  };
}

/** The thinking text as returned: the reasoning words, or "" with `display: "omitted"`. */
export function shownThinking(request: MessagesRequest, completion: Completion): string {
  return request.options.thinking?.omitted ? '' : completion.reasoning.join('');
}

function mainBlock(completion: Completion, meta: MessageMeta, streamed: boolean): Record<string, unknown> {
  if (completion.kind === 'tool')
    return {
      type: 'tool_use',
      id: meta.toolUseId,
      name: completion.name,
      input: streamed ? {} : completion.input,
      // Who called the tool: the model itself (Anthropic's answers always say; code execution is the other caller).
      caller: { type: 'direct' },
    };
  return { type: 'text', text: streamed ? '' : completion.tokens.join('') };
}

/** The non-streaming `message` object. */
export function messageBody(request: MessagesRequest, completion: Completion, meta: MessageMeta): unknown {
  const content: unknown[] = [];
  if (meta.signature !== undefined)
    content.push({
      type: 'thinking',
      thinking: shownThinking(request, completion),
      signature: meta.signature,
    });
  if (meta.redacted !== undefined) content.push({ type: 'redacted_thinking', data: meta.redacted });
  content.push(mainBlock(completion, meta, false));
  return {
    id: meta.id,
    type: 'message',
    role: 'assistant',
    model: request.model,
    content,
    stop_reason: stopReason(completion),
    stop_sequence: null,
    usage: messageUsage(meta, outputTokens(completion)),
  };
}

const event = (type: string, json: string): string => `event: ${type}\ndata: ${json}\n\n`;
const blockStart = (index: number, block: unknown) =>
  event('content_block_start', JSON.stringify({ type: 'content_block_start', index, content_block: block }));
const blockStop = (index: number) =>
  event('content_block_stop', `{"type":"content_block_stop","index":${index}}`);
const delta = (index: number, body: string) =>
  `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":${body}}\n\n`;

/** Token events before the main block: thinking deltas, then the signature, block changes and the main block's start. */
function reasoningEvents(request: MessagesRequest, completion: Completion, meta: MessageMeta): string[] {
  if (meta.signature === undefined) return [];
  const out = request.options.thinking?.omitted
    ? []
    : completion.reasoning.map((word) =>
        delta(0, `{"type":"thinking_delta","thinking":${JSON.stringify(word)}}`),
      );
  let boundary =
    delta(0, `{"type":"signature_delta","signature":${JSON.stringify(meta.signature)}}`) + blockStop(0);
  let index = 1;
  if (meta.redacted !== undefined) {
    boundary += blockStart(1, { type: 'redacted_thinking', data: meta.redacted }) + blockStop(1);
    index = 2;
  }
  out.push(boundary + blockStart(index, mainBlock(completion, meta, true)));
  return out;
}

/** The Messages stream. message_start reports output_tokens 1, as the real API does; message_delta has the total. */
export function messageStreamPlan(
  request: MessagesRequest,
  completion: Completion,
  meta: MessageMeta,
): StreamPlan {
  const start = {
    type: 'message_start',
    message: {
      id: meta.id,
      type: 'message',
      role: 'assistant',
      model: request.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: messageUsage(meta, 1),
    },
  };
  const thinking = meta.signature !== undefined;
  const main = thinking ? (meta.redacted !== undefined ? 2 : 1) : 0;
  const first = thinking
    ? { type: 'thinking', thinking: '', signature: '' }
    : mainBlock(completion, meta, true);
  const head = [
    event('message_start', JSON.stringify(start)),
    blockStart(0, first),
    event('ping', '{"type":"ping"}'),
  ];
  const messageDelta = {
    type: 'message_delta',
    delta: { stop_reason: stopReason(completion), stop_sequence: null },
    usage: { output_tokens: outputTokens(completion) },
  };
  const tail = [
    blockStop(main),
    event('message_delta', JSON.stringify(messageDelta)),
    event('message_stop', '{"type":"message_stop"}'),
  ];
  const before = reasoningEvents(request, completion, meta);
  const answer =
    completion.kind === 'tool'
      ? [`{"type":"input_json_delta","partial_json":${JSON.stringify(JSON.stringify(completion.input))}}`]
      : completion.tokens;
  const render =
    completion.kind === 'tool'
      ? (i: number) => delta(main, answer[i] as string)
      : (i: number) => delta(main, `{"type":"text_delta","text":${JSON.stringify(answer[i])}}`);
  return {
    head,
    tokenCount: before.length + answer.length,
    token: (i) => (i < before.length ? (before[i] as string) : render(i - before.length)),
    tail,
    malformed: 'event: content_block_delta\ndata: {"type":"content_block_delta",\n\n',
    content: {
      open: 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"',
      close: '"}}\n\n',
    },
  };
}
