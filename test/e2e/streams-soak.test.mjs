// End to end: 200 concurrent ~20 s streams on a budgeted key through the local
// stack. Under `wrangler dev` this pushed wrangler's proxy to 20,000 sockets and cut most streams
// with `503 Your worker restarted mid-request`; now every stream completes or gets a clean 429 and no
// process of the stack holds more than a few sockets per stream (bench/soak-streams.mjs, where the
// bound is defined; docs/operations-dev.md explains the cause).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sampleOpenFiles, soakStreams, verdict } from '../../bench/soak-streams.mjs';
import { startTestStack } from './stack.mjs';

const STREAMS = 200;
const TOKENS = 100;
const PACE_MS = 200;
/** Room for about three quarters of the streams' reservations (prompt estimate + max_tokens). */
const BUDGET = Math.round(STREAMS * 0.75 * (TOKENS + 20));

let stack;
let key;

before(
  async () => {
    stack = await startTestStack(19087);
    const res = await fetch(`${stack.url}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tenant_id: stack.tenantId, name: 'soak', budgets: { tokens: { day: BUDGET } } }),
    });
    assert.equal(res.status, 201);
    key = (await res.json()).key;
  },
  { timeout: 180_000 },
);

after(() => stack?.stop());

test(`${STREAMS} concurrent long streams complete or get a clean 429, with bounded sockets`, {
  timeout: 90_000,
}, async () => {
  const sampler = sampleOpenFiles(Object.values(stack.pids));
  const result = await soakStreams({
    url: stack.url,
    key,
    streams: STREAMS,
    tokens: TOKENS,
    paceMs: PACE_MS,
  });
  const peaks = sampler.stop();

  assert.deepEqual(verdict(result, peaks, STREAMS), [], JSON.stringify({ result, peaks }, null, 2));
  assert.ok(result.outcomes.complete >= STREAMS / 2, JSON.stringify(result.outcomes));
  assert.ok(result.outcomes['budget 429'] >= 1, JSON.stringify(result.outcomes));
  if (sampler.supported) assert.ok(peaks.length >= 4, `saw only ${peaks.map((p) => p.process)}`);

  const health = await fetch(`${stack.url}/healthz`);
  assert.equal(health.status, 200);
});
