/**
 * A cached Anthropic message replayed as a well-formed Messages stream (pure): message_start, each
 * content block (text, thinking and tool input as one delta; a thinking block's signature as its
 * own delta, as Anthropic streams it), message_delta with the stop reason and usage, then message_stop.
 */
import type { Json } from '../json';

const named = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export function replayAnthropic(body: Json): string {
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
    } else if (block.type === 'thinking') {
      const start = { type: 'thinking', thinking: '', signature: '' };
      out += named('content_block_start', { type: 'content_block_start', index, content_block: start });
      for (const delta of [
        { type: 'thinking_delta', thinking: block.thinking ?? '' },
        { type: 'signature_delta', signature: block.signature ?? '' },
      ])
        out += named('content_block_delta', { type: 'content_block_delta', index, delta });
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
