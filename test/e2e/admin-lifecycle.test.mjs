// End to end, as an admin would follow the README: the admin CLI against `wrangler dev`
// creates a tenant and a scoped key, the openai client uses it, then rotation and
// revocation are observed on the very next call; guardrail policies set with the CLI apply likewise.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { ROOT } from '../../scripts/stack.mjs';
import { adminCli, startTestStack } from './stack.mjs';

const run = promisify(execFile);
let stack;

before(
  async () => {
    stack = await startTestStack(18987, {
      PROVIDER_KEYS_SECRET: 'e2e-provider-keys-secret-0123456789abcdef',
      // A provider whose request-id header is the mock's hash of the key it was called with.
      EDGEWAY_PROVIDERS: JSON.stringify([
        {
          id: 'byok',
          base_url: 'http://127.0.0.1:18988/v1',
          api_key_secret: 'PROVIDER_KEY_BYOK',
          request_id_header: 'x-mock-key-sha256',
        },
      ]),
      PROVIDER_KEY_BYOK: 'the-deployment-key',
    });
  },
  { timeout: 180_000 },
);

after(() => stack?.stop());

const admin = (...args) => adminCli(stack, ...args);

/** The CLI with `input` on its stdin (how a provider key is given, never on the command line). */
function adminWithStdin(input, ...args) {
  const child = execFile(process.execPath, ['scripts/admin.mjs', ...args, '--json'], {
    cwd: ROOT,
    env: { ...process.env, EDGEWAY_URL: stack.url, ADMIN_TOKEN: stack.adminToken },
  });
  child.stdin.end(input);
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`exit ${code}`)))),
  );
}

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

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

test("a tenant's own provider key, set with the CLI, is what the provider receives", async () => {
  const providers = await admin('providers', 'list');
  assert.deepEqual(
    providers.find((p) => p.id === 'byok'),
    {
      id: 'byok',
      configured: true,
      keyless: false,
      accepts_tenant_keys: true,
      tenants_with_own_key: 0,
      models: [],
    },
  );
  const tenant = await admin('tenants', 'create', 'byok-co');
  const { key } = await admin('keys', 'create', tenant.id);
  const keyUsed = async () => {
    const { response } = await new OpenAI({
      apiKey: key,
      baseURL: `${stack.url}/v1`,
      maxRetries: 0,
    }).chat.completions
      .create({ model: 'byok/echo', messages: [{ role: 'user', content: 'whose key?' }] })
      .withResponse();
    return response.headers.get('x-edgeway-upstream-request-id');
  };
  assert.equal(await keyUsed(), sha256('the-deployment-key'));

  const own = 'sk-tenant-own-key-0123456789';
  const saved = await adminWithStdin(`${own}\n`, 'provider-keys', 'set', tenant.id, 'byok');
  assert.equal(JSON.stringify(saved).includes(own), false, 'the key is never printed back');
  assert.equal(await keyUsed(), sha256(own));

  const listed = await admin('provider-keys', 'list', tenant.id);
  assert.equal(JSON.stringify(listed).includes(own), false);
  assert.equal(listed[0].provider, 'byok');

  const { stdout } = await run(
    process.execPath,
    ['scripts/admin.mjs', 'provider-keys', 'delete', tenant.id, 'byok'],
    {
      cwd: ROOT,
      env: { ...process.env, EDGEWAY_URL: stack.url, ADMIN_TOKEN: stack.adminToken },
    },
  );
  assert.match(stdout, /Deleted tenant .*'s own byok key/);
  assert.equal(await keyUsed(), sha256('the-deployment-key'));
});

test('a route defined with the CLI: the openai client calls it by name and never notices its primary failing', async () => {
  const spec = {
    strategy: 'fallback',
    targets: [{ model: 'mock/mock-large;status=503' }, { model: 'mock/echo' }],
  };
  const created = await adminWithStdin(JSON.stringify(spec), 'routes', 'create', 'smart-e2e');
  assert.equal(created.name, 'smart-e2e');
  const tenant = await admin('tenants', 'create', 'routes-co');
  const { key } = await admin('keys', 'create', tenant.id, '--models', 'smart-e2e');
  const client = new OpenAI({ apiKey: key, baseURL: `${stack.url}/v1`, maxRetries: 0 });
  const { data, response } = await client.chat.completions
    .create({ model: 'smart-e2e', messages: [{ role: 'user', content: 'route me' }] })
    .withResponse();
  assert.equal(data.choices[0].message.content, 'route me');
  assert.equal(response.headers.get('x-edgeway-route'), 'smart-e2e');
  assert.equal(response.headers.get('x-edgeway-target'), 'mock/echo');
  assert.equal(response.headers.get('x-edgeway-attempts'), '2');

  let text = '';
  for await (const chunk of await client.chat.completions.create({
    model: 'smart-e2e',
    messages: [{ role: 'user', content: 'route me streaming' }],
    stream: true,
  }))
    text += chunk.choices[0]?.delta?.content ?? '';
  assert.equal(text, 'route me streaming');
  await assert.rejects(
    client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'x' }] }),
    OpenAI.PermissionDeniedError,
  );
});

