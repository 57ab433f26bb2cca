/** Responses API requests read into the canonical request and written for a Responses provider (src/codecs/responses/request.ts). */
import { describe, expect, it } from 'vitest';
import { anthropicUpstream } from '../../../../src/codecs/anthropic/index';
import type { EncodeContext } from '../../../../src/codecs/codec';
import type { ChatRequest } from '../../../../src/codecs/ir';
import { openAiUpstream } from '../../../../src/codecs/openai/index';
import { decodeResponsesRequest, encodeResponsesRequest } from '../../../../src/codecs/responses/request';
import { GatewayError } from '../../../../src/core/errors';
import codex from '../fixtures/codex-request.json';

const context = (over: Partial<EncodeContext> = {}): EncodeContext => ({
  model: 'gpt-5.1',
  providerId: 'openai',
  outputCap: 4096,
  enforceCap: false,
  dropped: [],
  ...over,
});

function refusal(body: Record<string, unknown>): GatewayError {
  try {
    decodeResponsesRequest(body);
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe("Codex CLI's request", () => {
  const request = decodeResponsesRequest(codex);

  it('reads instructions and the leading developer messages as the system prompt, the user messages as two turns', () => {
    expect(request.system.map((p) => p.text)).toEqual([
      codex.instructions,
      codex.input[0]?.content[0]?.text,
      codex.input[1]?.content[0]?.text,
    ]);
    expect(request.messages.map((m) => m.role)).toEqual(['user', 'user']);
    expect(request.messages[1]?.content).toEqual([
      { type: 'text', text: codex.input[3]?.content[0]?.text },
      { type: 'text', text: 'Create hello.txt containing the word hello.' },
    ]);
  });

  it("keeps the seven function tools and the MCP server's namespace as its members, and drops web_search, naming it", () => {
    expect(request.tools.map((t) => t.name)).toEqual([
      'shell_command',
      'update_plan',
      'request_user_input',
      'view_image',
      'list_mcp_resources',
      'list_mcp_resource_templates',
      'read_mcp_resource',
      'mcp__docs__search',
    ]);
    expect(request.tools[0]?.parameters).toEqual(codex.tools[0]?.parameters);
    expect(request.tools.at(-1)).toMatchObject({
      description: 'Searches the docs.',
      parameters: { required: ['query'] },
    });
    expect(request.dropped).toEqual(
      expect.arrayContaining(['tools[web_search]', 'tools[].strict', 'client_metadata']),
    );
    expect(request.dropped).toHaveLength(3);
  });

  it("reads a namespace member's call in the history under its canonical name", () => {
    const history = decodeResponsesRequest({
      model: 'm',
      tools: codex.tools,
      input: [
        { type: 'message', role: 'user', content: 'find it' },
        {
          type: 'function_call',
          call_id: 'c1',
          namespace: 'mcp__docs',
          name: 'search',
          arguments: '{"query":"x"}',
        },
        { type: 'function_call_output', call_id: 'c1', output: 'found' },
      ],
    });
    expect(JSON.stringify(history.messages)).toContain('"name":"mcp__docs__search"');
  });

  it('reads the tool choice, parallel calls, reasoning summary, cache key and stream', () => {
    expect(request.toolChoice).toEqual({ type: 'auto' });
    expect(request.parallelToolCalls).toBe(false);
    expect(request.reasoning).toEqual({
      mode: 'default',
      effort: null,
      budgetTokens: null,
      display: 'summarized',
    });
    expect(request.promptCacheKey).toBe(codex.prompt_cache_key);
    expect(request.stream).toBe(true);
  });

  it('reaches Anthropic as a Messages body with the same system prompt, turns and tools', () => {
    const dropped: string[] = [];
    const body = anthropicUpstream.encodeRequest(
      request,
      context({ model: 'claude-sonnet-4-5', providerId: 'anthropic', dropped }),
    );
    expect(body.tools).toHaveLength(8);
    // The MCP server's tool, by a name Anthropic's tool names allow.
    expect((body.tools as { name: string }[]).at(-1)?.name).toBe('mcp__docs__search');
    expect(JSON.stringify(body.system)).toContain('You are Codex');
    expect(body.messages).toHaveLength(1);
  });

  it('reaches an OpenAI chat provider as a chat body with the same messages and tools', () => {
    const body = openAiUpstream.encodeRequest(request, context({ model: 'gpt-4.1', providerId: 'acme' }));
    expect(body.tools).toHaveLength(8);
    expect((body.messages as { role: string }[]).map((m) => m.role)).toEqual(['system', 'user', 'user']);
    expect(body.parallel_tool_calls).toBe(false);
  });
});

describe('decoding input items', () => {
  it('reads a string input as one user turn', () => {
    const r = decodeResponsesRequest({ model: 'm', input: 'hi', instructions: 'Be brief.' });
    expect(r.system).toEqual([{ type: 'text', text: 'Be brief.' }]);
    expect(r.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
  });

  it('merges reasoning, an output message and function calls into one assistant turn, and their outputs into one user turn', () => {
    const r = decodeResponsesRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'weather?' },
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [
            { type: 'summary_text', text: 'a' },
            { type: 'summary_text', text: 'b' },
          ],
          encrypted_content: 'gAAA',
        },
        {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Looking.', annotations: [] }],
        },
        { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' },
        { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
        {
          type: 'custom_tool_call_output',
          call_id: 'call_2',
          output: [{ type: 'input_text', text: 'Done' }],
        },
        { type: 'message', role: 'developer', content: 'Now summarise.' },
      ],
    });
    expect(r.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'a\n\nb', signature: 'gAAA', issuer: 'openai' },
          { type: 'text', text: 'Looking.' },
          { type: 'tool_call', id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' },
          { type: 'tool_call', id: 'call_2', name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            toolCallId: 'call_1',
            content: [{ type: 'text', text: 'sunny' }],
            isError: false,
          },
          {
            type: 'tool_result',
            toolCallId: 'call_2',
            content: [{ type: 'text', text: 'Done' }],
            isError: false,
          },
        ],
      },
      { role: 'system', content: [{ type: 'text', text: 'Now summarise.' }] },
    ]);
  });

  it('unwraps a signature another format issued, and redacted reasoning', () => {
    const r = decodeResponsesRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'q' },
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: 'thought' }],
          encrypted_content: 'edgeway:anthropic:EqQBsig',
        },
        {
          type: 'reasoning',
          id: 'rs_2',
          summary: [],
          encrypted_content: 'edgeway:anthropic:redacted:EmwKAhgB',
        },
      ],
    });
    expect(r.messages[1]?.content).toEqual([
      { type: 'reasoning', text: 'thought', signature: 'EqQBsig', issuer: 'anthropic' },
      { type: 'redacted_reasoning', data: 'EmwKAhgB', issuer: 'anthropic' },
    ]);
  });

  it('reads images by URL and data URL, and refuses a file_id or an input_file stored at OpenAI', () => {
    const r = decodeResponsesRequest({
      model: 'm',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'auto' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBOR', detail: 'low' },
          ],
        },
      ],
    });
    expect(r.messages[0]?.content).toEqual([
      { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } },
      { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBOR' } },
    ]);
    const fileId = refusal({
      model: 'm',
      input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file_1', detail: 'auto' }] }],
    });
    expect(fileId.status).toBe(400);
    expect(fileId.param).toBe('input[0].content[0]');
    const file = refusal({
      model: 'm',
      input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file_1' }] }],
    });
    expect(file.param).toBe('input[0].content[0]');
  });

  it('drops the items of tools only OpenAI runs, naming each type once', () => {
    const r = decodeResponsesRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'q' },
        { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } },
        { type: 'web_search_call', id: 'ws_2', status: 'completed', action: { type: 'search', query: 'y' } },
        {
          type: 'local_shell_call',
          id: 'ls_1',
          call_id: 'c',
          status: 'completed',
          action: { type: 'exec', command: ['ls'], env: {} },
        },
      ],
    });
    expect(r.messages).toHaveLength(1);
    expect(r.dropped).toEqual(['input[].web_search_call', 'input[].local_shell_call']);
  });

  it('refuses an item reference with a 400 naming it', () => {
    const err = refusal({
      model: 'm',
      input: [
        { role: 'user', content: 'q' },
        { type: 'item_reference', id: 'msg_1' },
      ],
    });
    expect([err.status, err.param, err.code]).toEqual([400, 'input[1]', 'unsupported_value']);
    expect(refusal({ model: 'm', input: [{ id: 'msg_1' }] }).param).toBe('input[0]');
  });
});

