/** Responses API answers written from and read into the canonical response (src/codecs/responses/response.ts). */
import { describe, expect, it } from 'vitest';
import type { AnswerContext } from '../../../../src/codecs/codec';
import type { ChatRequest, ChatResponse } from '../../../../src/codecs/ir';
import { decodeResponsesError } from '../../../../src/codecs/responses/error';
import { decodeResponsesRequest } from '../../../../src/codecs/responses/request';
import { decodeResponsesResponse, encodeResponsesResponse } from '../../../../src/codecs/responses/response';
import { fromResponsesUsage, responsesUsage, toResponsesUsage } from '../../../../src/codecs/responses/usage';
import { GatewayError } from '../../../../src/core/errors';

const usage = { input: 120, output: 40, cacheRead: 100, cacheWrite: 0, cacheWrite1h: 0, reasoning: 12 };
const answer = (over: Partial<ChatResponse> = {}): ChatResponse => ({
  id: 'msg_01ABC',
  model: 'claude-sonnet-4-5',
  created: 1_700_000_000,
  content: [{ type: 'text', text: 'Hello.' }],
  finish: 'end',
  stopSequence: null,
  usage,
  ...over,
});

function contextFor(body: Record<string, unknown>): AnswerContext {
  const request: ChatRequest = decodeResponsesRequest(body);
  return { request, body, responseId: 'resp_gw123' };
}

describe('encoding an answer', () => {
  it('writes a response object with echoes defaulted, output items and usage', () => {
    expect(encodeResponsesResponse(answer())).toEqual({
      id: 'resp_msg_01ABC',
      object: 'response',
      created_at: 1_700_000_000,
      status: 'completed',
      background: false,
      error: null,
      incomplete_details: null,
      instructions: null,
      max_output_tokens: null,
      model: 'claude-sonnet-4-5',
      output: [
        {
          id: 'msg_msg_01ABC_0',
          type: 'message',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Hello.', annotations: [], logprobs: [] }],
        },
      ],
      parallel_tool_calls: true,
      previous_response_id: null,
      prompt_cache_key: null,
      reasoning: { effort: null, summary: null },
      safety_identifier: null,
      store: true,
      temperature: 1,
      text: { format: { type: 'text' }, verbosity: 'medium' },
      tool_choice: 'auto',
      tools: [],
      top_p: 1,
      truncation: 'disabled',
      usage: {
        input_tokens: 120,
        input_tokens_details: { cached_tokens: 100, cache_write_tokens: 0 },
        output_tokens: 40,
        output_tokens_details: { reasoning_tokens: 12 },
        total_tokens: 160,
      },
      user: null,
      metadata: {},
    });
  });

  it("echoes the client's body and names the response by the gateway's id", () => {
    const tools = [{ type: 'function', name: 'f', parameters: {}, strict: true }];
    const body = {
      model: 'any',
      input: 'q',
      instructions: 'Be brief.',
      max_output_tokens: 300,
      tools,
      tool_choice: 'required',
      parallel_tool_calls: false,
      reasoning: { effort: 'low', summary: 'auto' },
      store: false,
      metadata: { k: 'v' },
      previous_response_id: 'resp_prev',
      temperature: 0.5,
    };
    const json = encodeResponsesResponse(answer(), contextFor(body));
    expect(json).toMatchObject({
      id: 'resp_gw123',
      instructions: 'Be brief.',
      max_output_tokens: 300,
      tools,
      tool_choice: 'required',
      parallel_tool_calls: false,
      reasoning: { effort: 'low', summary: 'auto' },
      store: false,
      metadata: { k: 'v' },
      previous_response_id: 'resp_prev',
      temperature: 0.5,
    });
    expect((json.output as { id: string }[])[0]?.id).toBe('msg_gw123_0');
  });

  it("writes a namespace member's call as the member, naming its namespace, and reads one back canonically", () => {
    const body = {
      model: 'm',
      input: 'q',
      tools: [{ type: 'namespace', name: 'mcp__docs', tools: [{ type: 'custom', name: 'grep' }] }],
    };
    const call = {
      type: 'tool_call' as const,
      id: 'call_1',
      name: 'mcp__docs__grep',
      arguments: '{"input":"todo"}',
    };
    const json = encodeResponsesResponse(answer({ content: [call], finish: 'tool_calls' }), contextFor(body));
    const item = {
      type: 'custom_tool_call',
      call_id: 'call_1',
      name: 'grep',
      namespace: 'mcp__docs',
      input: 'todo',
    };
    expect(json.output).toEqual([{ id: 'ctc_gw123_0', ...item }]);
    expect(decodeResponsesResponse({ ...json, output: [{ id: 'ctc_1', ...item }] }).content).toEqual([call]);
  });

  it('writes reasoning, text runs and calls as items in order; custom tools as custom_tool_call with the raw input', () => {
    const body = {
      model: 'm',
      input: 'q',
      tools: [
        { type: 'custom', name: 'apply_patch' },
        { type: 'function', name: 'f', parameters: {}, strict: false },
      ],
    };
    const json = encodeResponsesResponse(
      answer({
        content: [
          { type: 'reasoning', text: 'hmm', signature: 'EqQB', issuer: 'anthropic' },
          { type: 'redacted_reasoning', data: 'Emw', issuer: 'anthropic' },
          { type: 'reasoning', text: '', signature: 'gAAA', issuer: 'openai' },
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
          { type: 'tool_call', id: 'call_1', name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' },
          { type: 'tool_call', id: 'call_2', name: 'f', arguments: '{"x":1}' },
        ],
        finish: 'tool_calls',
      }),
      contextFor(body),
    );
    expect(json.output).toEqual([
      {
        id: 'rs_gw123_0',
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'hmm' }],
        encrypted_content: 'edgeway:anthropic:EqQB',
      },
      {
        id: 'rs_gw123_1',
        type: 'reasoning',
        summary: [],
        encrypted_content: 'edgeway:anthropic:redacted:Emw',
      },
      { id: 'rs_gw123_2', type: 'reasoning', summary: [], encrypted_content: 'gAAA' },
      {
        id: 'msg_gw123_3',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'a', annotations: [], logprobs: [] },
          { type: 'output_text', text: 'b', annotations: [], logprobs: [] },
        ],
      },
      {
        id: 'ctc_gw123_4',
        type: 'custom_tool_call',
        call_id: 'call_1',
        name: 'apply_patch',
        input: '*** Begin Patch',
      },
      {
        id: 'fc_gw123_5',
        type: 'function_call',
        status: 'completed',
        call_id: 'call_2',
        name: 'f',
        arguments: '{"x":1}',
      },
    ]);
    expect(json.status).toBe('completed');
  });

  it('marks an answer cut by the cap or a filter incomplete, with the reason', () => {
    expect(encodeResponsesResponse(answer({ finish: 'length' }))).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    });
    expect(encodeResponsesResponse(answer({ finish: 'content_filter' }))).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'content_filter' },
    });
  });
});

