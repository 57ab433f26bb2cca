import { describe, expect, it } from 'vitest';
import { promptTokens } from '../../workers/mock-llm/src/text';
import { SELF } from 'cloudflare:test';
import { BASE, postOpenAI } from './helpers';
import {
  create,
  createStream,
  expectWellFormed,
  finalResponse,
  type Json,
  messageText,
  RESPONSE_KEYS,
  rejected,
  types,
} from './responses-helpers';

const HELLO = 'Hello there, mock.';
const WEATHER = {
  type: 'function',
  name: 'get_weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const PATCH = { type: 'custom', name: 'apply_patch', description: 'Apply a patch' };

type Item = Json & { type: string };
const output = (response: Json): Item[] => response.output as Item[];

describe('POST /v1/responses (JSON)', () => {
  it('answers a response object with the published fields, a message item and usage by the prompt rule', async () => {
    const res = await postOpenAI('/v1/responses', { model: 'echo', input: HELLO });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const body = (await res.json()) as Json;
    expect(Object.keys(body).sort()).toEqual([...RESPONSE_KEYS].sort());
    expect(body).toMatchObject({
      object: 'response',
      status: 'completed',
      error: null,
      incomplete_details: null,
      model: 'echo',
      store: true,
      previous_response_id: null,
      reasoning: { effort: null, summary: null },
      text: { format: { type: 'text' } },
      tool_choice: 'auto',
      tools: [],
      truncation: 'disabled',
      metadata: {},
    });
    expect(body.id).toMatch(/^resp_[A-Za-z0-9]{48}$/);
    expect(body.completed_at).toBe(body.created_at);
    const [message] = output(body);
    expect(message).toEqual({
      id: expect.stringMatching(/^msg_/),
      type: 'message',
      status: 'completed',
      content: [{ type: 'output_text', annotations: [], logprobs: [], text: HELLO }],
      role: 'assistant',
    });
    const prompt = promptTokens([{ role: 'user', content: HELLO }]);
    expect(body.usage).toEqual({
      input_tokens: prompt,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 3,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: prompt + 3,
    });
  });

  it('counts instructions as a system message and echoes them; generated models say 16 words', async () => {
    const body = await create({ model: 'mock-small', instructions: 'Be brief.', input: HELLO });
    expect(body.instructions).toBe('Be brief.');
    const text = messageText(body);
    expect(text.split(' ')).toHaveLength(16);
    expect((body.usage as Json).input_tokens).toBe(
      promptTokens([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: HELLO },
      ]),
    );
  });

  it('reads message items with input_text parts, and the same request gets the same id', async () => {
    const input = [
      { role: 'developer', content: 'You are terse.' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Echo me' }] },
    ];
    const a = await create({ model: 'echo', input });
    const b = await create({ model: 'echo', input });
    expect(a.id).toBe(b.id);
    expect(messageText(a)).toBe('Echo me');
  });

  it('answers text.format json_schema with a document of the schema', async () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 3 } },
      required: ['name', 'age'],
      additionalProperties: false,
    };
    const body = await create({
      model: 'mock-small',
      input: HELLO,
      text: { format: { type: 'json_schema', name: 'person', schema, strict: true } },
    });
    const text = messageText(body);
    expect(JSON.parse(text)).toEqual({ name: 'string', age: 3 });
    expect(body.text).toEqual({
      format: { type: 'json_schema', name: 'person', schema, strict: true },
      verbosity: 'medium',
    });
  });

  it('stops at max_output_tokens with status incomplete and incomplete_details', async () => {
    const body = await create({
      model: 'mock-small',
      input: HELLO,
      max_output_tokens: 16,
      mock: { tokens: 40 },
    });
    expect(body).toMatchObject({
      status: 'incomplete',
      completed_at: null,
      incomplete_details: { reason: 'max_output_tokens' },
      max_output_tokens: 16,
    });
    expect(output(body)[0]).toMatchObject({ type: 'message', status: 'incomplete' });
    expect((body.usage as Json).output_tokens).toBe(16);
  });
});

