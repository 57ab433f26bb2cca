import { describe, expect, it } from 'vitest';
import { promptTokens } from '../../workers/mock-llm/src/text';
import { parseSse, postAnthropic, USER_HELLO } from './helpers';

interface Message {
  id: string;
  type: string;
  role: string;
  model: string;
  content: (
    | { type: 'text'; text: string }
    | { type: 'tool_use'; id: string; name: string; input: unknown }
  )[];
  stop_reason: string;
  stop_sequence: null;
  usage: { input_tokens: number; output_tokens: number };
}

async function message(body: Record<string, unknown>): Promise<Message> {
  const res = await postAnthropic('/v1/messages', body);
  expect(res.status).toBe(200);
  return (await res.json()) as Message;
}

/** Events of a stream as [name, parsed data] pairs. */
async function streamEvents(body: Record<string, unknown>): Promise<[string, Record<string, unknown>][]> {
  const res = await postAnthropic('/v1/messages', { ...body, stream: true });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return parseSse(await res.text()).map((e) => [
    e.event ?? '',
    JSON.parse(e.data) as Record<string, unknown>,
  ]);
}

const BASE = { model: 'claude-mock', max_tokens: 1024, messages: USER_HELLO };

describe('POST /v1/messages (JSON)', () => {
  it('returns a message with generated text and usage by the documented rule', async () => {
    const body = await message(BASE);
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-mock',
      stop_reason: 'end_turn',
      stop_sequence: null,
    });
    expect(body.id).toMatch(/^msg_01[A-Za-z0-9]{22}$/);
    expect(body.content).toHaveLength(1);
    const block = body.content[0]!;
    expect(block.type).toBe('text');
    expect(block.type === 'text' && block.text.split(' ')).toHaveLength(16);
    expect(body.usage).toMatchObject({ input_tokens: 12, output_tokens: 16 });
  });

  it('gives the same words as the OpenAI route for the same model and messages', async () => {
    const anthropic = await message({ ...BASE, model: 'mock-small' });
    const openai = await (
      await postAnthropic(
        '/v1/chat/completions',
        { model: 'mock-small', messages: USER_HELLO },
        { authorization: 'Bearer k' },
      )
    ).json();
    const text = anthropic.content[0]!.type === 'text' ? anthropic.content[0]!.text : '';
    expect(text).toBe(
      (openai as { choices: { message: { content: string } }[] }).choices[0]!.message.content,
    );
  });

  it('counts a system prompt (string or blocks) as one more message in input_tokens', async () => {
    const system = 'You are a test.';
    const withString = await message({ ...BASE, system });
    const withBlocks = await message({ ...BASE, system: [{ type: 'text', text: system }] });
    const expected = promptTokens([{ content: system }, ...USER_HELLO]);
    expect(withString.usage.input_tokens).toBe(expected);
    expect(withBlocks.usage.input_tokens).toBe(expected);
  });

  it('echoes the last user message and truncates at max_tokens with stop_reason "max_tokens"', async () => {
    const messages = [{ role: 'user', content: [{ type: 'text', text: 'alpha beta gamma' }] }];
    const full = await message({ model: 'echo', max_tokens: 10, messages });
    expect(full.content).toEqual([{ type: 'text', text: 'alpha beta gamma' }]);
    expect(full.stop_reason).toBe('end_turn');
    const cut = await message({ model: 'echo', max_tokens: 2, messages });
    expect(cut.content).toEqual([{ type: 'text', text: 'alpha beta' }]);
    expect(cut.stop_reason).toBe('max_tokens');
    expect(cut.usage.output_tokens).toBe(2);
  });

  it('answers with a tool_use block for the first tool when mock.tool_call is set', async () => {
    const tools = [{ name: 'lookup', input_schema: { type: 'object' } }];
    const body = await message({ ...BASE, tools, mock: { tool_call: true } });
    expect(body.stop_reason).toBe('tool_use');
    expect(body.content).toEqual([
      {
        type: 'tool_use',
        id: expect.stringMatching(/^toolu_01/),
        name: 'lookup',
        input: {},
        caller: { type: 'direct' },
      },
    ]);
    expect(body.usage.output_tokens).toBe(8);
  });

  it('is deterministic: same request, same id and text', async () => {
    const [a, b] = await Promise.all([message(BASE), message(BASE)]);
    expect(a.id).toBe(b.id);
    expect(a.content).toEqual(b.content);
  });
});

describe('POST /v1/messages (stream)', () => {
  it('emits the real event order with input_tokens in message_start and output_tokens in message_delta', async () => {
    const events = await streamEvents({ ...BASE, mock: { tokens: 3 } });
    expect(events.map(([name]) => name)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const [name, data] of events) expect(data.type).toBe(name);
    const start = events[0]![1] as {
      message: { id: string; content: unknown[]; stop_reason: null; usage: { input_tokens: number } };
    };
    expect(start.message).toMatchObject({ content: [], stop_reason: null, usage: { input_tokens: 12 } });
    expect(events[1]![1]).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    });
    expect(events[7]![1]).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 3 },
    });
    const json = await message({ ...BASE, mock: { tokens: 3 } });
    expect(start.message.id).toBe(json.id);
    const text = events
      .filter(([name]) => name === 'content_block_delta')
      .map(([, data]) => (data.delta as { type: string; text: string }).text)
      .join('');
    expect(text).toBe(json.content[0]!.type === 'text' ? json.content[0]!.text : null);
  });

  it('reports stop_reason "max_tokens" in message_delta when truncated', async () => {
    const events = await streamEvents({ ...BASE, max_tokens: 2 });
    expect(events.filter(([name]) => name === 'content_block_delta')).toHaveLength(2);
    expect(events.find(([name]) => name === 'message_delta')![1]).toMatchObject({
      delta: { stop_reason: 'max_tokens' },
      usage: { output_tokens: 2 },
    });
  });

  it('streams a tool_use block with an input_json_delta', async () => {
    const events = await streamEvents({
      ...BASE,
      tools: [{ name: 'lookup', input_schema: {} }],
      mock: { tool_call: true },
    });
    expect(events[1]![1]).toMatchObject({ content_block: { type: 'tool_use', name: 'lookup', input: {} } });
    expect(events[3]![1]).toEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json: '{}' },
    });
    expect(events.find(([name]) => name === 'message_delta')![1]).toMatchObject({
      delta: { stop_reason: 'tool_use' },
      usage: { output_tokens: 8 },
    });
  });
});

describe('POST /v1/messages/count_tokens', () => {
  it('returns input_tokens by the same rule, without requiring max_tokens', async () => {
    const res = await postAnthropic('/v1/messages/count_tokens', {
      model: 'claude-mock',
      messages: USER_HELLO,
    });
    expect(await res.json()).toEqual({ input_tokens: 12 });
  });
});
