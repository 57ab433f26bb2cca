// End to end, as an admin would follow the README: the admin CLI against `wrangler dev`
// creates a tenant and a scoped key, the openai client uses it, then rotation and
// revocation are observed on the very next call.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { ROOT } from '../../scripts/stack.mjs';
import { startTestStack } from './stack.mjs';

const run = promisify(execFile);
let stack;

before(
  async () => {
    stack = await startTestStack(18987);
  },
  { timeout: 180_000 },
);

after(() => stack?.stop());

async function admin(...args) {
  const { stdout } = await run(process.execPath, ['scripts/admin.mjs', ...args, '--json'], {
    cwd: ROOT,
    env: { ...process.env, EDGEWAY_URL: stack.url, ADMIN_TOKEN: stack.adminToken },
  });
  return JSON.parse(stdout);
}

const chat = (key, model = 'mock/echo') =>
  new OpenAI({ apiKey: key, baseURL: `${stack.url}/v1`, maxRetries: 0 }).chat.completions.create({
    model,
    messages: [{ role: 'user', content: 'lifecycle' }],
  });

test('create, scope, use, rotate and revoke a key', async () => {
  const tenant = await admin('tenants', 'create', 'acme');
  const created = await admin('keys', 'create', tenant.id, '--name', 'ci', '--models', 'mock/echo');
  assert.match(created.key, /^ew_/);

  assert.equal((await chat(created.key)).choices[0].message.content, 'lifecycle');
  await assert.rejects(chat(created.key, 'mock/mock-small'), OpenAI.PermissionDeniedError);

  const listed = await admin('keys', 'list', tenant.id);
  assert.equal(JSON.stringify(listed).includes(created.key), false, 'the secret is never listed');

  const rotated = await admin('keys', 'rotate', created.id);
  assert.notEqual(rotated.key, created.key);
  assert.equal((await chat(rotated.key)).choices[0].message.content, 'lifecycle');
  await assert.rejects(chat(created.key), OpenAI.AuthenticationError);

  await admin('keys', 'revoke', created.id);
  await assert.rejects(
    chat(rotated.key),
    (err) => err instanceof OpenAI.AuthenticationError && /revoked/.test(err.message),
  );
});
