/**
 * POST /v1/messages/count_tokens through the worker. Against the mock LLM (its count_tokens, the
 * Anthropic-format views of it, and an OpenAI-format view that gets an estimate), and against small fake
 * upstreams wired into the app's provider registry, to see what is sent: the client's body as sent to an
 * Anthropic-format provider, Gemini's countTokens and Bedrock's CountTokens bodies (the mock serves neither
 * yet), the faults of each mapped as on /v1/messages. Counting is free: nothing reserved, a log row at no cost.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app';
import type { Limiter } from '../../../src/core/limiter';
import type { LogEvent } from '../../../src/core/log-event';
import { getDeps } from '../../../src/deps';
import { estimatePromptTokens } from '../../../src/limits/estimate';
import { parseCountTokensRequest } from '../../../src/core/count-tokens-request';
import { tableAdapter } from '../../../src/providers/adapter';
import { bedrockAdapter } from '../../../src/providers/bedrock';
import { geminiAdapter } from '../../../src/providers/gemini';
import type { ProviderAdapter } from '../../../src/providers/types';
import { admin, createTenant } from '../admin-helpers';
import { post, seedKey } from '../helpers';
import { bindings } from '../log-fixtures';

const PATH = '/v1/messages/count_tokens';
const HELLO = { messages: [{ role: 'user', content: 'Hello there, mock.' }] };
/** The mock's rule: 3 + Σ(4 + ⌈chars/4⌉), `system` counted as one more message. */
const HELLO_TOKENS = 3 + (4 + 5);

let key: string;
beforeAll(async () => {
  key = (await seedKey({ tenantId: 'ten_count_tokens' })).secret;
});

const count = (body: unknown, secret = key, headers: Record<string, string> = {}) =>
  post(PATH, body, null, { 'x-api-key': secret, 'anthropic-version': '2023-06-01', ...headers });

describe('against the mock LLM', () => {
  it("forwards to an Anthropic-format provider's count_tokens and answers its exact count", async () => {
    for (const model of ['mock/echo', 'claude-only/echo']) {
      const res = await count({ model, ...HELLO });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-edgeway-token-count')).toBe('exact');
      expect(res.headers.get('x-edgeway-request-id')).toBeTruthy();
      expect(await res.json()).toEqual({ input_tokens: HELLO_TOKENS });
    }
  });

  it('counts the system prompt too, sent as blocks with cache_control', async () => {
    const system = [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }];
    const res = await count({ model: 'claude-only/echo', system, ...HELLO });
    expect(await res.json()).toEqual({ input_tokens: HELLO_TOKENS + 4 + 3 });
  });

  it('estimates for an OpenAI-format provider, saying so, without calling it', async () => {
    const body = { model: 'gpt-only/echo', ...HELLO };
    const res = await count(body);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-edgeway-token-count')).toBe('estimate');
    expect(await res.json()).toEqual({ input_tokens: estimatePromptTokens(parseCountTokensRequest(body)) });
    // Nothing listens behind `dead`: an estimate that called it would fail.
    const dead = await count({ model: 'dead/any', ...HELLO });
    expect(dead.status).toBe(200);
    expect(dead.headers.get('x-edgeway-token-count')).toBe('estimate');
  });

  it("relays the provider's refusal with its status, in Anthropic's envelope, marked as the provider's", async () => {
    const res = await count({ model: 'mock/echo', messages: [{ role: 'robot', content: 'x' }] });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-edgeway-error-source')).toBe('provider');
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('takes the key as a bearer token too', async () => {
    const res = await post(PATH, { model: 'mock/echo', ...HELLO }, key);
    expect(res.status).toBe(200);
  });

  it('refuses a body without messages, and needs no max_tokens', async () => {
    const res = await count({ model: 'mock/echo' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: "Missing required parameter: 'messages'." },
    });
  });

  it("refuses a model outside the key's allow-list with a 403, before any provider is looked at", async () => {
    const narrow = (await seedKey({ tenantId: 'ten_count_tokens', models: ['mock/echo'] })).secret;
    const res = await count({ model: 'claude-only/echo', ...HELLO }, narrow);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
  });

  it('refuses a missing key with a 401 in the Anthropic envelope', async () => {
    const res = await post(PATH, { model: 'mock/echo', ...HELLO }, null);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });

  it("counts a named route with its first target's provider", async () => {
    const tenantId = (await createTenant('count-tokens-routes')).id;
    const spec = {
      strategy: 'fallback',
      targets: [{ model: 'claude-only/echo' }, { model: 'gpt-only/echo' }],
    };
    expect((await admin('POST', '/routes', { name: 'count-route', tenant_id: tenantId, spec })).status).toBe(
      201,
    );
    const secret = (await seedKey({ tenantId })).secret;
    const res = await count({ model: 'count-route', ...HELLO }, secret);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-edgeway-route')).toBe('count-route');
    expect(res.headers.get('x-edgeway-target')).toBe('claude-only/echo');
    expect(res.headers.get('x-edgeway-token-count')).toBe('exact');
  });
});

