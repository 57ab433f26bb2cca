/** Responses API stream events written from and read into canonical stream events (src/codecs/responses/stream.ts). */
import { describe, expect, it } from 'vitest';
import type { AnswerContext, Frame } from '../../../../src/codecs/codec';
import type { StreamEvent } from '../../../../src/codecs/ir';
import { decodeResponsesRequest } from '../../../../src/codecs/responses/request';
import { encodeResponsesResponse } from '../../../../src/codecs/responses/response';
import { responsesStreamDecoder, responsesStreamEncoder } from '../../../../src/codecs/responses/stream';

type Data = Record<string, unknown> & { type: string; sequence_number: number };
const data = (frames: readonly Frame[]): Data[] => frames.map((f) => f.data as Data);
const encodeAll = (events: readonly StreamEvent[], context?: AnswerContext): Frame[] => {
  const encoder = responsesStreamEncoder({ includeUsage: false, ...(context ? { context } : {}) });
  return events.flatMap((e) => encoder.encode(e));
};
const usage = { input: 10, output: 20, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 5 };

describe('encoding a stream', () => {
  const events: StreamEvent[] = [
    { type: 'start', id: 'chatcmpl-1', model: 'm' },
    { type: 'reasoning', text: 'Think' },
    { type: 'reasoning', text: 'ing.' },
    { type: 'reasoning_signature', signature: 'EqQB', issuer: 'anthropic' },
    { type: 'text', text: 'Hel' },
    { type: 'text', text: 'lo.' },
    { type: 'tool_call', index: 0, id: 'call_1', name: 'f' },
    { type: 'tool_arguments', index: 0, arguments: '{"a"' },
    { type: 'tool_arguments', index: 0, arguments: ':1}' },
    { type: 'finish', reason: 'tool_calls', stopSequence: null },
    { type: 'usage', usage },
    { type: 'end' },
  ];
  const frames = encodeAll(events);
  const out = data(frames);

  it('writes the semantic events in order, each named in its event line and numbered from 0', () => {
    expect(out.map((d) => d.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(frames.every((f) => f.event === (f.data as Data).type)).toBe(true);
    expect(out.map((d) => d.sequence_number)).toEqual(out.map((_, i) => i));
  });

  it('opens with an in-progress response without output or usage', () => {
    expect(out[0]?.response).toMatchObject({
      id: 'resp_chatcmpl-1',
      status: 'in_progress',
      output: [],
      usage: null,
    });
  });

  it('ends with the whole response: the items as the JSON answer names them, and the usage', () => {
    const completed = out.at(-1)?.response as Record<string, unknown>;
    const json = encodeResponsesResponse({
      id: 'chatcmpl-1',
      model: 'm',
      created: completed.created_at as number,
      content: [
        { type: 'reasoning', text: 'Thinking.', signature: 'EqQB', issuer: 'anthropic' },
        { type: 'text', text: 'Hello.' },
        { type: 'tool_call', id: 'call_1', name: 'f', arguments: '{"a":1}' },
      ],
      finish: 'tool_calls',
      stopSequence: null,
      usage,
    });
    expect(completed).toEqual(json);
    expect(out.filter((d) => d.type === 'response.output_item.done').map((d) => d.item)).toEqual(json.output);
  });

  it('writes an answer cut by the cap as response.incomplete', () => {
    const cut = data(
      encodeAll([
        { type: 'start', id: 'x', model: 'm' },
        { type: 'text', text: 'a' },
        { type: 'finish', reason: 'length', stopSequence: null },
        { type: 'end' },
      ]),
    );
    expect(cut.at(-1)).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
  });

  it("writes a namespace member's call as the member, naming its namespace, streamed and whole", () => {
    const body = {
      model: 'm',
      input: 'q',
      tools: [
        {
          type: 'namespace',
          name: 'mcp__docs',
          tools: [{ type: 'function', name: 'search', parameters: {} }],
        },
      ],
    };
    const context: AnswerContext = { request: decodeResponsesRequest(body), body, responseId: 'resp_gw' };
    const out2 = data(
      encodeAll(
        [
          { type: 'start', id: 'x', model: 'm' },
          { type: 'tool_call', index: 0, id: 'call_1', name: 'mcp__docs__search' },
          { type: 'tool_arguments', index: 0, arguments: '{"query":"x"}' },
          { type: 'end' },
        ],
        context,
      ),
    );
    const call = { type: 'function_call', call_id: 'call_1', name: 'search', namespace: 'mcp__docs' };
    expect(out2.find((d) => d.type === 'response.output_item.added')?.item).toMatchObject(call);
    expect(out2.find((d) => d.type === 'response.function_call_arguments.done')).toMatchObject({
      name: 'search',
    });
    expect(out2.find((d) => d.type === 'response.output_item.done')?.item).toMatchObject({
      ...call,
      arguments: '{"query":"x"}',
    });
    const completed = out2.at(-1)?.response as { output: unknown[] } | undefined;
    expect(completed?.output[0]).toMatchObject(call);
  });

  it("writes a custom tool's call with its input whole, under the gateway's response id", () => {
    const body = { model: 'm', input: 'q', tools: [{ type: 'custom', name: 'apply_patch' }] };
    const context: AnswerContext = { request: decodeResponsesRequest(body), body, responseId: 'resp_gw' };
    const out2 = data(
      encodeAll(
        [
          { type: 'start', id: 'x', model: 'm' },
          { type: 'tool_call', index: 0, id: 'call_9', name: 'apply_patch' },
          { type: 'tool_arguments', index: 0, arguments: '{"input":"*** Be' },
          { type: 'tool_arguments', index: 0, arguments: 'gin Patch"}' },
          { type: 'end' },
        ],
        context,
      ),
    );
    expect(out2.slice(2).map((d) => d.type)).toEqual([
      'response.output_item.added',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(out2[3]).toMatchObject({ item_id: 'ctc_gw_0', delta: '*** Begin Patch' });
    expect(out2[5]?.item).toEqual({
      id: 'ctc_gw_0',
      type: 'custom_tool_call',
      call_id: 'call_9',
      name: 'apply_patch',
      input: '*** Begin Patch',
    });
  });

  it('keeps the arguments of a call that arrive after the next call began in the final response', () => {
    const out2 = data(
      encodeAll([
        { type: 'start', id: 'x', model: 'm' },
        { type: 'tool_call', index: 0, id: 'call_a', name: 'f' },
        { type: 'tool_call', index: 1, id: 'call_b', name: 'g' },
        { type: 'tool_arguments', index: 0, arguments: '{"late":true}' },
        { type: 'tool_arguments', index: 1, arguments: '{}' },
        { type: 'end' },
      ]),
    );
    const final = out2.at(-1)?.response as { output: { arguments: string }[] };
    expect(final.output.map((i) => i.arguments)).toEqual(['{"late":true}', '{}']);
    expect(out2.find((d) => d.type === 'response.function_call_arguments.delta')).toMatchObject({
      item_id: 'fc_x_0',
      delta: '{"late":true}',
    });
  });

  it('writes redacted reasoning as a reasoning item with wrapped encrypted content and no summary', () => {
    const out2 = data(
      encodeAll([
        { type: 'start', id: 'x', model: 'm' },
        { type: 'redacted_reasoning', data: 'Emw', issuer: 'anthropic' },
      ]),
    );
    expect(out2[3]).toMatchObject({
      type: 'response.output_item.done',
      item: { type: 'reasoning', summary: [], encrypted_content: 'edgeway:anthropic:redacted:Emw' },
    });
  });

  it("writes a provider's in-stream error, and the gateway's, as an error event", () => {
    const encoder = responsesStreamEncoder({ includeUsage: false });
    encoder.encode({ type: 'start', id: 'x', model: 'm' });
    expect(
      data(encoder.encode({ type: 'error', message: 'overloaded', errorType: 'overloaded_error' })),
    ).toEqual([
      { type: 'error', sequence_number: 2, code: 'overloaded_error', message: 'overloaded', param: null },
    ]);
    expect(encoder.errorFrame('cut', 'stream_timeout')).toEqual({
      event: 'error',
      data: { type: 'error', sequence_number: 3, code: 'stream_timeout', message: 'cut', param: null },
    });
  });
});

/** A Responses stream as OpenAI sends it (abridged objects), for the upstream decoder. */
const recorded: [string, Record<string, unknown>][] = [
  [
    'response.created',
    { response: { id: 'resp_up', object: 'response', status: 'in_progress', model: 'gpt-5.1', output: [] } },
  ],
  ['response.in_progress', { response: { id: 'resp_up', status: 'in_progress' } }],
  ['response.output_item.added', { output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } }],
  [
    'response.reasoning_summary_part.added',
    { item_id: 'rs_1', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } },
  ],
  [
    'response.reasoning_summary_text.delta',
    { item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'One.' },
  ],
  [
    'response.reasoning_summary_part.added',
    { item_id: 'rs_1', output_index: 0, summary_index: 1, part: { type: 'summary_text', text: '' } },
  ],
  [
    'response.reasoning_summary_text.delta',
    { item_id: 'rs_1', output_index: 0, summary_index: 1, delta: 'Two.' },
  ],
  [
    'response.output_item.done',
    { output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAA' } },
  ],
  [
    'response.output_item.added',
    {
      output_index: 1,
      item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] },
    },
  ],
  [
    'response.output_text.delta',
    { item_id: 'msg_1', output_index: 1, content_index: 0, delta: 'Hi', logprobs: [] },
  ],
  [
    'response.output_text.done',
    { item_id: 'msg_1', output_index: 1, content_index: 0, text: 'Hi', logprobs: [] },
  ],
  [
    'response.output_item.added',
    {
      output_index: 2,
      item: {
        id: 'fc_1',
        type: 'function_call',
        status: 'in_progress',
        call_id: 'call_1',
        name: 'f',
        arguments: '',
      },
    },
  ],
  ['response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 2, delta: '{"a":' }],
  ['response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 2, delta: '1}' }],
  [
    'response.output_item.added',
    {
      output_index: 3,
      item: { id: 'ctc_1', type: 'custom_tool_call', call_id: 'call_2', name: 'p', input: '' },
    },
  ],
  ['response.custom_tool_call_input.delta', { item_id: 'ctc_1', output_index: 3, delta: 'line "1"\n' }],
  ['response.custom_tool_call_input.delta', { item_id: 'ctc_1', output_index: 3, delta: 'end' }],
  [
    'response.output_item.done',
    {
      output_index: 3,
      item: { id: 'ctc_1', type: 'custom_tool_call', call_id: 'call_2', name: 'p', input: 'line "1"\nend' },
    },
  ],
  [
    'response.completed',
    {
      response: {
        id: 'resp_up',
        status: 'completed',
        usage: {
          input_tokens: 9,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 7,
          output_tokens_details: { reasoning_tokens: 3 },
          total_tokens: 16,
        },
      },
    },
  ],
];

describe('decoding an upstream stream', () => {
  const decode = (events: [string, Record<string, unknown>][]) => {
    const decoder = responsesStreamDecoder();
    return events.flatMap(([type, body], i) => {
      const out = decoder.decode({
        event: type,
        data: JSON.stringify({ type, sequence_number: i, ...body }),
      });
      if (out === 'malformed') throw new Error('malformed');
      return out;
    });
  };

  it('reads start, reasoning with its signature, text, function and custom tool calls, finish, usage and end', () => {
    const events = decode(recorded);
    expect(events).toEqual([
      { type: 'start', id: 'resp_up', model: 'gpt-5.1' },
      { type: 'reasoning', text: 'One.' },
      { type: 'reasoning', text: '\n\n' },
      { type: 'reasoning', text: 'Two.' },
      { type: 'reasoning_signature', signature: 'gAAA', issuer: 'openai' },
      { type: 'text', text: 'Hi' },
      { type: 'tool_call', index: 0, id: 'call_1', name: 'f' },
      { type: 'tool_arguments', index: 0, arguments: '{"a":' },
      { type: 'tool_arguments', index: 0, arguments: '1}' },
      { type: 'tool_call', index: 1, id: 'call_2', name: 'p' },
      { type: 'tool_arguments', index: 1, arguments: '{"input":"line \\"1\\"\\n' },
      { type: 'tool_arguments', index: 1, arguments: 'end' },
      { type: 'tool_arguments', index: 1, arguments: '"}' },
      { type: 'finish', reason: 'tool_calls', stopSequence: null },
      {
        type: 'usage',
        usage: { input: 9, output: 7, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 3 },
      },
      { type: 'end' },
    ]);
    const custom = events
      .flatMap((e) => (e.type === 'tool_arguments' && e.index === 1 ? [e.arguments] : []))
      .join('');
    expect(JSON.parse(custom)).toEqual({ input: 'line "1"\nend' });
  });

  it('reads a failed response and an error event as errors, and refuses what is not JSON', () => {
    const failed = decode([
      [
        'response.failed',
        { response: { status: 'failed', error: { code: 'server_error', message: 'boom' } } },
      ],
    ]);
    expect(failed).toEqual([{ type: 'error', message: 'boom', errorType: 'server_error' }]);
    expect(decode([['error', { code: 'rate_limit_exceeded', message: 'slow down', param: null }]])).toEqual([
      { type: 'error', message: 'slow down', errorType: 'rate_limit_exceeded' },
    ]);
    expect(responsesStreamDecoder().decode({ event: null, data: '{oops' })).toBe('malformed');
  });

  it('reads an incomplete response as cut by the cap', () => {
    const events = decode([
      [
        'response.incomplete',
        { response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } },
      ],
    ]);
    expect(events).toEqual([{ type: 'finish', reason: 'length', stopSequence: null }, { type: 'end' }]);
  });
});