test('guardrails set with the CLI: merged into the stored policy, applied to the next request, counted by `usage`', async () => {
  const tenant = await admin('tenants', 'create', 'guarded-co');
  const created = await admin('keys', 'create', tenant.id);
  const policy = await admin(
    'guardrails',
    'set',
    '--tenant',
    tenant.id,
    '--request',
    'pii=redact,injection=block',
    '--restore',
  );
  assert.deepEqual(policy, { pii: { request: 'redact' }, injection: { request: 'block' }, restore: true });
  const merged = await admin('guardrails', 'set', '--tenant', tenant.id, '--deny-term', 'Project Falcon');
  assert.deepEqual(merged, { ...policy, deny: { terms: ['Project Falcon'], patterns: [] } });
  assert.deepEqual(await admin('guardrails', 'get', '--tenant', tenant.id), merged);

  // The key narrows its tenant's policy: it refuses restoring, so the provider's echo keeps the placeholder.
  await admin('guardrails', 'set', '--key', created.id, '--no-restore', '--response', 'secrets=redact');
  assert.deepEqual(await admin('guardrails', 'get', '--key', created.id), {
    restore: false,
    secrets: { response: 'redact' },
  });

  // Tool results: their own action and threshold; `inherit` leaves them to the injection action on requests.
  assert.deepEqual(
    await admin(
      'guardrails',
      'set',
      '--key',
      created.id,
      '--tool-results',
      'quarantine',
      '--tool-threshold',
      '0.8',
    ),
    {
      restore: false,
      secrets: { response: 'redact' },
      injection: { tool_results: 'quarantine' },
      injection_tool_threshold: 0.8,
    },
  );
  assert.deepEqual(await admin('guardrails', 'set', '--key', created.id, '--tool-results', 'inherit'), {
    restore: false,
    secrets: { response: 'redact' },
    injection_tool_threshold: 0.8,
  });
  // quarantine elsewhere: the CLI says where it belongs, and nothing is sent.
  await assert.rejects(
    run(
      process.execPath,
      ['scripts/admin.mjs', 'guardrails', 'set', '--key', created.id, '--request', 'injection=quarantine'],
      { cwd: ROOT, env: { ...process.env, EDGEWAY_URL: stack.url, ADMIN_TOKEN: stack.adminToken } },
    ),
    (err) => err.code === 1 && /use --tool-results quarantine/.test(err.stderr),
  );
  // An action the API refuses for tool results: its words, a non-zero exit.
  await assert.rejects(
    run(
      process.execPath,
      ['scripts/admin.mjs', 'guardrails', 'set', '--key', created.id, '--tool-results', 'redact'],
      { cwd: ROOT, env: { ...process.env, EDGEWAY_URL: stack.url, ADMIN_TOKEN: stack.adminToken } },
    ),
    (err) => err.code === 1 && /cannot be redacted/.test(err.stderr),
  );

  // A pattern the linear-time engine refuses: the API's words, a non-zero exit, nothing stored.
  await assert.rejects(
    run(
      process.execPath,
      ['scripts/admin.mjs', 'guardrails', 'set', '--tenant', tenant.id, '--deny-pattern', '(a)\\1'],
      {
        cwd: ROOT,
        env: { ...process.env, EDGEWAY_URL: stack.url, ADMIN_TOKEN: stack.adminToken },
      },
    ),
    (err) => err.code === 1 && /guardrails\.deny: patterns\[0\]: backreferences/.test(err.stderr),
  );
  assert.deepEqual(await admin('guardrails', 'get', '--tenant', tenant.id), merged);

  const card = '4111 1111 1111 1111';
  const { data, response } = await new OpenAI({
    apiKey: created.key,
    baseURL: `${stack.url}/v1`,
    maxRetries: 0,
  }).chat.completions
    .create({
      model: 'mock/echo',
      messages: [{ role: 'user', content: `My card number is ${card}, can you confirm you received it?` }],
    })
    .withResponse();
  assert.equal(response.headers.get('x-edgeway-guardrails'), 'pii:request:redact:1');
  assert.equal(
    data.choices[0].message.content,
    'My card number is [CARD_1], can you confirm you received it?',
  );

  let usage;
  for (let i = 0; i < 60; i++) {
    usage = await admin('usage', '--tenant', tenant.id);
    if (usage.guardrails.length > 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  assert.deepEqual(
    usage.guardrails.map(({ guardrail, fired, blocked, redacted }) => ({
      guardrail,
      fired,
      blocked,
      redacted,
    })),
    [{ guardrail: 'pii', fired: 1, blocked: 0, redacted: 1 }],
  );

  const cleared = await admin('guardrails', 'set', '--tenant', tenant.id, '--clear');
  assert.deepEqual(cleared, {});
});