describe('decoding settings', () => {
  const base = { model: 'm', input: 'hi' };

  it('reads the output cap, sampling, user and the JSON schema format', () => {
    const r = decodeResponsesRequest({
      ...base,
      max_output_tokens: 500,
      temperature: 0.2,
      top_p: 0.9,
      user: 'u1',
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true } },
    });
    expect([r.maxTokens, r.temperature, r.topP, r.user]).toEqual([500, 0.2, 0.9, 'u1']);
    expect(r.responseFormat).toEqual({
      type: 'json_schema',
      name: 'answer',
      schema: { type: 'object' },
      strict: true,
    });
    expect(
      decodeResponsesRequest({ ...base, text: { format: { type: 'json_object' } } }).responseFormat,
    ).toEqual({ type: 'json_object' });
    expect(decodeResponsesRequest({ ...base, text: { format: { type: 'text' } } }).responseFormat).toBeNull();
  });

  it('reads safety_identifier as the user when there is no user, and names it when both are given', () => {
    expect(decodeResponsesRequest({ ...base, safety_identifier: 's1' }).user).toBe('s1');
    const both = decodeResponsesRequest({ ...base, user: 'u1', safety_identifier: 's1' });
    expect([both.user, both.dropped]).toEqual(['u1', ['safety_identifier']]);
  });

  it('reads the reasoning effort as a request to reason (none: off), and a summary as summarized display', () => {
    const r = (reasoning: unknown) => decodeResponsesRequest({ ...base, reasoning }).reasoning;
    expect(r({ effort: 'high', summary: 'detailed' })).toEqual({
      mode: 'on',
      effort: 'high',
      budgetTokens: null,
      display: 'summarized',
    });
    expect(r({ effort: 'none' })).toEqual({ mode: 'off', effort: 'none', budgetTokens: null, display: null });
    expect(r({ generate_summary: 'concise' })).toEqual({
      mode: 'default',
      effort: null,
      budgetTokens: null,
      display: 'summarized',
    });
    expect(r({})).toBeNull();
  });

  it('reads tool choices: named function and custom tools, allowed tools (naming the subset), and refuses a hosted one', () => {
    const tools = [{ type: 'function', name: 'f', parameters: {}, strict: false }];
    const choice = (tool_choice: unknown) => decodeResponsesRequest({ ...base, tools, tool_choice });
    expect(choice({ type: 'function', name: 'f' }).toolChoice).toEqual({ type: 'tool', name: 'f' });
    expect(choice({ type: 'custom', name: 'f' }).toolChoice).toEqual({ type: 'tool', name: 'f' });
    const allowed = choice({
      type: 'allowed_tools',
      mode: 'required',
      tools: [{ type: 'function', name: 'f' }],
    });
    expect([allowed.toolChoice, allowed.dropped]).toEqual([
      { type: 'required' },
      ['tool_choice.allowed_tools'],
    ]);
    const err = refusal({ ...base, tools, tool_choice: { type: 'web_search_preview' } });
    expect([err.status, err.param]).toEqual([400, 'tool_choice']);
  });

  it('sends no tool choice when every tool was one only OpenAI runs, naming a forced one', () => {
    const r = decodeResponsesRequest({ ...base, tools: [{ type: 'web_search' }], tool_choice: 'required' });
    expect([r.tools, r.toolChoice, r.dropped]).toEqual([[], null, ['tools[web_search]', 'tool_choice']]);
    expect(
      decodeResponsesRequest({ ...base, tools: [{ type: 'web_search' }], tool_choice: 'none' }).toolChoice,
    ).toEqual({
      type: 'none',
    });
  });

  it('turns a custom tool into a tool with one string argument described by its grammar', () => {
    const r = decodeResponsesRequest({
      ...base,
      tools: [
        {
          type: 'custom',
          name: 'apply_patch',
          description: 'Patch files.',
          format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' },
        },
      ],
    });
    expect(r.tools).toEqual([
      {
        name: 'apply_patch',
        description: 'Patch files.',
        parameters: {
          type: 'object',
          properties: {
            input: { type: 'string', description: 'The input, in this lark grammar:\nstart: "x"' },
          },
          required: ['input'],
        },
      },
    ]);
  });

  it('leaves gateway-level fields out of the canonical request and names the dropped hints', () => {
    const r = decodeResponsesRequest({
      ...base,
      store: true,
      metadata: { a: 'b' },
      include: ['reasoning.encrypted_content'],
      previous_response_id: 'resp_1',
      service_tier: 'flex',
      truncation: 'auto',
      top_logprobs: 2,
      text: { verbosity: 'low' },
      prompt_cache_retention: null,
    });
    expect(r.dropped).toEqual(['service_tier', 'truncation', 'top_logprobs', 'text.verbosity']);
  });

  it('refuses background runs, stored conversations, stored prompts and unknown fields', () => {
    expect([
      refusal({ ...base, background: true }).param,
      refusal({ ...base, background: true }).code,
    ]).toEqual(['background', 'unsupported_value']);
    expect(refusal({ ...base, conversation: 'conv_1' }).param).toBe('conversation');
    expect(refusal({ ...base, prompt: { id: 'pmpt_1' } }).param).toBe('prompt');
    expect(refusal({ ...base, frobnicate: 1 }).param).toBe('frobnicate');
    expect(decodeResponsesRequest({ ...base, background: false }).dropped).toEqual([]);
  });
});

