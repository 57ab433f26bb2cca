import { describe, expect, it } from 'vitest';
import { chatBody, post, readSse, seedKey } from '../helpers';

const cached = () => seedKey({ cache: { exact: true } });
const statusOf = (res: Response) => res.headers.get('x-edgeway-cache');
type Completion = {
  choices: { message: { content: string | null; tool_calls?: unknown[] }; finish_reason: string }[];
  usage: unknown;
};

function unique(text: string) {
  return `${text} ${crypto.randomUUID()}`;
}

describe('exact cache', () => {
  it('misses, then hits with the same answer; both status headers set', async () => {
    const { secret } = await cached();
    const body = chatBody(unique('cache me'));
    const first = await post('/v1/chat/completions', body, secret);
    expect(statusOf(first)).toBe('MISS');
    expect(first.headers.get('cf-aig-cache-status')).toBe('MISS');
    const a = (await first.json()) as Completion;
    const second = await post('/v1/chat/completions', body, secret);
    expect(statusOf(second)).toBe('HIT');
    expect(second.headers.get('cf-aig-cache-status')).toBe('HIT');
    expect(await second.json()).toEqual(a);
  });

  it('ignores key order, stream flags and the user field, but not parameters or the model', async () => {
    const { secret } = await cached();
    const text = unique('normalise');
    await (
      await post(
        '/v1/chat/completions',
        { messages: [{ role: 'user', content: text }], model: 'mock/echo', temperature: 0 },
        secret,
      )
    ).text();
    const reordered = await post(
      '/v1/chat/completions',
      { temperature: 0, model: 'mock/echo', user: 'u-42', messages: [{ content: text, role: 'user' }] },
      secret,
    );
    expect(statusOf(reordered)).toBe('HIT');
    await reordered.text();
    const otherTemp = await post('/v1/chat/completions', chatBody(text, { temperature: 0.5 }), secret);
    expect(statusOf(otherTemp)).toBe('MISS');
    await otherTemp.text();
    const otherModel = await post(
      '/v1/chat/completions',
      chatBody(text, { model: 'mock/mock-small', temperature: 0 }),
      secret,
    );
    expect(statusOf(otherModel)).toBe('MISS');
    await otherModel.text();
  });

  it("keeps a translated stream in the client's format and replays it as JSON and as a stream", async () => {
    const { secret } = await cached();
    const text = unique('translated');
    const body = { model: 'claude-only/echo', messages: [{ role: 'user', content: text }] };
    const first = await post('/v1/chat/completions', { ...body, stream: true }, secret);
    expect(statusOf(first)).toBe('MISS');
    await first.text();
    const json = await post('/v1/chat/completions', body, secret);
    expect(statusOf(json)).toBe('HIT');
    const answer = (await json.json()) as Completion & { object: string };
    expect(answer.object).toBe('chat.completion');
    expect(answer.choices[0]?.message.content).toBe(text);
    expect(answer.choices[0]?.finish_reason).toBe('stop');
    const replay = await post('/v1/chat/completions', { ...body, stream: true }, secret);
    expect(statusOf(replay)).toBe('HIT');
    const events = await readSse(replay);
    const chunks = events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data));
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe(text);
    expect(events.at(-1)?.data).toBe('[DONE]');
  });

  it("never serves one tenant's entry to another", async () => {
    const a = await seedKey({ tenantId: 'ten_a', cache: { exact: true } });
    const b = await seedKey({ tenantId: 'ten_b', cache: { exact: true } });
    const body = chatBody(unique('shared question'));
    await (await post('/v1/chat/completions', body, a.secret)).text();
    expect(statusOf(await post('/v1/chat/completions', body, a.secret))).toBe('HIT');
    expect(statusOf(await post('/v1/chat/completions', body, b.secret))).toBe('MISS');
  });

  it('answers a streamed request from a JSON original as SSE, with usage only when asked', async () => {
    const { secret } = await cached();
    const text = unique('json first');
    await (await post('/v1/chat/completions', chatBody(text), secret)).text();
    const res = await post('/v1/chat/completions', chatBody(text, { stream: true }), secret);
    expect(statusOf(res)).toBe('HIT');
    expect(res.headers.get('content-type')).toMatch(/event-stream/);
    const events = await readSse(res);
    const chunks = events
      .filter((e) => e.data.startsWith('{'))
      .map((e) => JSON.parse(e.data) as { choices: { delta: { content?: string } }[] });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(text);
    expect(chunks.some((c) => c.choices.length === 0)).toBe(false);
    expect(events.at(-1)!.data).toBe('[DONE]');
    const withUsage = await readSse(
      await post(
        '/v1/chat/completions',
        chatBody(text, { stream: true, stream_options: { include_usage: true } }),
        secret,
      ),
    );
    expect(withUsage.some((e) => e.data.includes('"usage":{'))).toBe(true);
  });

  it('answers a JSON request from a streamed original, keeping tool calls and finish reason', async () => {
    const { secret } = await cached();
    const tools = [
      { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } },
    ];
    const body = chatBody(unique('use a tool'), { tools, mock: { tool_call: true } });
    await readSse(await post('/v1/chat/completions', { ...body, stream: true }, secret));
    const res = await post('/v1/chat/completions', body, secret);
    expect(statusOf(res)).toBe('HIT');
    const json = (await res.json()) as Completion;
    expect(json.choices[0]!.finish_reason).toBe('tool_calls');
    expect(json.choices[0]!.message.tool_calls).toEqual([
      expect.objectContaining({ type: 'function', function: { name: 'lookup', arguments: '{}' } }),
    ]);
    expect(json.usage).toBeTruthy();
  });

  it('does not store errors or incomplete streams', async () => {
    const { secret } = await cached();
    const failing = chatBody(unique('fails once'), {
      mock: { fail_first: 1, key: crypto.randomUUID(), status: 500 },
    });
    expect((await post('/v1/chat/completions', failing, secret)).status).toBe(500);
    const retry = await post('/v1/chat/completions', failing, secret);
    expect(retry.status).toBe(200);
    expect(statusOf(retry)).toBe('MISS');
    await retry.text();

    const cut = chatBody(unique('cut'), {
      model: 'mock/mock-small',
      stream: true,
      mock: { tokens: 8, cut_after: 2 },
    });
    await readSse(await post('/v1/chat/completions', cut, secret));
    const again = await post('/v1/chat/completions', cut, secret);
    expect(statusOf(again)).toBe('MISS');
    await again.text();
  });

  it('honours bypass and no-store headers, and lets cf-aig-cache-ttl opt a request in', async () => {
    const plain = await seedKey();
    const body = chatBody(unique('opt in'));
    const off = await post('/v1/chat/completions', body, plain.secret);
    expect(statusOf(off)).toBe('BYPASS');
    await off.text();
    await (await post('/v1/chat/completions', body, plain.secret, { 'cf-aig-cache-ttl': '120' })).text();
    expect(
      statusOf(await post('/v1/chat/completions', body, plain.secret, { 'cf-aig-cache-ttl': '120' })),
    ).toBe('HIT');
    expect(
      statusOf(
        await post('/v1/chat/completions', body, plain.secret, {
          'cf-aig-cache-ttl': '120',
          'cf-aig-skip-cache': 'true',
        }),
      ),
    ).toBe('BYPASS');

    const { secret } = await cached();
    const noStore = chatBody(unique('no store'));
    await (await post('/v1/chat/completions', noStore, secret, { 'x-edgeway-cache': 'no-store' })).text();
    expect(statusOf(await post('/v1/chat/completions', noStore, secret))).toBe('MISS');
    expect(
      (await post('/v1/chat/completions', noStore, secret, { 'cf-aig-cache-ttl': 'forever' })).status,
    ).toBe(400);
  });

  it('separates entries by cf-aig-cache-key namespace', async () => {
    const { secret } = await cached();
    const body = chatBody(unique('namespaced'));
    await (await post('/v1/chat/completions', body, secret, { 'cf-aig-cache-key': 'ns-1' })).text();
    expect(statusOf(await post('/v1/chat/completions', body, secret, { 'cf-aig-cache-key': 'ns-1' }))).toBe(
      'HIT',
    );
    expect(statusOf(await post('/v1/chat/completions', body, secret, { 'cf-aig-cache-key': 'ns-2' }))).toBe(
      'MISS',
    );
  });

  it('coalesces a burst of identical misses into one upstream call', async () => {
    const { secret } = await cached();
    const body = chatBody(unique('burst'), { mock: { latency_ms: 150 } });
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => post('/v1/chat/completions', body, secret)),
    );
    const statuses = responses.map(statusOf).sort();
    expect(statuses).toEqual(['HIT', 'HIT', 'HIT', 'HIT', 'MISS']);
    const bodies = await Promise.all(responses.map((r) => r.json()));
    for (const b of bodies) expect(b).toEqual(bodies[0]);
  });

  it('caches the Anthropic Messages API and replays it as its own event stream', async () => {
    const { secret } = await cached();
    const body = {
      model: 'mock/echo',
      max_tokens: 50,
      messages: [{ role: 'user', content: unique('anthropic') }],
    };
    await readSse(await post('/v1/messages', { ...body, stream: true }, secret));
    const json = await post('/v1/messages', body, secret);
    expect(statusOf(json)).toBe('HIT');
    expect(await json.json()).toMatchObject({
      type: 'message',
      content: [{ type: 'text', text: body.messages[0]!.content }],
      stop_reason: 'end_turn',
    });
    const events = await readSse(await post('/v1/messages', { ...body, stream: true }, secret));
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('caches embeddings', async () => {
    const { secret } = await cached();
    const body = { model: 'mock/text-embedding-3-small', input: unique('embed'), dimensions: 4 };
    await (await post('/v1/embeddings', body, secret)).text();
    expect(statusOf(await post('/v1/embeddings', body, secret))).toBe('HIT');
  });
});
