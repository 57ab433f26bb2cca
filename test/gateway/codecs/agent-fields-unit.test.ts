/**
 * The fields agents send on every call, across formats: what Claude Code sends reaches an
 * OpenAI-format model, reasoning and its signatures survive a round trip through another
 * format byte for byte, cache breakpoints keep their places, structured output reaches Claude,
 * and whatever only tunes the provider is dropped and named.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicClient, anthropicUpstream } from '../../../src/codecs/anthropic/index';
import { JSON_ANSWER_TOOL } from '../../../src/codecs/json-answer';
import type { EncodeContext, StreamDecoder, StreamEncoder } from '../../../src/codecs/codec';
import type { ChatResponse, StreamEvent } from '../../../src/codecs/ir';
import { openAiClient, openAiUpstream } from '../../../src/codecs/openai/index';
import claudeCode from './fixtures/claude-code-request.json';
import { canonicalRequest } from './fixtures/canonical';

import type { Loose } from '../answer-helpers';

const ctx = (model: string, providerId = 'acme'): EncodeContext => ({
  model,
  providerId,
  outputCap: 4096,
  enforceCap: false,
  dropped: [],
});

const signature = fc.string({ minLength: 1, maxLength: 200, unit: 'binary' });
const thought = fc.string({ maxLength: 80, unit: 'grapheme' });

describe("Claude Code's request on an OpenAI-format model", () => {
  const decoded = anthropicClient.decodeRequest(claudeCode.body as Loose);

  it('reads every field Claude Code sends: thinking, effort, context edits, system turns, cache breakpoints', () => {
    expect(decoded.reasoning).toEqual({ mode: 'on', effort: 'high', budgetTokens: null, display: 'omitted' });
    expect(decoded.dropped).toEqual(expect.arrayContaining(['context_management', 'tools.defer_loading']));
    expect(decoded.messages.map((m) => m.role)).toEqual(['user', 'system', 'assistant', 'user']);
    expect(decoded.system.filter((p) => p.cache)).toHaveLength(2);
    expect(decoded.tools.map((t) => t.name)).not.toContain('DeferredToolPlaceholder');
  });

  it('becomes an OpenAI body with the system turn in place, and the reasoning dropped for a model without it', () => {
    const context = ctx('echo');
    const body = openAiUpstream.encodeRequest(decoded, context) as Loose;
    const roles = body.messages.map((m: Loose) => m.role);
    expect(roles).toEqual(['system', 'user', 'system', 'assistant', 'tool']);
    expect(body.reasoning_effort).toBeUndefined();
    expect(context.dropped).toEqual(expect.arrayContaining(['cache_control', 'reasoning']));
    // The thinking block Anthropic signed does not reach OpenAI; the tool call does.
    expect(body.messages[3]).toMatchObject({
      role: 'assistant',
      tool_calls: [{ function: { name: 'Write' } }],
    });
    expect(JSON.stringify(body)).not.toContain('sig123');
  });

  it('asks a reasoning model for the effort Claude Code named', () => {
    const context = ctx('o4-mini', 'openai');
    const body = openAiUpstream.encodeRequest(decoded, context) as Loose;
    expect(body.reasoning_effort).toBe('high');
    expect(context.dropped).not.toContain('reasoning');
  });

  it('treats thinking disabled as a no-op, and refuses a thinking type that does not exist', () => {
    const off = anthropicClient.decodeRequest({ ...baseMessages(), thinking: { type: 'disabled' } });
    const context = ctx('gpt-4o');
    const body = openAiUpstream.encodeRequest(off, context) as Loose;
    expect(body.reasoning_effort).toBeUndefined();
    expect(context.dropped).toEqual([]);
    expect(() =>
      anthropicClient.decodeRequest({ ...baseMessages(), thinking: { type: 'sometimes' } }),
    ).toThrow(/thinking\.type/);
  });
});

function baseMessages(): Loose {
  return { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] };
}

describe('reasoning from an OpenAI client to Claude', () => {
  it('becomes thinking with a budget below max_tokens, or is dropped when none fits', () => {
    const request = openAiClient.decodeRequest({
      model: 'm',
      max_completion_tokens: 20_000,
      reasoning_effort: 'medium',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(anthropicUpstream.encodeRequest(request, ctx('claude-sonnet-4-5')).thinking).toEqual({
      type: 'enabled',
      budget_tokens: 8192,
    });
    const small = { ...request, maxTokens: 500 };
    const context = ctx('claude-sonnet-4-5');
    expect(anthropicUpstream.encodeRequest(small, context).thinking).toBeUndefined();
    expect(context.dropped).toEqual(['reasoning']);
  });
});

describe("Anthropic's rules for thinking, met instead of refused", () => {
  const ask = (over: Loose) =>
    openAiClient.decodeRequest({
      model: 'm',
      max_completion_tokens: 20_000,
      reasoning_effort: 'low',
      messages: [{ role: 'user', content: 'hi' }],
      ...over,
    });

  it('drops and names the sampling settings thinking does not take; keeps those it does', () => {
    const context = ctx('claude-sonnet-4-5');
    const body = anthropicUpstream.encodeRequest(ask({ temperature: 0.2, top_p: 0.5 }), context) as Loose;
    expect(body.thinking).toMatchObject({ type: 'enabled' });
    expect(body.temperature).toBeUndefined();
    expect(body.top_p).toBeUndefined();
    expect(context.dropped).toEqual(['temperature', 'top_p']);
    const kept = anthropicUpstream.encodeRequest(
      ask({ temperature: 1, top_p: 0.97 }),
      ctx('claude-sonnet-4-5'),
    );
    expect(kept).toMatchObject({ temperature: 1, top_p: 0.97 });
  });

  it('leaves the sampling settings alone without thinking', () => {
    const body = anthropicUpstream.encodeRequest(
      ask({ reasoning_effort: undefined, temperature: 0.2 }),
      ctx('c'),
    );
    expect(body.temperature).toBe(0.2);
  });

  it('drops the reasoning beside a forced tool choice, or when the tool turn it continues has no Anthropic thinking', () => {
    const tools = [{ type: 'function', function: { name: 't', parameters: { type: 'object' } } }];
    const forced = ctx('claude-sonnet-4-5');
    expect(
      anthropicUpstream.encodeRequest(ask({ tools, tool_choice: 'required' }), forced).thinking,
    ).toBeUndefined();
    expect(forced.dropped).toEqual(['reasoning']);
    const history = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 't', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ];
    const unsigned = ctx('claude-sonnet-4-5');
    expect(
      anthropicUpstream.encodeRequest(ask({ tools, messages: history }), unsigned).thinking,
    ).toBeUndefined();
    expect(unsigned.dropped).toEqual(['reasoning']);
    const signed = history.map((m) =>
      m.role === 'assistant'
        ? {
            ...m,
            reasoning_details: [
              { type: 'reasoning.text', text: 'x', signature: 's', format: 'anthropic-claude-v1' },
            ],
          }
        : m,
    );
    expect(
      anthropicUpstream.encodeRequest(ask({ tools, messages: signed }), ctx('c')).thinking,
    ).toMatchObject({
      type: 'enabled',
    });
  });
});

/** An Anthropic answer with thinking (signed), redacted thinking and a tool call. */
function anthropicAnswer(text: string, sig: string, redacted: string): Loose {
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude',
    content: [
      { type: 'thinking', thinking: text, signature: sig },
      { type: 'redacted_thinking', data: redacted },
      { type: 'tool_use', id: 'toolu_1', name: 'Write', input: { a: 1 } },
    ],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 5, output_tokens: 7 },
  };
}