const canonical = (over: Partial<ChatRequest>): ChatRequest => ({
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  maxTokens: null,
  temperature: null,
  topP: null,
  topK: null,
  stop: [],
  tools: [],
  toolChoice: null,
  parallelToolCalls: null,
  responseFormat: null,
  n: 1,
  stream: false,
  user: null,
  reasoning: null,
  promptCacheKey: null,
  dropped: [],
  ...over,
});

describe('encoding for a Responses provider', () => {
  it('writes a stateless body: instructions, input items, non-strict function tools, store false', () => {
    const body = encodeResponsesRequest(
      canonical({
        system: [{ type: 'text', text: 'Be brief.' }],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'q' },
              { type: 'image', source: { kind: 'url', url: 'https://x/a.png' } },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'mine', signature: 'gAAA', issuer: 'openai' },
              { type: 'reasoning', text: 'theirs', signature: 'sig', issuer: 'anthropic' },
              { type: 'text', text: 'Calling.' },
              { type: 'tool_call', id: 'call_1', name: 'f', arguments: '{}' },
            ],
          },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                toolCallId: 'call_1',
                content: [{ type: 'text', text: 'boom' }],
                isError: true,
              },
            ],
          },
        ],
        tools: [{ name: 'f', description: 'F.', parameters: { type: 'object' } }],
        toolChoice: { type: 'tool', name: 'f' },
        stream: true,
      }),
      context(),
    );
    expect(body).toEqual({
      model: 'gpt-5.1',
      instructions: 'Be brief.',
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'q' },
            { type: 'input_image', image_url: 'https://x/a.png', detail: 'auto' },
          ],
        },
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'mine' }], encrypted_content: 'gAAA' },
        {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Calling.', annotations: [] }],
        },
        { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'Error: boom' },
      ],
      tools: [
        { type: 'function', name: 'f', description: 'F.', parameters: { type: 'object' }, strict: false },
      ],
      tool_choice: { type: 'function', name: 'f' },
      store: false,
      stream: true,
    });
  });

  it('fills the output cap from the context when told to (never under 16), and keeps the client’s own', () => {
    expect(
      encodeResponsesRequest(canonical({}), context({ enforceCap: true, outputCap: 2000 })).max_output_tokens,
    ).toBe(2000);
    expect(
      encodeResponsesRequest(canonical({}), context({ enforceCap: true, outputCap: 4 })).max_output_tokens,
    ).toBe(16);
    expect(encodeResponsesRequest(canonical({}), context()).max_output_tokens).toBeUndefined();
    expect(
      encodeResponsesRequest(canonical({ maxTokens: 300 }), context({ enforceCap: true })).max_output_tokens,
    ).toBe(300);
  });

  it('asks a reasoning model for its effort, a summary when summarized, and its encrypted reasoning', () => {
    const reasoning = {
      mode: 'on' as const,
      effort: 'low' as const,
      budgetTokens: null,
      display: 'summarized' as const,
    };
    const body = encodeResponsesRequest(canonical({ reasoning }), context());
    expect(body.reasoning).toEqual({ effort: 'low', summary: 'auto' });
    expect(body.include).toEqual(['reasoning.encrypted_content']);
    const dropped: string[] = [];
    const plain = encodeResponsesRequest(canonical({ reasoning }), context({ model: 'gpt-4o', dropped }));
    expect([plain.reasoning, plain.include, dropped]).toEqual([undefined, undefined, ['reasoning']]);
  });

  it('writes the JSON schema format, the cache key for OpenAI only, and names cache breakpoints it drops', () => {
    const format = { type: 'json_schema' as const, name: 'a', schema: { type: 'object' }, strict: true };
    expect(encodeResponsesRequest(canonical({ responseFormat: format }), context()).text).toEqual({
      format: { type: 'json_schema', name: 'a', schema: { type: 'object' }, strict: true },
    });
    expect(encodeResponsesRequest(canonical({ promptCacheKey: 'k' }), context()).prompt_cache_key).toBe('k');
    const dropped: string[] = [];
    const azure = encodeResponsesRequest(
      canonical({ promptCacheKey: 'k', system: [{ type: 'text', text: 's', cache: { ttl: '5m' } }] }),
      context({ providerId: 'azure', dropped }),
    );
    expect([azure.prompt_cache_key, dropped]).toEqual([undefined, ['cache_control', 'prompt_cache_key']]);
  });

  it('refuses what the Responses API cannot take: top_k, stop sequences, several choices', () => {
    expect(() => encodeResponsesRequest(canonical({ topK: 5 }), context())).toThrow(/top_k/);
    expect(() => encodeResponsesRequest(canonical({ stop: ['x'] }), context())).toThrow(/stop/);
    expect(() => encodeResponsesRequest(canonical({ n: 2 }), context())).toThrow(/'n'/);
  });
});
