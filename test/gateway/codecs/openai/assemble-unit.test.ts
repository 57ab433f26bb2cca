import { describe, expect, it } from 'vitest';
import { openAiAssembler } from '../../../../src/codecs/openai/assemble';

describe('assembling a streamed answer', () => {
  it('rebuilds an OpenAI completion with content, tool calls, finish reason and usage', () => {
    const a = openAiAssembler();
    const head = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm' };
    a.push({ ...head, choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] }, null);
    a.push({ ...head, choices: [{ index: 0, delta: { content: 'Hel' } }] }, null);
    a.push({ ...head, choices: [{ index: 0, delta: { content: 'lo' } }] }, null);
    a.push(
      {
        ...head,
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                { index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a"' } },
              ],
            },
          },
        ],
      },
      null,
    );
    a.push(
      {
        ...head,
        choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: ':1}' } }] } }],
      },
      null,
    );
    a.push({ ...head, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }, null);
    a.push(
      { ...head, choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
      null,
    );
    expect(a.result()).toEqual({
      id: 'c1',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        {
          index: 0,
          logprobs: null,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Hello',
            refusal: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
          },
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
  });
});