describe('signatures round trip through an OpenAI client byte for byte', () => {
  it('Anthropic answer → OpenAI client → next turn → Anthropic body carries the same thinking blocks', () => {
    fc.assert(
      fc.property(thought, signature, signature, (text, sig, redacted) => {
        const answer = openAiClient.encodeResponse(
          anthropicUpstream.decodeResponse(anthropicAnswer(text, sig, redacted)),
        );
        const message = (answer.choices as Loose[])[0]?.message as Loose;
        expect(message.reasoning_details[0]).toMatchObject({ signature: sig, format: 'anthropic-claude-v1' });
        // The client sends the assistant message back as it got it (JSON on the wire), with the tool's result.
        const next = openAiClient.decodeRequest(
          JSON.parse(
            JSON.stringify({
              model: 'm',
              messages: [
                { role: 'user', content: 'go' },
                message,
                { role: 'tool', tool_call_id: 'toolu_1', content: 'ok' },
              ],
            }),
          ),
        );
        const body = anthropicUpstream.encodeRequest(next, ctx('claude-sonnet-4-5')) as Loose;
        expect(body.messages[1].content.slice(0, 2)).toEqual([
          { type: 'thinking', thinking: text, signature: sig },
          { type: 'redacted_thinking', data: redacted },
        ]);
      }),
      { numRuns: 200 },
    );
  });

  it('a signature another format issued reaches an Anthropic client wrapped, and comes back unwrapped to its issuer', () => {
    fc.assert(
      fc.property(thought, signature, (text, sig) => {
        const response: ChatResponse = {
          id: 'x',
          model: 'gemini',
          created: 0,
          content: [
            { type: 'reasoning', text, signature: sig, issuer: 'gemini' },
            { type: 'text', text: 'hi' },
          ],
          finish: 'end',
          stopSequence: null,
          usage: null,
        };
        const block = (anthropicClient.encodeResponse(response).content as Loose[])[0];
        expect(block).toEqual({ type: 'thinking', thinking: text, signature: `edgeway:gemini:${sig}` });
        const back = anthropicClient.decodeRequest({
          ...baseMessages(),
          messages: [
            { role: 'user', content: 'a' },
            { role: 'assistant', content: [block] },
            { role: 'user', content: 'b' },
          ],
        });
        expect(back.messages[1]?.content[0]).toEqual({
          type: 'reasoning',
          text,
          signature: sig,
          issuer: 'gemini',
        });
        // …and Anthropic itself is never sent what it cannot verify.
        const body = anthropicUpstream.encodeRequest(back, ctx('claude-sonnet-4-5')) as Loose;
        expect(JSON.stringify(body.messages)).not.toContain('thinking');
      }),
      { numRuns: 200 },
    );
  });
});

