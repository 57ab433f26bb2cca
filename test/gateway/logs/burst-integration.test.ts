/**
 * A burst of 1,000 requests ends with exactly 1,000 log rows and rollups that
 * match them: once through the real gateway and queue, and once through the
 * consumer with batches of 100 that are partly redelivered.
 * The gateway burst calls the Worker's fetch handler directly: SELF.fetch in
 * vitest-pool-workers slows down with every request a test makes (even
 * /healthz), so 1,000 of them would take minutes; the handler, its
 * waitUntil and the local queue are the same either way.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../../src/index';
import { chatBody, inParallel, seedKey } from '../helpers';
import {
  bindings,
  bindingsWithoutArchive,
  clearLogs,
  deliver,
  logCount,
  logEvent,
  LOG_QUEUE,
  usageRows,
  waitForLogs,
} from '../log-fixtures';

const BURST = 1_000;

async function gateway(body: unknown, key: string): Promise<Response> {
  const ctx = createExecutionContext();
  const req = new Request('http://gw.test/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const res = await worker.fetch(req, bindings, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return new Response(text, res);
}

/** Sums of the raw rows, per rollup bucket, computed independently of the consumer. */
async function sumsFromRows() {
  const { results } = await env.DB.prepare(
    `SELECT coalesce(tenant_id, '') AS tenant_id, day, coalesce(key_id, '') AS key_id, coalesce(model, '') AS model, count(*) AS requests,
       sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens, sum(cost_usd) AS cost_usd
     FROM request_logs GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
  ).all<{ requests: number; input_tokens: number; output_tokens: number; cost_usd: number }>();
  return results;
}

describe('a burst of 1,000 requests', () => {
  it('through the gateway and the queue: exactly 1,000 rows and matching rollups', async () => {
    await clearLogs();
    const keys = await Promise.all([
      seedKey({ tenantId: 'ten_burst_a' }),
      seedKey({ tenantId: 'ten_burst_a' }),
      seedKey({ tenantId: 'ten_burst_b' }),
    ]);
    const ids = await inParallel(BURST, 25, async (i) => {
      const res = await gateway(chatBody(`burst ${i} ${'w '.repeat(i % 7)}`), keys[i % keys.length]!.secret);
      expect(res.status).toBe(200);
      return res.headers.get('x-edgeway-request-id')!;
    });
    expect(new Set(ids).size).toBe(BURST);
    await waitForLogs(ids, 30_000);
    expect(await logCount()).toBe(BURST);

    const rollups = await usageRows();
    const sums = await sumsFromRows();
    expect(rollups.reduce((n, r) => n + r.requests, 0)).toBe(BURST);
    expect(
      rollups.map(({ tenant_id, day, key_id, model, requests, input_tokens, output_tokens }) => ({
        tenant_id,
        day,
        key_id,
        model,
        requests,
        input_tokens,
        output_tokens,
      })),
    ).toEqual(sums.map(({ cost_usd: _, ...s }) => s));
    for (const [i, r] of rollups.entries()) expect(r.cost_usd).toBeCloseTo(sums[i]!.cost_usd, 12);
  }, 60_000);

  it('through the consumer in batches of 100, with every other batch redelivered: still exactly 1,000', async () => {
    await clearLogs();
    const events = Array.from({ length: BURST }, (_, i) =>
      logEvent({ keyId: `key_${i % 4}`, inputTokens: i, outputTokens: 1, costUsd: i / 1e6 }),
    );
    for (let start = 0; start < BURST; start += 100) {
      const batch = events.slice(start, start + 100);
      // Single-event messages (the legacy shape) would each be an archive object: D1's side alone here.
      expect((await deliver(LOG_QUEUE, batch, bindingsWithoutArchive)).ackAll).toBe(true);
      if ((start / 100) % 2 === 0)
        await deliver(
          LOG_QUEUE,
          batch.map((body) => ({ body, attempts: 2 })),
          bindingsWithoutArchive,
        );
    }
    expect(await logCount()).toBe(BURST);
    const rollups = await usageRows();
    expect(rollups).toHaveLength(4);
    expect(rollups.reduce((n, r) => n + r.requests, 0)).toBe(BURST);
    expect(rollups.reduce((n, r) => n + r.input_tokens, 0)).toBe((BURST * (BURST - 1)) / 2);
    expect(rollups.reduce((n, r) => n + r.cost_usd, 0)).toBeCloseTo((BURST * (BURST - 1)) / 2 / 1e6, 9);
  });
});
