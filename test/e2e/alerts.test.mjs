// End to end over real HTTP: a budget alert crossed by a real request reaches a local webhook once, through
// the Limiter object, the alert queue and the worker's consumer, signed with the tenant's secret as the admin
// CLI shows it (checked here the way docs/alerts.md tells a receiver to).
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { adminCli, startTestStack } from './stack.mjs';

const HOOK_PORT = 19689;
let stack;
let hook;
const received = [];

before(
  async () => {
    hook = createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise((resolve) => hook.listen(HOOK_PORT, '127.0.0.1', resolve));
    stack = await startTestStack(19687, { ALERT_SIGNING_SECRET: 'e2e-alerts-signing-secret' });
  },
  { timeout: 180_000 },
);

after(() => {
  stack?.stop();
  hook?.close();
});

const admin = (...args) => adminCli(stack, ...args);

async function api(method, path, body) {
  const res = await fetch(`${stack.url}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
  return res.json();
}

const chat = async (key) => {
  const res = await fetch(`${stack.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'mock/echo',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'spend' }],
    }),
  });
  assert.equal(res.status, 200);
  await res.text();
};

/** Polls (bounded by attempts) until `done()`; the queue delivers within its batch timeout. */
async function until(done, what) {
  for (let i = 0; i < 150 && !done(); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(done(), `timed out waiting for ${what}`);
}

function verify(secret, header, rawBody) {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=')));
  if (Math.abs(Date.now() / 1000 - Number(parts.t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${rawBody}`).digest('hex');
  return expected.length === parts.v1.length && timingSafeEqual(Buffer.from(expected), Buffer.from(parts.v1));
}

test('a crossed budget threshold reaches the local webhook once, signed', async () => {
  const tenant = await api('POST', '/tenants', {
    name: 'alerted',
    alert_webhook: `http://127.0.0.1:${HOOK_PORT}/edgeway`,
  });
  const key = await api('POST', '/keys', {
    tenant_id: tenant.id,
    budgets: { tokens: { day: 1000 } },
    alerts: { thresholds: [1, 99] },
  });
  await chat(key.key);
  await until(() => received.length > 0, 'the alert');
  // Listed once; a second request within the same 1–99 % band fires nothing new.
  await chat(key.key);
  const listed = await admin('alerts', 'list', tenant.id);
  assert.deepEqual(
    listed.data.map((a) => [a.key_id, a.threshold, a.queued]),
    [[key.id, 1, true]],
  );

  const { secret } = await admin('alerts', 'secret', tenant.id);
  const [delivery] = received;
  assert.ok(verify(secret, delivery.headers['x-edgeway-signature'], delivery.body));
  const body = JSON.parse(delivery.body);
  assert.equal(body.tenant_id, tenant.id);
  assert.equal(body.key_id, key.id);
  assert.equal(body.budget, 'tokens_day');
  assert.equal(body.threshold, 1);
  assert.equal(delivery.headers['x-edgeway-alert-id'], body.id);
  assert.equal(received.length, 1);
});