/** Frames of one stream translated event by event: decoder of one format, encoder of another. */
function translateStream(
  events: { event: string | null; data: string }[],
  decoder: StreamDecoder,
  encoder: StreamEncoder,
): Loose[] {
  const out: Loose[] = [];
  for (const e of events) {
    const decoded = decoder.decode(e);
    if (decoded === 'malformed') throw new Error(`malformed: ${e.data}`);
    for (const ev of decoded as StreamEvent[]) for (const f of encoder.encode(ev)) out.push(f as Loose);
  }
  return out;
}

const sse = (type: string, data: Loose) => ({ event: type, data: JSON.stringify({ type, ...data }) });

describe('streamed reasoning across formats', () => {
  it('Anthropic thinking and its signature reach an OpenAI client as reasoning_content and one reasoning_details item', () => {
    const frames = translateStream(
      [
        sse('message_start', {
          message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 3, output_tokens: 1 } },
        }),
        sse('content_block_start', {
          index: 0,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        }),
        sse('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'Let me ' } }),
        sse('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'think.' } }),
        sse('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'EqQBsig==' } }),
        sse('content_block_stop', { index: 0 }),
        sse('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
        sse('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'Hi' } }),
        sse('content_block_stop', { index: 1 }),
        sse('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } }),
        sse('message_stop', {}),
      ],
      anthropicUpstream.streamDecoder(),
      openAiClient.streamEncoder({ includeUsage: false }),
    );
    const deltas = frames.flatMap((f) =>
      f.data === '[DONE]' ? [] : (f.data.choices as Loose[]).map((c) => c.delta),
    );
    expect(deltas.flatMap((d) => (d.reasoning_content ? [d.reasoning_content] : [])).join('')).toBe(
      'Let me think.',
    );
    expect(deltas.flatMap((d) => d.reasoning_details ?? [])).toEqual([
      {
        type: 'reasoning.text',
        text: 'Let me think.',
        signature: 'EqQBsig==',
        format: 'anthropic-claude-v1',
        index: 0,
      },
    ]);
    expect(deltas.flatMap((d) => (d.content ? [d.content] : [])).join('')).toBe('Hi');
  });

  it("an OpenAI-compatible provider's reasoning_content reaches an Anthropic client as a thinking block before the text", () => {
    const chunk = (delta: Loose, finish: string | null = null) => ({
      event: null,
      data: JSON.stringify({ id: 'c1', model: 'r1', choices: [{ index: 0, delta, finish_reason: finish }] }),
    });
    const frames = translateStream(
      [
        chunk({ role: 'assistant', reasoning_content: 'Hmm. ' }),
        chunk({ reasoning_content: 'Yes.' }),
        chunk({ content: 'Done' }),
        chunk({}, 'stop'),
        { event: null, data: '[DONE]' },
      ],
      openAiUpstream.streamDecoder(),
      anthropicClient.streamEncoder({ includeUsage: true }),
    );
    const starts = frames
      .filter((f) => f.event === 'content_block_start')
      .map((f) => f.data.content_block.type);
    expect(starts).toEqual(['thinking', 'text']);
    const thinking = frames
      .filter((f) => f.event === 'content_block_delta' && f.data.delta.type === 'thinking_delta')
      .map((f) => f.data.delta.thinking)
      .join('');
    expect(thinking).toBe('Hmm. Yes.');
    expect(frames.at(-1)?.event).toBe('message_stop');
  });
});

/** A cache_control value, or none. */
const control = fc.constantFrom(undefined, { type: 'ephemeral' }, { type: 'ephemeral', ttl: '1h' });
const withControl = (block: Loose, c: Loose | undefined) => (c ? { ...block, cache_control: c } : block);
/** An Anthropic request whose system blocks, tools, texts and tool results each may carry a breakpoint. */
const cachedRequest = fc
  .record({
    system: fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), control), { maxLength: 3 }),
    tools: fc.array(control, { maxLength: 2 }),
    texts: fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), control), {
      minLength: 1,
      maxLength: 3,
    }),
    result: control,
  })
  .map(({ system, tools, texts, result }) => ({
    model: 'm',
    max_tokens: 100,
    ...(system.length ? { system: system.map(([text, c]) => withControl({ type: 'text', text }, c)) } : {}),
    ...(tools.length
      ? { tools: tools.map((c, i) => withControl({ name: `t${i}`, input_schema: { type: 'object' } }, c)) }
      : {}),
    messages: [
      { role: 'user', content: texts.map(([text, c]) => withControl({ type: 'text', text }, c)) },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 't0', input: {} }] },
      {
        role: 'user',
        content: [
          withControl(
            { type: 'tool_result', tool_use_id: 'x', content: [{ type: 'text', text: 'r' }] },
            result,
          ),
        ],
      },
    ],
  }));

