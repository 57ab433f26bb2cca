import { describe, expect, it } from 'vitest';
import { KeyRecord } from '../../../src/core/key-record';
import type { Reservation } from '../../../src/core/limiter';
import type { Principal } from '../../../src/core/principal';
import { parseProxyRequest } from '../../../src/core/request';
import { NANOS_PER_USD } from '../../../src/limits/protocol';
import { GatewayError } from '../../../src/core/errors';
import { chatBody } from '../helpers';
import { dump, leasingAdapter } from '../limits-helpers';

// $1,000 per 1M tokens: one token is 1,000,000 nano-dollars.
const PRICE = {
  'mock/echo': { input: 1_000, output: 1_000, cached: 0, cache_write: 1_000, cache_write_1h: 1_000 },
};
const NANOS_PER_TOKEN = 1_000_000;
// 'one two three four' with max_tokens 10: a worst case of 12 + 10 = 22 tokens.
const REQUEST = parseProxyRequest('chat', chatBody('one two three four', { max_tokens: 10 }));
const WORST = 22;

/** One isolate's limits adapter, with leases on and its Durable Object calls counted. */
const isolate = (calls: { reserve: number; settle: number }) => leasingAdapter(PRICE, calls);

const principalFor = (tenantId: string, over: Partial<KeyRecord>): Principal =>
  KeyRecord.parse({
    id: `key_${crypto.randomUUID()}`,
    tenantId,
    status: 'active',
    models: null,
    expiresAt: null,
    ...over,
  });

/**
 * `n` requests at once, spread over `isolates` adapters (each its own lease book),
 * all for one key of one tenant; every admitted one then settles with `usage(i)`
 * output tokens, and every lease reports. Returns what was admitted and settled.
 */
async function burst(principal: Principal, n: number, isolates: number, output: (i: number) => number) {
  const calls = { reserve: 0, settle: 0 };
  const adapters = Array.from({ length: isolates }, () => isolate(calls));
  const outcomes = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      adapters[i % isolates]!.reserve(principal, REQUEST).then(
        (r): Reservation | GatewayError => r,
        (err: unknown) => {
          if (err instanceof GatewayError) return err;
          throw err;
        },
      ),
    ),
  );
  let settledNanos = 0;
  let excessNanos = 0;
  const admitted = outcomes.filter((o): o is Reservation => !(o instanceof GatewayError));
  await Promise.all(
    admitted.map((r, i) => {
      const out = output(i);
      settledNanos += (12 + out) * NANOS_PER_TOKEN;
      excessNanos += Math.max(0, 12 + out - WORST) * NANOS_PER_TOKEN;
      return r.settle({
        inputTokens: 12,
        outputTokens: out,
        cachedTokens: 0,
        cacheWriteTokens: 0,
        cacheWrite1hTokens: 0,
        reasoningTokens: 0,
      });
    }),
  );
  await Promise.all(admitted.map((r) => r.background));
  const refusals = outcomes.filter((o): o is GatewayError => o instanceof GatewayError);
  return { admitted: admitted.length, refusals, settledNanos, excessNanos, calls };
}

describe('leases across isolates', () => {
  it('200 concurrent requests over four isolates never spend past the budget, with far fewer object calls', async () => {
    const tenantId = `ten_${crypto.randomUUID()}`;
    const budget = 2; // USD: 90 worst cases of $0.022; each request really spends 12 + 0…10 tokens.
    const principal = principalFor(tenantId, { tenantBudgets: { usd: { total: budget } } });
    const result = await burst(principal, 200, 4, (i) => i % 11);

    const { state } = await dump(tenantId);
    expect(state.ledger.total.nanosSpent).toBe(result.settledNanos);
    expect(state.ledger.total.nanosHeld).toBe(0);
    expect(state.inflight).toBe(0);
    // The documented bound: no more than the budget plus what requests used past their own worst case (none here).
    expect(result.excessNanos).toBe(0);
    expect(state.ledger.total.nanosSpent).toBeLessThanOrEqual(budget * NANOS_PER_USD);
    for (const refusal of result.refusals) expect(refusal.code).toBe('budget_exceeded');
    expect(result.admitted + result.refusals.length).toBe(200);
    // Leases strand some allowance while open, but most of what fits is admitted.
    expect(result.admitted).toBeGreaterThanOrEqual(45);
    // Without leases: 200 reserves and a settle per admitted request. Refusals still ask the object.
    expect(result.calls.reserve + result.calls.settle).toBeLessThan(200 + result.admitted - 40);
  });

  it('holds the bound when a provider writes past max_tokens: budget + the excess of those requests', async () => {
    const tenantId = `ten_${crypto.randomUUID()}`;
    const budget = 1;
    const principal = principalFor(tenantId, { budgets: { usd: { day: budget } } });
    // Every fifth admitted request uses 15 output tokens against a cap of 10.
    const result = await burst(principal, 200, 3, (i) => (i % 5 === 0 ? 15 : 8));

    const { state } = await dump(tenantId, principal.id);
    expect(state.ledger.day.nanosSpent).toBe(result.settledNanos);
    expect(result.excessNanos).toBeGreaterThan(0);
    expect(state.ledger.day.nanosSpent).toBeLessThanOrEqual(budget * NANOS_PER_USD + result.excessNanos);
  });

  it('admits a busy key from leases: one object call per many requests, and the rate window stays exact', async () => {
    const tenantId = `ten_${crypto.randomUUID()}`;
    const principal = principalFor(tenantId, { limits: { rpm: 100_000, tpm: 100_000_000 } });
    const calls = { reserve: 0, settle: 0 };
    const adapter = isolate(calls);
    const pending: Promise<unknown>[] = [];
    let last = '';
    for (let i = 0; i < 300; i++) {
      const r = await adapter.reserve(principal, REQUEST);
      last = r.headers['x-ratelimit-remaining-requests'] ?? '';
      pending.push(
        r.settle({
          inputTokens: 12,
          outputTokens: 4,
          cachedTokens: 0,
          cacheWriteTokens: 0,
          cacheWrite1hTokens: 0,
          reasoningTokens: 0,
        }),
      );
      if (r.background) pending.push(r.background);
    }
    // One isolate alone: the header counts every request exactly.
    expect(last).toBe(String(100_000 - 300));
    await Promise.all(pending);
    expect(calls.reserve).toBeLessThan(30);
    const { state } = await dump(tenantId, principal.id);
    expect(state.requests.cur + state.requests.prev).toBe(300);
    expect(state.tokens.cur + state.tokens.prev).toBe(300 * 16);
    expect(state.inflight).toBe(0);
  });
});
