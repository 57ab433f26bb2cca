/**
 * Turns a cached response back into what the client asked for (pure): the JSON
 * as stored, or a well-formed SSE stream of the API's own events, with usage
 * (OpenAI: only when the client asked) and the terminator.
 */
import type { CachedEntry } from './entry';

type Json = Record<string, unknown>;
const frame = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const named = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export function replaySse(entry: CachedEntry, includeUsage: boolean): string {
  return entry.format === 'anthropic' ? anthropicEvents(entry.body) : openAiChunks(entry.body, includeUsage);
}

function openAiChunks(body: Json, includeUsage: boolean): string {
  const base = {
    id: body.id,
    object: 'chat.completion.chunk',
    created: body.created,
    model: body.model,
    system_fingerprint: body.system_fingerprint ?? null,
  };
  const extra = includeUsage ? { usage: null } : {};
  const choices = Array.isArray(body.choices) ? (body.choices as Json[]) : [];
  let out = '';
  for (const choice of choices) {
    const index = choice.index ?? 0;
    const message = (choice.message ?? {}) as Json;
    out += frame({
      ...base,
      choices: [{ index, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }],
      ...extra,
    });
    if (typeof message.content === 'string' && message.content !== '') {
      out += frame({
        ...base,
        choices: [{ index, delta: { content: message.content }, logprobs: null, finish_reason: null }],
        ...extra,
      });
    }
    const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Json[]) : [];
    calls.forEach((call, i) => {
      out += frame({
        ...base,
        choices: [
          { index, delta: { tool_calls: [{ index: i, ...call }] }, logprobs: null, finish_reason: null },
        ],
        ...extra,
      });
    });
    out += frame({
      ...base,
      choices: [{ index, delta: {}, logprobs: null, finish_reason: choice.finish_reason ?? 'stop' }],
      ...extra,
    });
  }
  if (includeUsage && body.usage) out += frame({ ...base, choices: [], usage: body.usage });
  return `${out}data: [DONE]\n\n`;
}

function anthropicEvents(body: Json): string {
  const usage = (body.usage ?? {}) as Json;
  const content = Array.isArray(body.content) ? (body.content as Json[]) : [];
  let out = named('message_start', {
    type: 'message_start',
    message: {
      ...body,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      out += named('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      });
      out += named('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'text_delta', text: block.text ?? '' },
      });
    } else if (block.type === 'tool_use') {
      out += named('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { ...block, input: {} },
      });
      out += named('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input ?? {}) },
      });
    } else {
      out += named('content_block_start', { type: 'content_block_start', index, content_block: block });
    }
    out += named('content_block_stop', { type: 'content_block_stop', index });
  });
  out += named('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: body.stop_reason ?? 'end_turn', stop_sequence: body.stop_sequence ?? null },
    usage: { output_tokens: usage.output_tokens ?? 0 },
  });
  return out + named('message_stop', { type: 'message_stop' });
}
