// Client aborts over real TCP, against workerd (the bench's Miniflare direct sockets): a client that
// disconnects mid-stream must free its concurrency slot at once, leave nothing reserved, be logged,
// and be charged — in the ledger and in its log row — the same tokens for what it was delivered.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { bundle, startGateway, startMock } from '../../bench/lib/stack.mjs';

const ADMIN = 'abort-test-admin';
const ROUNDS = 20;
const PER_ROUND = 5;
let mock;
let gateway;

before(
  async () => {
    mock = await startMock(bundle('workers/mock-llm/wrangler.toml', 'mock'));
    gateway = await startGateway(bundle('wrangler.toml', 'gateway'), {
      mockUrl: mock.url,
      adminToken: ADMIN,
    });
  },
  { timeout: 180_000 },
);

after(async () => {
  await gateway?.dispose();
  await mock?.dispose();
});

async function admin(path, body) {
  const res = await fetch(`${gateway.url}/admin${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  assert.ok(res.ok, `admin ${path} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Polls `read` until `done(value)` or the deadline; returns the last value. */
async function until(read, done, ms) {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

/** Opens a long stream, reads its first chunk, then drops the connection. */
async function openAndAbort(key) {
  const ac = new AbortController();
  const res = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'mock/mock-small',
      stream: true,
      messages: [{ role: 'user', content: 'Tell me a long story.' }],
      mock: { tokens: 400, pace_ms: 25 },
    }),
    signal: ac.signal,
  });
  if (res.status !== 200) assert.fail(`stream refused: ${res.status} ${await res.text()}`);
  const reader = res.body.getReader();
  const first = await reader.read();
  assert.ok(!first.done && first.value.byteLength > 0);
  ac.abort();
}

test(`${ROUNDS * PER_ROUND} client aborts leave nothing held, and each is logged and charged once`, {
  timeout: 180_000,
}, async () => {
  const tenant = await admin('/tenants', { name: 'aborts' });
  const key = await admin('/keys', {
    tenant_id: tenant.id,
    name: 'aborts',
    limits: { concurrent: PER_ROUND },
    budgets: { tokens: { day: 10_000_000 } },
  });
  const limits = () => admin(`/limits/keys/${key.id}`);
  const slowest = [];
  for (let round = 0; round < ROUNDS; round++) {
    await Promise.all(Array.from({ length: PER_ROUND }, () => openAndAbort(key.key)));
    // The slots come back at once: the next round (at the concurrency limit) must not wait out a timeout.
    const started = Date.now();
    const state = await until(limits, (s) => s.concurrent.in_flight === 0, 5_000);
    assert.equal(state.concurrent.in_flight, 0, `round ${round}: slots still held`);
    slowest.push(Date.now() - started);
  }
  const state = await limits();
  assert.equal(state.concurrent.in_flight, 0);
  assert.equal(state.budget_usage.tokens.day.reserved, 0);

  const total = ROUNDS * PER_ROUND;
  const rows = await until(
    async () => {
      const page = await admin(`/logs?key_id=${key.id}&limit=100`);
      return page.data;
    },
    (data) => data.length >= total,
    15_000,
  );
  assert.equal(rows.length, total, 'every aborted request is logged');
  let logged = 0;
  for (const row of rows) {
    assert.equal(row.stream, true);
    assert.equal(row.stream_completed, false);
    assert.equal(row.error_code, 'client_disconnected');
    assert.equal(row.error_source, 'client', 'a disconnect is not blamed on the provider');
    assert.ok(row.output_tokens > 0, 'what was delivered is in the log');
    assert.ok(row.cost_usd > 0, 'and costs what the limiter charged');
    logged += row.input_tokens + row.output_tokens;
  }
  assert.equal(state.budget_usage.tokens.day.spent, logged, 'ledger = sum of logged tokens');
  assert.ok(Math.max(...slowest) < 5_000, `slowest release ${Math.max(...slowest)} ms`);
});