describe('POST /v1/responses tools', () => {
  it('calls a function tool from a TOOL directive in the last user turn', async () => {
    const body = await create({
      model: 'echo',
      input: 'Please\nTOOL get_weather {"city":"Paris"}',
      tools: [
        WEATHER,
        { type: 'web_search' },
        { type: 'namespace', name: 'mcp', description: 'd', tools: [] },
      ],
    });
    expect(output(body)).toEqual([
      {
        id: expect.stringMatching(/^fc_/),
        type: 'function_call',
        status: 'completed',
        arguments: '{"city":"Paris"}',
        call_id: expect.stringMatching(/^call_/),
        name: 'get_weather',
      },
    ]);
    expect((body.usage as Json).output_tokens).toBe(8);
  });

  it('calls a custom tool with a free-form input', async () => {
    const body = await create({
      model: 'echo',
      input: 'TOOL apply_patch {"input":"*** Begin Patch"}',
      tools: [PATCH],
    });
    expect(output(body)).toEqual([
      {
        id: expect.stringMatching(/^ctc_/),
        type: 'custom_tool_call',
        call_id: expect.stringMatching(/^call_/),
        input: '*** Begin Patch',
        name: 'apply_patch',
      },
    ]);
  });

  it('calls a function inside a namespace tool, naming the namespace', async () => {
    const body = await create({
      model: 'echo',
      input: 'TOOL lookup {"q":"x"}',
      tools: [
        {
          type: 'namespace',
          name: 'docs',
          description: 'Docs',
          tools: [{ type: 'function', name: 'lookup' }],
        },
      ],
    });
    expect(output(body)[0]).toMatchObject({ type: 'function_call', name: 'lookup', namespace: 'docs' });
  });

  it('forces the tool tool_choice names (arguments from its schema), required the first, none forbids calls', async () => {
    const named = await create({
      model: 'mock-small',
      input: HELLO,
      tools: [PATCH, WEATHER],
      tool_choice: { type: 'function', name: 'get_weather' },
    });
    expect(output(named)[0]).toMatchObject({
      type: 'function_call',
      name: 'get_weather',
      arguments: '{"city":"string"}',
    });
    const required = await create({
      model: 'mock-small',
      input: HELLO,
      tools: [PATCH, WEATHER],
      tool_choice: 'required',
    });
    expect(output(required)[0]).toMatchObject({
      type: 'custom_tool_call',
      name: 'apply_patch',
      input: 'string',
    });
    const none = await create({
      model: 'echo',
      input: 'TOOL get_weather {"city":"Paris"}',
      tools: [WEATHER],
      tool_choice: 'none',
    });
    expect(output(none)[0]?.type).toBe('message');
  });

  it('answers the tool output of a call earlier in the input', async () => {
    const body = await create({
      model: 'echo',
      input: [
        { role: 'user', content: 'TOOL get_weather {"city":"Paris"}' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
      tools: [WEATHER],
    });
    expect(messageText(body)).toBe('Tool result: sunny');
  });
});

describe('POST /v1/responses reasoning', () => {
  it('puts a reasoning item first for reasoning models, with summary text only when reasoning.summary is set', async () => {
    const plain = await create({ model: 'o4-mini', input: HELLO });
    expect(output(plain)[0]).toEqual({ id: expect.stringMatching(/^rs_/), type: 'reasoning', summary: [] });
    expect(plain.reasoning).toEqual({ effort: 'medium', summary: null });
    expect((plain.usage as Json).output_tokens_details).toEqual({ reasoning_tokens: 16 });

    const summarized = await create({
      model: 'gpt-5',
      input: HELLO,
      reasoning: { effort: 'low', summary: 'auto' },
    });
    const [reasoning, message] = output(summarized);
    const summary = reasoning?.summary as { type: string; text: string }[];
    expect(summary).toHaveLength(1);
    expect(summary[0]?.type).toBe('summary_text');
    expect(summary[0]?.text.split(' ')).toHaveLength(8);
    expect(reasoning).not.toHaveProperty('encrypted_content');
    expect(message?.type).toBe('message');
    expect((summarized.usage as Json).output_tokens).toBe(8 + 16);
  });

  it('gives encrypted_content only with include, accepts it back, and 400s when it was altered', async () => {
    const first = await create({
      model: 'o3',
      input: 'TOOL get_weather {"city":"Oslo"}',
      tools: [WEATHER],
      include: ['reasoning.encrypted_content'],
      store: false,
    });
    const [reasoning, call] = output(first);
    expect(reasoning?.encrypted_content).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const next = {
      model: 'o3',
      tools: [WEATHER],
      store: false,
      input: [
        { role: 'user', content: 'TOOL get_weather {"city":"Oslo"}' },
        reasoning,
        call,
        { type: 'function_call_output', call_id: call?.call_id, output: 'rain' },
      ],
    };
    const second = await create(next);
    expect(second.status).toBe('completed');

    const blob = reasoning?.encrypted_content as string;
    const tampered = `${blob.slice(0, 20)}${blob[20] === 'A' ? 'B' : 'A'}${blob.slice(21)}`;
    const error = await rejected({
      ...next,
      input: next.input.map((item) =>
        item === reasoning ? { ...reasoning, encrypted_content: tampered } : item,
      ),
    });
    expect(error).toEqual({
      message: `The encrypted content for item ${String(reasoning?.id)} could not be verified. Reason: Encrypted content could not be decrypted or parsed.`,
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_encrypted_content',
    });
  });

  it('refuses reasoning on a model that does not reason, as OpenAI does', async () => {
    expect(await rejected({ model: 'mock-small', input: HELLO, reasoning: { effort: 'low' } })).toEqual({
      message: "Unsupported parameter: 'reasoning.effort' is not supported with this model.",
      type: 'invalid_request_error',
      param: 'reasoning.effort',
      code: 'unsupported_parameter',
    });
  });
});

describe('POST /v1/responses validation', () => {
  it.each([
    [{ input: HELLO }, 'model', 'missing_required_parameter'],
    [{ model: 'echo' }, 'input', 'missing_required_parameter'],
    [{ model: 'echo', input: 3 }, 'input', 'invalid_type'],
    [{ model: 'echo', input: [{ type: 'bogus_item' }] }, 'input[0].type', 'invalid_value'],
    [{ model: 'echo', input: [{ role: 'robot', content: 'x' }] }, 'input[0].role', 'invalid_value'],
    [
      { model: 'echo', input: [{ role: 'assistant', content: [{ type: 'input_text', text: 'x' }] }] },
      'input[0].content[0].type',
      'invalid_value',
    ],
    [{ model: 'echo', input: HELLO, max_output_tokens: 15 }, 'max_output_tokens', 'integer_below_min_value'],
    [{ model: 'echo', input: HELLO, tools: [{ type: 'laser' }] }, 'tools[0].type', 'invalid_value'],
    [
      { model: 'echo', input: HELLO, tools: [{ type: 'function' }] },
      'tools[0].name',
      'missing_required_parameter',
    ],
    [{ model: 'echo', input: HELLO, include: ['everything'] }, 'include[0]', 'invalid_value'],
    [
      { model: 'echo', input: HELLO, text: { format: { type: 'json_schema', schema: {} } } },
      'text.format.name',
      'missing_required_parameter',
    ],
    [{ model: 'echo', input: HELLO, stream: 'yes' }, 'stream', 'invalid_type'],
    [{ model: 'echo', input: HELLO, mock: { nope: 1 } }, 'mock.nope', null],
  ])('400s %j naming %s', async (body, param, code) => {
    const error = await rejected(body);
    expect(error).toMatchObject({ type: 'invalid_request_error', param, code });
  });

  it('400s a function_call_output whose call_id has no function_call before it', async () => {
    const error = await rejected({
      model: 'echo',
      input: [
        { type: 'function_call_output', call_id: 'call_x', output: 'late' },
        { type: 'function_call', call_id: 'call_x', name: 'f', arguments: '{}' },
      ],
    });
    expect(error).toEqual({
      message: 'No tool call found for function call output with call_id call_x.',
      type: 'invalid_request_error',
      param: 'input',
      code: null,
    });
  });

  it('answers an unknown model with 404 model_not_found and a missing key with 401', async () => {
    const error = await rejected({ model: 'nope-1', input: HELLO }, 404);
    expect(error).toMatchObject({ code: 'model_not_found' });
    const res = await postOpenAI('/v1/responses', { model: 'echo', input: HELLO }, { authorization: '' });
    expect(res.status).toBe(401);
  });
});

describe('POST /v1/responses (stream)', () => {
  it('streams the semantic events with sequence numbers and ends with response.completed, no [DONE]', async () => {
    const events = await createStream({ model: 'echo', input: HELLO });
    expectWellFormed(events);
    expect(types(events)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const created = events[0]?.data.response as Json;
    expect(created).toMatchObject({ status: 'in_progress', output: [], usage: null });
    const deltas = events
      .filter((e) => e.data.type === 'response.output_text.delta')
      .map((e) => e.data.delta);
    expect(deltas.join('')).toBe(HELLO);
    const json = await create({ model: 'echo', input: HELLO });
    const final = finalResponse(events);
    expect(final.id).toBe(json.id);
    expect(final.output).toEqual(json.output);
    expect(final.usage).toEqual(json.usage);
    expect(events[2]?.data.item).toEqual({ ...output(json)[0], status: 'in_progress', content: [] });
  });

  it('streams reasoning summary deltas, then the function call arguments in one delta', async () => {
    const events = await createStream({
      model: 'o3',
      input: 'TOOL get_weather {"city":"Rome"}',
      tools: [WEATHER],
      reasoning: { effort: 'minimal', summary: 'detailed' },
      include: ['reasoning.encrypted_content'],
    });
    expectWellFormed(events);
    expect(types(events)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      ...Array(4).fill('response.reasoning_summary_text.delta'),
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const done = events
      .filter((e) => e.data.type === 'response.output_item.done')
      .map((e) => e.data.item as Item);
    expect(done[0]).toMatchObject({ type: 'reasoning', encrypted_content: expect.any(String) });
    expect(events[2]?.data.item).toEqual({ id: done[0]?.id, type: 'reasoning', summary: [] });
    expect(done[1]).toMatchObject({
      type: 'function_call',
      arguments: '{"city":"Rome"}',
      status: 'completed',
    });
    expect(finalResponse(events).output).toEqual(done);
  });

  it('streams a custom tool call input and ends an incomplete answer with response.incomplete', async () => {
    const custom = await createStream({
      model: 'echo',
      input: 'TOOL apply_patch {"input":"diff"}',
      tools: [PATCH],
    });
    expectWellFormed(custom);
    expect(types(custom).slice(2, -1)).toEqual([
      'response.output_item.added',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
    ]);
    const cut = await createStream({
      model: 'mock-small',
      input: HELLO,
      max_output_tokens: 16,
      mock: { tokens: 30 },
    });
    expectWellFormed(cut);
    expect(cut.at(-1)?.data).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
  });

  it('streams a summarized reasoning item, then the message, numbering every event in order', async () => {
    const events = await createStream({
      model: 'gpt-5-mini',
      input: HELLO,
      reasoning: { effort: 'low', summary: 'concise' },
    });
    expectWellFormed(events);
    const kinds = types(events);
    const firstText = kinds.indexOf('response.output_text.delta');
    expect(kinds.slice(firstText - 6, firstText)).toEqual([
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
    ]);
    const summary = events
      .filter((e) => e.data.type === 'response.reasoning_summary_text.delta')
      .map((e) => e.data.delta)
      .join('');
    const final = finalResponse(events);
    const reasoning = (final.output as Item[])[0];
    expect(reasoning?.summary).toEqual([{ type: 'summary_text', text: summary }]);
    expect(events.filter((e) => e.data.type === 'response.output_text.delta')).toHaveLength(16);
    expect((final.output as Item[]).map((item) => item.type)).toEqual(['reasoning', 'message']);
  });

  it('paces deltas with pace_ms and keeps the events well formed', async () => {
    const events = await createStream({ model: 'echo', input: HELLO, mock: { pace_ms: 1 } });
    expectWellFormed(events);
    expect(events.at(-1)?.data.type).toBe('response.completed');
  });

  it('leaves out obfuscation when stream_options.include_obfuscation is false', async () => {
    const events = await createStream({
      model: 'echo',
      input: HELLO,
      stream_options: { include_obfuscation: false },
    });
    const delta = events.find((e) => e.data.type === 'response.output_text.delta');
    expect(delta?.data).not.toHaveProperty('obfuscation');
  });
});

describe('prompt caching', () => {
  it('reports cached_tokens for a repeated prefix, scoped by prompt_cache_key', async () => {
    const long = 'cache me '.repeat(40);
    const body = {
      model: 'mock-small',
      input: long,
      prompt_cache_key: 'k-resp-1',
      mock: { cache_min_tokens: 32 },
    };
    await create(body);
    const again = await create(body);
    expect(((again.usage as Json).input_tokens_details as Json).cached_tokens).toBeGreaterThan(0);
    const other = await create({ ...body, prompt_cache_key: 'k-resp-2' });
    expect(((other.usage as Json).input_tokens_details as Json).cached_tokens).toBe(0);
  });
});

describe('Azure v1 responses route', () => {
  it('answers /openai/v1/responses with the api-key header and 404s an unknown deployment', async () => {
    const res = await postOpenAI(
      '/openai/v1/responses',
      { model: 'echo', input: HELLO },
      { authorization: '', 'api-key': 'az' },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('apim-request-id')).toBeTruthy();
    const created = (await res.json()) as Json;
    expect(created).toMatchObject({ object: 'response', model: 'echo' });
    // Stored under the key, whichever header carried it.
    const stored = await SELF.fetch(`${BASE}/openai/v1/responses/${String(created.id)}?api-version=preview`, {
      headers: { authorization: 'Bearer az' },
    });
    expect(await stored.json()).toEqual(created);
    const badVersion = await SELF.fetch(`${BASE}/openai/v1/responses/${String(created.id)}?api-version=v9`, {
      headers: { 'api-key': 'az' },
    });
    expect(badVersion.status).toBe(400);
    const missing = await postOpenAI(
      '/openai/v1/responses',
      { model: 'nope', input: HELLO },
      { authorization: '', 'api-key': 'az' },
    );
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'DeploymentNotFound' } });
  });
});
