import { describe, expect, it } from 'vitest';
import { anthropicAssembler } from '../../../../src/codecs/anthropic/assemble';

describe('assembling a streamed answer', () => {
  it('rebuilds an Anthropic message, including tool input', () => {
    const a = anthropicAssembler();
    a.push(
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          usage: { input_tokens: 4, output_tokens: 1 },
        },
      },
      'message_start',
    );
    a.push(
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      'content_block_start',
    );
    a.push(
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
      'content_block_delta',
    );
    a.push({ type: 'content_block_stop', index: 0 }, 'content_block_stop');
    a.push(
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 't1', name: 'f', input: {} },
      },
      'content_block_start',
    );
    a.push(
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"q":' } },
      'content_block_delta',
    );
    a.push(
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"x"}' } },
      'content_block_delta',
    );
    a.push({ type: 'content_block_stop', index: 1 }, 'content_block_stop');
    a.push(
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { output_tokens: 9 },
      },
      'message_delta',
    );
    expect(a.result()).toMatchObject({
      id: 'msg_1',
      stop_reason: 'tool_use',
      usage: { input_tokens: 4, output_tokens: 9 },
      content: [
        { type: 'text', text: 'Hi' },
        { type: 'tool_use', id: 't1', name: 'f', input: { q: 'x' } },
      ],
    });
  });
});