describe('cache breakpoints', () => {
  it('any placement of breakpoints survives the canonical exchange, ttl included', () => {
    fc.assert(
      fc.property(cachedRequest, (body) => {
        const again = anthropicUpstream.encodeRequest(anthropicClient.decodeRequest(body), ctx('m')) as Loose;
        const marks = (b: Loose) => [
          ...(b.system ?? []).map((x: Loose) => x.cache_control),
          ...(b.tools ?? []).map((x: Loose) => x.cache_control),
          ...b.messages.flatMap((m: Loose) => m.content.map((x: Loose) => x.cache_control)),
        ];
        expect(marks(again)).toEqual(marks(body));
      }),
      { numRuns: 300 },
    );
  });

  it('an Anthropic request read and written again keeps every breakpoint and its ttl in place', () => {
    const body = {
      model: 'm',
      max_tokens: 100,
      system: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b', cache_control: { type: 'ephemeral', ttl: '1h' } },
      ],
      tools: [{ name: 't', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'q', cache_control: { type: 'ephemeral' } }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 't', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'x', content: 'r', cache_control: { type: 'ephemeral' } },
          ],
        },
      ],
    };
    const again = anthropicUpstream.encodeRequest(anthropicClient.decodeRequest(body), ctx('m')) as Loose;
    expect(again.system).toEqual(body.system);
    expect(again.tools[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(again.messages[0].content[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(again.messages[2].content[0].cache_control).toEqual({ type: 'ephemeral' });
  });

  it("an OpenAI client's cache_control on content parts (the OpenRouter convention) reaches Claude", () => {
    const request = openAiClient.decodeRequest({
      model: 'm',
      messages: [
        {
          role: 'system',
          content: [{ type: 'text', text: 'long', cache_control: { type: 'ephemeral', ttl: '1h' } }],
        },
        { role: 'user', content: [{ type: 'text', text: 'q', cache_control: { type: 'ephemeral' } }] },
      ],
    });
    const body = anthropicUpstream.encodeRequest(request, ctx('claude-sonnet-4-5')) as Loose;
    expect(body.system).toEqual([
      { type: 'text', text: 'long', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ]);
    expect(body.messages[0].content[0].cache_control).toEqual({ type: 'ephemeral' });
  });

  it('prompt_cache_key reaches OpenAI itself, and is dropped and named elsewhere', () => {
    const request = canonicalRequest({ promptCacheKey: 'k1' });
    expect(openAiUpstream.encodeRequest(request, ctx('gpt-4o', 'openai')).prompt_cache_key).toBe('k1');
    const context = ctx('llama', 'groq');
    expect(openAiUpstream.encodeRequest(request, context).prompt_cache_key).toBeUndefined();
    expect(context.dropped).toEqual(['prompt_cache_key']);
  });
});

describe('structured output to Claude', () => {
  const schema = {
    type: 'object',
    properties: { name: { type: 'string' }, age: { type: 'integer' } },
    required: ['name', 'age'],
    additionalProperties: false,
  };
  const request = openAiClient.decodeRequest({
    model: 'm',
    messages: [{ role: 'user', content: 'who?' }],
    response_format: { type: 'json_schema', json_schema: { name: 'person', schema, strict: true } },
  });

  it('is output_config.format on models that have it', () => {
    const body = anthropicUpstream.encodeRequest(request, ctx('claude-sonnet-4-5')) as Loose;
    expect(body.output_config).toEqual({ format: { type: 'json_schema', schema } });
    expect(body.tools).toBeUndefined();
  });

  it('is a forced tool on older models, whose call comes back as the JSON text', () => {
    const body = anthropicUpstream.encodeRequest(request, ctx('claude-3-5-haiku-latest')) as Loose;
    expect(body.tool_choice).toEqual({ type: 'tool', name: JSON_ANSWER_TOOL });
    const answer = anthropicUpstream.decodeResponse({
      id: 'm1',
      model: 'claude-3-5-haiku',
      content: [{ type: 'tool_use', id: 't', name: JSON_ANSWER_TOOL, input: { name: 'Ada', age: 36 } }],
      stop_reason: 'tool_use',
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    const message = (openAiClient.encodeResponse(answer).choices as Loose[])[0];
    expect(JSON.parse(message.message.content)).toEqual({ name: 'Ada', age: 36 });
    expect(message.finish_reason).toBe('stop');
    expect(message.message.tool_calls).toBeUndefined();
  });

  it('streams the forced tool as text', () => {
    const frames = translateStream(
      [
        sse('message_start', { message: { id: 'm', model: 'c' } }),
        sse('content_block_start', {
          index: 0,
          content_block: { type: 'tool_use', id: 't', name: JSON_ANSWER_TOOL, input: {} },
        }),
        sse('content_block_delta', {
          index: 0,
          delta: { type: 'input_json_delta', partial_json: '{"name":' },
        }),
        sse('content_block_delta', {
          index: 0,
          delta: { type: 'input_json_delta', partial_json: '"Ada","age":36}' },
        }),
        sse('content_block_stop', { index: 0 }),
        sse('message_delta', { delta: { stop_reason: 'tool_use' } }),
        sse('message_stop', {}),
      ],
      anthropicUpstream.streamDecoder(),
      openAiClient.streamEncoder({ includeUsage: false }),
    );
    const choices = frames.flatMap((f) => (f.data === '[DONE]' ? [] : (f.data.choices as Loose[])));
    expect(JSON.parse(choices.map((c) => c.delta.content ?? '').join(''))).toEqual({ name: 'Ada', age: 36 });
    expect(choices.some((c) => c.delta.tool_calls)).toBe(false);
    expect(choices.at(-1)?.finish_reason).toBe('stop');
  });

  it("an Anthropic client's output_config.format reaches an OpenAI model as response_format, strict when the schema is", () => {
    const decoded = anthropicClient.decodeRequest({
      ...baseMessages(),
      output_config: { format: { type: 'json_schema', schema } },
    });
    const body = openAiUpstream.encodeRequest(decoded, ctx('gpt-4o')) as Loose;
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema, strict: true },
    });
    const loose = anthropicClient.decodeRequest({
      ...baseMessages(),
      output_config: {
        format: { type: 'json_schema', schema: { type: 'object', properties: { a: { type: 'string' } } } },
      },
    });
    expect(
      (openAiUpstream.encodeRequest(loose, ctx('gpt-4o')) as Loose).response_format.json_schema.strict,
    ).toBe(false);
  });
});

describe('what only tunes the provider is dropped and named; what changes the answer is refused', () => {
  it('names dropped OpenAI fields', () => {
    const r = openAiClient.decodeRequest({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      store: true,
      verbosity: 'low',
      seed: 3,
    });
    expect(r.dropped).toEqual(['store', 'verbosity', 'seed']);
  });

  it('keeps refusing what would change the answer', () => {
    expect(() => openAiClient.decodeRequest({ model: 'm', messages: [], logprobs: true })).toThrow(
      /logprobs/,
    );
    expect(() => anthropicClient.decodeRequest({ ...baseMessages(), mcp_servers: [] })).toThrow(
      /mcp_servers/,
    );
    expect(() =>
      anthropicClient.decodeRequest({ ...baseMessages(), output_config: { task_budget: 1 } }),
    ).toThrow(/output_config\.task_budget/);
  });
});