describe('decoding an answer', () => {
  const body = {
    id: 'resp_abc',
    object: 'response',
    created_at: 1_741_476_542,
    status: 'completed',
    model: 'gpt-5.1',
    output: [
      {
        id: 'rs_1',
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'First.' }],
        encrypted_content: 'gAAAAB',
      },
      { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'x' } },
      {
        id: 'msg_1',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hi.', annotations: [] }],
      },
      {
        id: 'fc_1',
        type: 'function_call',
        status: 'completed',
        call_id: 'call_1',
        name: 'f',
        arguments: '{}',
      },
    ],
    usage: {
      input_tokens: 36,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 87,
      output_tokens_details: { reasoning_tokens: 64 },
      total_tokens: 123,
    },
  };

  it('reads reasoning with its encrypted content, text and calls; skips items of hosted tools; tool calls finish as such', () => {
    expect(decodeResponsesResponse(body)).toEqual({
      id: 'resp_abc',
      model: 'gpt-5.1',
      created: 1_741_476_542,
      content: [
        { type: 'reasoning', text: 'First.', signature: 'gAAAAB', issuer: 'openai' },
        { type: 'text', text: 'Hi.' },
        { type: 'tool_call', id: 'call_1', name: 'f', arguments: '{}' },
      ],
      finish: 'tool_calls',
      stopSequence: null,
      usage: { input: 36, output: 87, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, reasoning: 64 },
    });
  });

  it('reads an incomplete answer by its reason', () => {
    const cut = { ...body, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
    expect(decodeResponsesResponse(cut).finish).toBe('length');
  });

  it('answers 502 for a body that is not a response, and relays a failed one as the provider’s error', () => {
    expect(() => decodeResponsesResponse({ choices: [] })).toThrow(GatewayError);
    try {
      decodeResponsesResponse({
        ...body,
        status: 'failed',
        error: { code: 'server_error', message: 'boom' },
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(GatewayError);
      expect([
        (err as GatewayError).status,
        (err as GatewayError).message,
        (err as GatewayError).source,
      ]).toEqual([502, 'boom', 'provider']);
    }
  });
});

describe('usage and errors', () => {
  it('reads and writes usage with cache reads, cache writes and reasoning as parts of the totals', () => {
    const wire = {
      input_tokens: 2006,
      input_tokens_details: { cached_tokens: 1920, cache_write_tokens: 50 },
      output_tokens: 300,
      output_tokens_details: { reasoning_tokens: 256 },
      total_tokens: 2306,
    };
    const canonical = {
      input: 2006,
      output: 300,
      cacheRead: 1920,
      cacheWrite: 50,
      cacheWrite1h: 0,
      reasoning: 256,
    };
    expect(fromResponsesUsage(wire)).toEqual(canonical);
    expect(toResponsesUsage(canonical)).toEqual(wire);
  });

  it("reads the gateway's usage from a JSON answer and from a terminal stream event", () => {
    const u = { input_tokens: 10, output_tokens: 5, total_tokens: 15 };
    expect(responsesUsage({ object: 'response', usage: u })?.inputTokens).toBe(10);
    expect(responsesUsage({ type: 'response.completed', response: { usage: u } })?.outputTokens).toBe(5);
    expect(responsesUsage({ type: 'response.output_text.delta', delta: 'x' })).toBeNull();
  });

  it("reads a provider's error from OpenAI's envelope", () => {
    const fault = decodeResponsesError({
      error: {
        message: 'Invalid value',
        type: 'invalid_request_error',
        param: 'input',
        code: 'invalid_value',
      },
    });
    expect(fault).toEqual({ message: 'Invalid value', type: 'invalid_request_error', code: 'invalid_value' });
  });
});
