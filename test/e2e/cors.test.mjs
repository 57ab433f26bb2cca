// End to end over real HTTP: a key given a browser origin with the admin CLI, then the requests a browser
// sends for a page on that origin (a preflight with no key, then the call) and for a page elsewhere.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { adminCli, startTestStack } from './stack.mjs';

const APP = 'http://localhost:5173';
let stack;

before(
  async () => {
    stack = await startTestStack(20887);
  },
  { timeout: 180_000 },
);

after(() => stack?.stop());

const admin = (...args) => adminCli(stack, ...args);

const chat = (key, origin) =>
  fetch(`${stack.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', origin },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'from a page' }] }),
  });

test('a page on an allowed origin calls /v1; a page elsewhere is refused', async () => {
  const created = await admin('keys', 'create', stack.tenantId, '--name', 'web', '--origins', APP);
  assert.deepEqual(created.origins, [APP]);

  const preflight = await fetch(`${stack.url}/v1/chat/completions`, {
    method: 'OPTIONS',
    headers: {
      origin: APP,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    },
  });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get('access-control-allow-origin'), APP);
  assert.match(preflight.headers.get('access-control-allow-headers'), /\bauthorization\b/);

  const ok = await chat(created.key, APP);
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get('access-control-allow-origin'), APP);
  assert.match(ok.headers.get('access-control-expose-headers'), /x-edgeway-request-id/);
  assert.equal((await ok.json()).choices[0].message.content, 'from a page');

  const elsewhere = await chat(created.key, 'https://elsewhere.example');
  assert.equal(elsewhere.status, 403);
  assert.equal(elsewhere.headers.get('access-control-allow-origin'), null);
  assert.equal((await elsewhere.json()).error.code, 'origin_not_allowed');

  const cleared = await admin('keys', 'origins', created.id, '--clear');
  assert.deepEqual(cleared, []);
  const after = await chat(created.key, APP);
  assert.equal(after.status, 403);
  await after.body?.cancel();
});

/** A fetch for an SDK that sends what a browser on APP would, and records the header names the SDK set. */
function browserFetch(seen) {
  return (url, init) => {
    const headers = new Headers(init?.headers);
    for (const name of headers.keys()) seen.add(name);
    headers.set('origin', APP);
    return fetch(url, { ...init, headers });
  };
}

/** Headers a browser sends without asking, or that a page cannot set. */
const SAFELISTED = new Set(['accept', 'accept-language', 'content-language', 'user-agent', 'content-length']);

test("the official SDKs' browser headers are all granted by the preflight", async () => {
  const created = await admin('keys', 'create', stack.tenantId, '--name', 'sdk', '--origins', APP);
  const seen = new Set();
  const openai = new OpenAI({
    apiKey: created.key,
    baseURL: `${stack.url}/v1`,
    maxRetries: 0,
    dangerouslyAllowBrowser: true,
    fetch: browserFetch(seen),
  });
  const answer = await openai.chat.completions.create({
    model: 'mock/echo',
    messages: [{ role: 'user', content: 'sdk' }],
  });
  assert.equal(answer.choices[0].message.content, 'sdk');
  const anthropic = new Anthropic({
    apiKey: created.key,
    baseURL: stack.url,
    maxRetries: 0,
    dangerouslyAllowBrowser: true,
    fetch: browserFetch(seen),
  });
  const message = await anthropic.messages.create({
    model: 'mock/echo',
    max_tokens: 16,
    messages: [{ role: 'user', content: 'sdk' }],
  });
  assert.equal(message.content[0].text, 'sdk');

  const preflight = await fetch(`${stack.url}/v1/messages`, {
    method: 'OPTIONS',
    headers: { origin: APP, 'access-control-request-method': 'POST' },
  });
  const granted = new Set(preflight.headers.get('access-control-allow-headers').split(', '));
  assert.ok(seen.has('x-stainless-lang') && seen.has('anthropic-version'), 'the SDKs sent their own headers');
  const missing = [...seen].filter((name) => !SAFELISTED.has(name) && !granted.has(name));
  assert.deepEqual(missing, [], 'every header the SDKs send must be allowed by the preflight');
});
