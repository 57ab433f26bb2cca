import { describe, expect, it } from 'vitest';
import { parseSse, postAnthropic } from './helpers';

type Block = Record<string, unknown> & { type: string };
interface Message {
  content: Block[];
  stop_reason: string;
  usage: Record<string, number>;
}

const ask = (text: string) => [{ role: 'user', content: text }];

async function message(body: Record<string, unknown>, path = '/v1/messages'): Promise<Message> {
  const res = await postAnthropic(path, { model: 'claude-mock', max_tokens: 4096, ...body });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Message;
}

async function errorOf(body: Record<string, unknown>): Promise<string> {
  const res = await postAnthropic('/v1/messages', { model: 'claude-mock', max_tokens: 4096, ...body });
  expect(res.status).toBe(400);
  const json = (await res.json()) as { error: { type: string; message: string } };
  expect(json.error.type).toBe('invalid_request_error');
  return json.error.message;
}

describe('Messages: extended and adaptive thinking', () => {
  it('starts the answer with a signed thinking block whose words count in output_tokens', async () => {
    const plain = await message({ messages: ask('hi') });
    const body = await message({ messages: ask('hi'), thinking: { type: 'enabled', budget_tokens: 2048 } });
    const [thinking, text] = body.content as [Block, Block];
    expect(thinking.type).toBe('thinking');
    expect(String(thinking.thinking).split(' ')).toHaveLength(24);
    expect(thinking.signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(text).toEqual(plain.content[0]);
    expect(body.usage.output_tokens).toBe((plain.usage.output_tokens ?? 0) + 24);
  });

  it('thinks by effort with adaptive thinking, and returns "" with display omitted', async () => {
    const low = await message({
      messages: ask('hi'),
      thinking: { type: 'adaptive' },
      output_config: { effort: 'low' },
    });
    expect(String(low.content[0]?.thinking).split(' ')).toHaveLength(8);
    const omitted = await message({
      messages: ask('hi'),
      thinking: { type: 'adaptive', display: 'omitted' },
    });
    expect(omitted.content[0]).toMatchObject({ type: 'thinking', thinking: '' });
    expect(omitted.content[0]?.signature).toEqual(expect.any(String));
    expect(omitted.usage.output_tokens).toBe(16 + 24);
    const disabled = await message({ messages: ask('hi'), thinking: { type: 'disabled' } });
    expect(disabled.content.map((b) => b.type)).toEqual(['text']);
  });

  it('adds a redacted_thinking block with mock.redacted_thinking', async () => {
    const body = await message({
      messages: ask('hi'),
      thinking: { type: 'adaptive' },
      mock: { redacted_thinking: true },
    });
    expect(body.content.map((b) => b.type)).toEqual(['thinking', 'redacted_thinking', 'text']);
    expect(body.content[1]?.data).toEqual(expect.any(String));
  });

  it('streams thinking deltas, one signature_delta, then the text block at the next index', async () => {
    const res = await postAnthropic('/v1/messages', {
      model: 'echo',
      max_tokens: 4096,
      stream: true,
      messages: ask('one two'),
      thinking: { type: 'adaptive' },
      output_config: { effort: 'low' },
    });
    const events = parseSse(await res.text()).map((e) => JSON.parse(e.data) as Record<string, unknown>);
    const types = events.map((e) => e.type);
    expect(events[1]).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    const deltas = events.filter((e) => e.type === 'content_block_delta') as {
      index: number;
      delta: Block;
    }[];
    expect(deltas.filter((d) => d.delta.type === 'thinking_delta')).toHaveLength(8);
    const signature = deltas.filter((d) => d.delta.type === 'signature_delta');
    expect(signature).toHaveLength(1);
    expect(signature[0]?.index).toBe(0);
    expect(deltas.filter((d) => d.delta.type === 'text_delta').every((d) => d.index === 1)).toBe(true);
    expect(types.filter((t) => t === 'content_block_stop')).toHaveLength(2);
    expect(events.find((e) => e.type === 'content_block_start' && e.index === 1)).toMatchObject({
      content_block: { type: 'text', text: '' },
    });
    expect((events.at(-2) as { usage: { output_tokens: number } }).usage.output_tokens).toBe(8 + 2);
  });

  it('streams omitted thinking then a scripted tool_use block, as Claude Code receives it', async () => {
    const res = await postAnthropic('/v1/messages', {
      model: 'echo',
      max_tokens: 4096,
      stream: true,
      thinking: { type: 'adaptive', display: 'omitted' },
      tools: [{ name: 'Write', input_schema: { type: 'object' } }],
      messages: ask('TOOL Write {"file_path":"out.txt","content":"hello"}'),
    });
    const events = parseSse(await res.text()).map((e) => JSON.parse(e.data) as Record<string, unknown>);
    const deltas = events.filter((e) => e.type === 'content_block_delta') as {
      index: number;
      delta: Block;
    }[];
    expect(deltas.map((d) => [d.index, d.delta.type])).toEqual([
      [0, 'signature_delta'],
      [1, 'input_json_delta'],
    ]);
    expect(JSON.parse(String(deltas[1]?.delta.partial_json))).toEqual({
      file_path: 'out.txt',
      content: 'hello',
    });
    expect(events.find((e) => e.type === 'content_block_start' && e.index === 1)).toMatchObject({
      content_block: { type: 'tool_use', name: 'Write', input: {} },
    });
    expect(events.filter((e) => e.type === 'content_block_stop').map((e) => e.index)).toEqual([0, 1]);
    expect(events.find((e) => e.type === 'message_delta')).toMatchObject({
      delta: { stop_reason: 'tool_use' },
      usage: { output_tokens: 24 + 8 },
    });
  });

  it('accepts its own thinking blocks back and refuses modified ones, naming the block', async () => {
    const first = await message({
      messages: ask('hi'),
      thinking: { type: 'adaptive' },
      mock: { redacted_thinking: true },
    });
    const turn = (content: Block[]) => ({
      thinking: { type: 'adaptive' },
      messages: [...ask('hi'), { role: 'assistant', content }, { role: 'user', content: 'again' }],
    });
    await message(turn(first.content));
    const [thinking, redacted, text] = first.content as [Block, Block, Block];
    expect(await errorOf(turn([{ ...thinking, thinking: 'edited' }, text]))).toBe(
      'messages.1.content.0: Invalid `signature` in `thinking` block',
    );
    expect(await errorOf(turn([thinking, { ...redacted, data: 'AAAA' }, text]))).toBe(
      'messages.1.content.1: Invalid `data` in `redacted_thinking` block',
    );
    expect(await errorOf(turn([{ type: 'thinking', thinking: 'x' }, text]))).toBe(
      'messages.1.content.0.thinking.signature: Field required',
    );
  });

  it('validates thinking as the real API does', async () => {
    expect(await errorOf({ messages: ask('x'), thinking: { type: 'enabled', budget_tokens: 512 } })).toBe(
      'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024',
    );
    expect(
      await errorOf({
        messages: ask('x'),
        max_tokens: 2000,
        thinking: { type: 'enabled', budget_tokens: 2000 },
      }),
    ).toMatch(/^`max_tokens` must be greater than `thinking.budget_tokens`/);
    expect(await errorOf({ messages: ask('x'), thinking: { type: 'enabled' } })).toBe(
      'thinking.enabled.budget_tokens: Field required',
    );
    expect(await errorOf({ messages: ask('x'), thinking: { type: 'sometimes' } })).toMatch(
      /^thinking: Input tag/,
    );
    expect(await errorOf({ messages: ask('x'), thinking: { type: 'adaptive', display: 'full' } })).toBe(
      "thinking.adaptive.display: Input should be 'summarized' or 'omitted'",
    );
    expect(await errorOf({ messages: ask('x'), output_config: { effort: 'extreme' } })).toBe(
      "output_config.effort: Input should be 'low', 'medium', 'high' or 'max'",
    );
    expect(await errorOf({ messages: ask('x'), context_management: { edits: [{ keep: 'all' }] } })).toBe(
      'context_management.edits.0.type: Field required',
    );
  });
});

describe('Messages: structured outputs and modern request fields', () => {
  it('answers output_config.format json_schema with a JSON document valid for the schema', async () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        age: { type: 'integer', minimum: 1 },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['name', 'age'],
      additionalProperties: false,
    };
    const body = await message({
      messages: ask('x'),
      output_config: { format: { type: 'json_schema', schema } },
    });
    const text = String(body.content[0]?.text);
    expect(JSON.parse(text)).toEqual({ name: 'string', age: 1, tags: ['string'] });
    expect(body.usage.output_tokens).toBe(Math.ceil(text.length / 8));
  });

  it('accepts a Claude Code request: system messages mid-conversation, cache_control, defer_loading, ?beta=true', async () => {
    const body = {
      model: 'echo',
      max_tokens: 32000,
      stream: true,
      thinking: { type: 'adaptive', display: 'omitted' },
      output_config: { effort: 'high' },
      context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
      metadata: { user_id: '{"session_id":"s"}' },
      system: [
        { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.332;' },
        { type: 'text', text: 'You are a Claude agent.', cache_control: { type: 'ephemeral' } },
      ],
      tools: [
        { name: 'Write', description: 'Write a file', input_schema: { type: 'object', properties: {} } },
        { name: 'Later', description: 'deferred', input_schema: { type: 'object' }, defer_loading: true },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'write hello to out.txt' }] },
        { role: 'system', content: '# Environment\nYou are powered by the model mock/echo.' },
        {
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'toolu_01abc',
              name: 'Write',
              input: { file_path: 'out.txt', content: 'hello' },
            },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_01abc',
              content: 'File created',
              cache_control: { type: 'ephemeral' },
            },
          ],
        },
      ],
    };
    const res = await postAnthropic('/v1/messages?beta=true', body);
    expect(res.status).toBe(200);
    const events = parseSse(await res.text()).map((e) => JSON.parse(e.data) as Record<string, unknown>);
    const text = events
      .filter((e) => e.type === 'content_block_delta' && (e.delta as Block).type === 'text_delta')
      .map((e) => (e.delta as { text: string }).text)
      .join('');
    expect(text).toBe('Tool result: File created');
    const count = await postAnthropic('/v1/messages/count_tokens', {
      ...body,
      stream: undefined,
      max_tokens: undefined,
    });
    expect(count.status).toBe(200);
  });
});
