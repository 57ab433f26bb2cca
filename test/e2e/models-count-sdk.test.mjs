// End to end: the official @anthropic-ai/sdk and openai clients list and retrieve models through Edgeway
// (each in its own shape, the Anthropic SDK paging with after_id), and count tokens with
// client.messages.countTokens, exactly through an Anthropic-format provider and as a marked estimate
// through an OpenAI-format one.
import Anthropic from '@anthropic-ai/sdk';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { startTestStack } from './stack.mjs';

const PORT = 20487;
const MOCK = `http://127.0.0.1:${PORT + 1}`;
const ROUTE = 'e2e-count-route';
const HELLO = [{ role: 'user', content: 'Hello there, mock.' }];

let stack;
let openai;
let anthropic;

before(
  async () => {
    stack = await startTestStack(PORT, {
      EDGEWAY_PROVIDERS: JSON.stringify([
        {
          id: 'claude-only',
          base_url: `${MOCK}/v1`,
          format: 'anthropic',
          api_key_secret: 'PROVIDER_KEY_CLAUDE_ONLY',
          models: ['echo'],
        },
        { id: 'gpt-only', base_url: `${MOCK}/v1`, api_key_secret: 'PROVIDER_KEY_GPT_ONLY', models: ['echo'] },
      ]),
      PROVIDER_KEY_CLAUDE_ONLY: 'claude-only-key',
      PROVIDER_KEY_GPT_ONLY: 'gpt-only-key',
    });
    const res = await fetch(`${stack.url}/admin/routes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: ROUTE,
        tenant_id: stack.tenantId,
        spec: { strategy: 'fallback', targets: [{ model: 'claude-only/echo' }] },
      }),
    });
    assert.equal(res.status, 201, await res.text());
    openai = new OpenAI({ apiKey: stack.key, baseURL: `${stack.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: stack.key, baseURL: stack.url, maxRetries: 0 });
  },
  { timeout: 180_000 },
);

after(() => stack?.stop());

describe('models with the openai SDK', () => {
  test('models.list gives the ids clients send: providers, custom rows and routes', async () => {
    const ids = [];
    for await (const model of openai.models.list()) {
      assert.equal(model.object, 'model');
      ids.push(model.id);
    }
    for (const id of ['mock/echo', 'claude-only/echo', 'gpt-only/echo', ROUTE])
      assert.ok(ids.includes(id), id);
  });

  test('models.retrieve finds an id with a slash; an unknown one is a NotFoundError', async () => {
    const model = await openai.models.retrieve('claude-only/echo');
    assert.deepEqual(model, {
      id: 'claude-only/echo',
      object: 'model',
      created: 1_700_000_000,
      owned_by: 'claude-only',
    });
    await assert.rejects(openai.models.retrieve('mock/no-such-model'), (err) => {
      assert.ok(err instanceof OpenAI.NotFoundError);
      assert.equal(err.code, 'model_not_found');
      return true;
    });
  });
});

describe('models with the @anthropic-ai/sdk', () => {
  test('models.list pages with after_id through every model, in Anthropic shape', async () => {
    const all = [];
    for await (const model of anthropic.models.list()) all.push(model);
    const paged = [];
    for await (const model of anthropic.models.list({ limit: 2 })) paged.push(model.id);
    assert.deepEqual(
      paged,
      all.map((m) => m.id),
    );
    assert.ok(all.length > 2);
    const route = all.find((m) => m.id === ROUTE);
    assert.equal(route?.type, 'model');
    assert.match(route.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test('models.retrieve answers {type, id, display_name, created_at}; an unknown id is a NotFoundError', async () => {
    const model = await anthropic.models.retrieve('mock/echo');
    assert.deepEqual(model, {
      type: 'model',
      id: 'mock/echo',
      display_name: 'mock/echo',
      created_at: '2023-11-14T22:13:20Z',
    });
    await assert.rejects(anthropic.models.retrieve('mock/no-such-model'), Anthropic.NotFoundError);
  });
});

describe('messages.countTokens with the @anthropic-ai/sdk', () => {
  test('an Anthropic-format provider counts exactly (system blocks with cache_control included)', async () => {
    const { data, response } = await anthropic.messages
      .countTokens({
        model: 'claude-only/echo',
        system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
        messages: HELLO,
      })
      .withResponse();
    // The mock's rule: 3 + Σ(4 + ⌈chars/4⌉), the system prompt counted as one more message.
    assert.deepEqual(data, { input_tokens: 3 + (4 + 3) + (4 + 5) });
    assert.equal(response.headers.get('x-edgeway-token-count'), 'exact');
  });

  test('a named route counts with its first target', async () => {
    const { data, response } = await anthropic.messages
      .countTokens({ model: ROUTE, messages: HELLO })
      .withResponse();
    assert.deepEqual(data, { input_tokens: 3 + (4 + 5) });
    assert.equal(response.headers.get('x-edgeway-route'), ROUTE);
  });

  test('an OpenAI-format provider gets an estimate, marked as one', async () => {
    const { data, response } = await anthropic.messages
      .countTokens({ model: 'gpt-only/echo', messages: HELLO })
      .withResponse();
    assert.ok(Number.isInteger(data.input_tokens) && data.input_tokens > 0);
    assert.equal(response.headers.get('x-edgeway-token-count'), 'estimate');
  });

  test('an unknown model is a NotFoundError, from Anthropic’s envelope', async () => {
    await assert.rejects(
      anthropic.messages.countTokens({ model: 'nope', messages: HELLO }),
      Anthropic.NotFoundError,
    );
  });
});