interface Sent {
  url: string;
  headers: Headers;
  body: Record<string, unknown>;
}

/** The real app, its provider registry extended by fakes that record what they are sent and answer `reply`. */
function withFakes(reply: (sent: Sent) => Response) {
  const sent: Sent[] = [];
  const events: LogEvent[] = [];
  let reserved = 0;
  const fetcher = async (url: string, init: RequestInit) => {
    const call = { url, headers: new Headers(init.headers), body: JSON.parse(String(init.body)) };
    sent.push(call);
    return reply(call);
  };
  const fakes: Record<string, ProviderAdapter> = {
    'fake-claude': tableAdapter(
      {
        id: 'fake-claude',
        baseUrl: 'https://claude.fake/v1',
        keySecret: '',
        serves: { messages: 'anthropic' },
      },
      'claude-key',
      fetcher,
    ),
    'fake-gpt': tableAdapter(
      { id: 'fake-gpt', baseUrl: 'https://gpt.fake/v1', keySecret: '', serves: { chat: 'openai' } },
      'gpt-key',
      fetcher,
    ),
    'fake-gemini': geminiAdapter('https://gemini.fake', 'gemini-key', fetcher),
    'fake-bedrock': bedrockAdapter({
      credentials: { accessKeyId: 'AKIDFAKE', secretAccessKey: 'fake-secret', sessionToken: null },
      region: 'us-east-1',
      baseUrl: 'https://bedrock.fake',
      fetcher,
    }),
  };
  const base = getDeps(bindings);
  const limiter: Limiter = {
    reserve(principal, request, models) {
      reserved++;
      return base.limiter.reserve(principal, request, models);
    },
  };
  const deps = {
    ...base,
    limiter,
    logs: { send: async (event: LogEvent) => void events.push(event) },
    providers: {
      get: (id: string, tenantKey?: string | null) => fakes[id] ?? base.providers.get(id, tenantKey),
      configured: () => base.providers.configured(),
      entries: () => base.providers.entries(),
    },
  };
  const app = createApp({ deps: () => deps });
  async function call(body: unknown, headers: Record<string, string> = {}) {
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`http://gw.test${PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key, ...headers },
        body: JSON.stringify(body),
      }),
      env,
      ctx,
    );
    const json = await res.json();
    await waitOnExecutionContext(ctx);
    return { res, json };
  }
  return { call, sent, events, reserved: () => reserved };
}

describe('what each provider format is sent', () => {
  it('passes the body as sent to an Anthropic-format provider, only the model replaced', async () => {
    const fake = withFakes(() => Response.json({ input_tokens: 42 }, { headers: { 'request-id': 'req_1' } }));
    const body = {
      model: 'fake-claude/claude-sonnet-4-5',
      system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'system', content: 'Earlier context.' },
        { role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] },
      ],
      tools: [{ name: 'Bash', description: 'Run a command', input_schema: { type: 'object' } }],
      thinking: { type: 'enabled', budget_tokens: 2048 },
    };
    const { res, json } = await fake.call(body, { 'anthropic-beta': 'interleaved-thinking-2025-05-14' });
    expect(res.status).toBe(200);
    expect(json).toEqual({ input_tokens: 42 });
    expect(res.headers.get('x-edgeway-token-count')).toBe('exact');
    expect(fake.sent).toHaveLength(1);
    const [call] = fake.sent;
    expect(call!.url).toBe('https://claude.fake/v1/messages/count_tokens');
    expect(call!.body).toEqual({ ...body, model: 'claude-sonnet-4-5' });
    expect(call!.headers.get('x-api-key')).toBe('claude-key');
    expect(call!.headers.get('anthropic-version')).toBe('2023-06-01');
  });

  it("sends Gemini's countTokens the whole generate request, and reads totalTokens", async () => {
    const fake = withFakes(() => Response.json({ totalTokens: 9 }));
    const { res, json } = await fake.call({
      model: 'fake-gemini/gemini-2.5-flash',
      system: 'Be brief.',
      ...HELLO,
    });
    expect(res.status).toBe(200);
    expect(json).toEqual({ input_tokens: 9 });
    expect(res.headers.get('x-edgeway-token-count')).toBe('exact');
    const [call] = fake.sent;
    expect(call!.url).toBe('https://gemini.fake/v1beta/models/gemini-2.5-flash:countTokens');
    expect(call!.headers.get('x-goog-api-key')).toBe('gemini-key');
    expect(call!.body).toEqual({
      generateContentRequest: {
        model: 'models/gemini-2.5-flash',
        contents: [{ role: 'user', parts: [{ text: 'Hello there, mock.' }] }],
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
      },
    });
  });

  it("sends Bedrock's CountTokens a signed {input: {converse}}, and reads inputTokens", async () => {
    const fake = withFakes(() => Response.json({ inputTokens: 11 }));
    const { res, json } = await fake.call({
      model: 'fake-bedrock/anthropic.claude-3-5-haiku-20241022-v1:0',
      thinking: { type: 'enabled', budget_tokens: 1024 },
      ...HELLO,
    });
    expect(res.status).toBe(200);
    expect(json).toEqual({ input_tokens: 11 });
    const [call] = fake.sent;
    expect(call!.url).toBe(
      'https://bedrock.fake/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/count-tokens',
    );
    expect(call!.headers.get('authorization')).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDFAKE\/\d{8}\/us-east-1\/bedrock\//,
    );
    expect(call!.body).toEqual({
      input: { converse: { messages: [{ role: 'user', content: [{ text: 'Hello there, mock.' }] }] } },
    });
  });

  it('never calls an OpenAI-format provider: the answer is an estimate', async () => {
    const fake = withFakes(() => new Response('not called', { status: 500 }));
    const { res } = await fake.call({ model: 'fake-gpt/gpt-4o', ...HELLO });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-edgeway-token-count')).toBe('estimate');
    expect(fake.sent).toHaveLength(0);
  });

  it('maps upstream faults as on /v1/messages: 5xx passed through after retries, 401 as 502, never a 200', async () => {
    const unavailable = withFakes(() => Response.json({ error: { message: 'busy' } }, { status: 503 }));
    const five = await unavailable.call(
      { model: 'fake-gemini/gemini-2.5-flash', ...HELLO },
      { 'cf-aig-max-attempts': '2' },
    );
    expect(five.res.status).toBe(503);
    expect(five.res.headers.get('x-edgeway-error-source')).toBe('provider');
    expect(five.json).toMatchObject({ type: 'error', error: { type: 'api_error', message: 'busy' } });
    expect(unavailable.sent).toHaveLength(2);

    const denied = withFakes(() => Response.json({ message: 'bad signature' }, { status: 403 }));
    const auth = await denied.call({ model: 'fake-bedrock/amazon.nova-lite-v1:0', ...HELLO });
    expect(auth.res.status).toBe(502);
    expect(auth.json).toMatchObject({ type: 'error', error: { type: 'api_error' } });

    const garbled = withFakes(() => Response.json({ tokens: 'many' }));
    const bad = await garbled.call({ model: 'fake-claude/claude-x', ...HELLO });
    expect(bad.res.status).toBe(502);
    expect(bad.res.headers.get('x-edgeway-error-source')).toBe('provider');
  });

  it('reserves nothing and logs one row for the endpoint at no cost, exact or estimated', async () => {
    const fake = withFakes(() => Response.json({ input_tokens: 5000 }));
    await fake.call({ model: 'fake-claude/claude-sonnet-4-5', ...HELLO });
    await fake.call({ model: 'fake-gpt/gpt-4o', ...HELLO });
    expect(fake.reserved()).toBe(0);
    expect(fake.events).toHaveLength(2);
    expect(fake.events[0]).toMatchObject({
      endpoint: PATH,
      status: 200,
      provider: 'fake-claude',
      model: 'fake-claude/claude-sonnet-4-5',
      costUsd: 0,
      inputTokens: 0,
      outputTokens: 0,
      attempts: 1,
    });
    expect(fake.events[1]).toMatchObject({ endpoint: PATH, provider: 'fake-gpt', costUsd: 0, attempts: 0 });
  });
});
