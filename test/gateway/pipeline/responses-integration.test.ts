/**
 * POST /v1/responses through the whole gateway to the mock: passed through to a provider that speaks the
 * Responses API (the mock row) and translated to one that does not (the Anthropic-format `claude-only` row),
 * as JSON and as streams; stored responses continued with `previous_response_id` the moment an answer
 * completes, item references resolved, `store: false` keeping nothing, tenants kept apart, hosted tools
 * dropped and named, and the guardrails redacting every copy of an answer's text in a stream.
 */
import { SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Loose } from '../answer-helpers';
import { readSse, seedKey } from '../helpers';

let key: string;
let otherTenantKey: string;
let guardedKey: string;
beforeAll(async () => {
  key = (await seedKey({ tenantId: 'ten_resp_a' })).secret;
  otherTenantKey = (await seedKey({ tenantId: 'ten_resp_b' })).secret;
  guardedKey = (await seedKey({ tenantId: 'ten_resp_g', guardrails: { pii: { response: 'redact' } } }))
    .secret;
});

function post(body: Record<string, unknown>, secret = key): Promise<Response> {
  return SELF.fetch('https://gateway.test/v1/responses', {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function get(path: string, secret = key): Promise<Response> {
  return SELF.fetch(`https://gateway.test${path}`, { headers: { authorization: `Bearer ${secret}` } });
}

async function json(res: Response): Promise<Loose> {
  return (await res.json()) as Loose;
}

/** The texts of a Responses object's message items. */
function outputText(response: Loose): string {
  return (response.output as Loose[])
    .filter((item) => item.type === 'message')
    .flatMap((item) => item.content as Loose[])
    .map((part) => part.text)
    .join('');
}

describe.each([
  ['translated to the Messages format', 'claude-only/echo'],
  ['passed through to a Responses provider', 'mock/echo'],
])('POST /v1/responses %s', (_label, model) => {
  it('answers a Responses object with the echoed text, usage and the gateway-issued or provider id', async () => {
    const res = await post({ model, input: 'Say hello to the gateway.' });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ object: 'response', status: 'completed' });
    expect(body.id).toMatch(/^resp_/);
    expect(outputText(body)).toContain('Say hello to the gateway.');
    expect(body.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) });
  });

  it('streams semantic events numbered from 0, ending with response.completed holding the whole text', async () => {
    const res = await post({ model, input: 'Stream this sentence back.', stream: true });
    expect(res.status).toBe(200);
    const events = await readSse(res);
    const data = events.map((e) => JSON.parse(e.data) as Loose);
    expect(data.map((d) => d.sequence_number)).toEqual(data.map((_, i) => i));
    expect(events.map((e) => e.event)).toEqual(data.map((d) => d.type));
    expect(data[0]?.type).toBe('response.created');
    const last = data.at(-1) as Loose;
    expect(last.type).toBe('response.completed');
    const deltas = data
      .filter((d) => d.type === 'response.output_text.delta')
      .map((d) => d.delta)
      .join('');
    expect(deltas).toContain('Stream this sentence back.');
    expect(outputText(last.response as Loose)).toBe(deltas);
  });

  it('continues a streamed answer at once with previous_response_id, with the conversation rebuilt', async () => {
    const first = await post({ model, input: 'My name is Ada.', stream: true });
    const firstEvents = (await readSse(first)).map((e) => JSON.parse(e.data) as Loose);
    const firstResponse = firstEvents.at(-1)?.response as Loose;
    // Straight after the terminal event: the response was kept before it was relayed.
    const second = await post({ model, previous_response_id: firstResponse.id, input: 'What is my name?' });
    expect(second.status).toBe(200);
    const body = await json(second);
    // A translated answer echoes it; a passed-through one is the provider's own, which was never told it.
    if (model.startsWith('claude-only/')) expect(body.previous_response_id).toBe(firstResponse.id);
    // The provider was sent the whole conversation: more prompt than the first turn's.
    expect(body.usage.input_tokens).toBeGreaterThan(firstResponse.usage.input_tokens);
    const items = await json(await get(`/v1/responses/${body.id}/input_items`));
    expect(items.data).toHaveLength(1);
    expect(items.data[0]).toMatchObject({ type: 'message', role: 'user' });
  });

  it('keeps nothing with store: false', async () => {
    const res = await post({ model, input: 'Forget me.', store: false });
    const body = await json(res);
    expect((await get(`/v1/responses/${body.id}`)).status).toBe(404);
    const next = await post({ model, previous_response_id: body.id, input: 'Again?' });
    expect(next.status).toBe(400);
    expect((await json(next)).error).toMatchObject({
      code: 'previous_response_not_found',
      param: 'previous_response_id',
    });
  });

  it("never continues or shows another tenant's response", async () => {
    const body = await json(await post({ model, input: 'Tenant A only.' }));
    expect((await get(`/v1/responses/${body.id}`)).status).toBe(200);
    expect((await get(`/v1/responses/${body.id}`, otherTenantKey)).status).toBe(404);
    const next = await post({ model, previous_response_id: body.id, input: 'Mine?' }, otherTenantKey);
    expect(next.status).toBe(400);
  });
});

describe('POST /v1/responses to a provider of another format', () => {
  it('drops the tools only OpenAI runs and names them, keeping function tools', async () => {
    const res = await post({
      model: 'claude-only/echo',
      input: 'Search nothing.',
      tools: [
        { type: 'web_search' },
        { type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} } },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-edgeway-dropped')).toContain('tools[web_search]');
  });

  it('resolves a reference to a function call the gateway issued, for the next step of a tool loop', async () => {
    const tools = [
      {
        type: 'function',
        name: 'weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ];
    const first = await json(
      await post({ model: 'claude-only/echo', input: 'TOOL weather {"city":"Paris"}', tools }),
    );
    const call = (first.output as Loose[]).find((item) => item.type === 'function_call') as Loose;
    expect(call).toMatchObject({ name: 'weather' });
    const next = await post({
      model: 'claude-only/echo',
      tools,
      input: [
        { role: 'user', content: 'TOOL weather {"city":"Paris"}' },
        { type: 'item_reference', id: call.id },
        { type: 'function_call_output', call_id: call.call_id, output: 'Sunny, 21 degrees.' },
      ],
    });
    expect(next.status).toBe(200);
    expect((await json(next)).status).toBe('completed');
    const missing = await post({
      model: 'claude-only/echo',
      input: [{ type: 'item_reference', id: call.id.replace(/_\d+$/, '_9') }],
    });
    expect(missing.status).toBe(400);
    expect((await json(missing)).error).toMatchObject({ code: 'item_not_found' });
  });

  it('redacts an answer in every event that repeats it, the final response included', async () => {
    const email = 'ada.lovelace@example.com';
    const res = await post(
      { model: 'claude-only/echo', input: `Write to ${email} today.`, stream: true },
      guardedKey,
    );
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(email);
    expect(text).toContain('response.completed');
  });
});
