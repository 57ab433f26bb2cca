import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Charge, ReserveInput, ScopeSettings } from '../../../src/limits/protocol';
import { periodKey } from '../../../src/limits/periods';
import { limiterOf } from '../limits-helpers';

const ONE_AT_A_TIME: ScopeSettings = { limits: { concurrent: 1 }, budgets: { tokens: { day: 1_000 } } };

function input(cost: unknown, ttlMs: unknown = 60_000): ReserveInput {
  return { keyId: 'key_a', key: ONE_AT_A_TIME, tenant: ONE_AT_A_TIME, cost, ttlMs } as ReserveInput;
}

/** Amounts no caller may hold: negative, fractional, non-finite, past 2^53, or not numbers at all. */
const BAD_AMOUNTS: unknown[] = [-1, -1_000_000, 1.5, Number.NaN, Infinity, -Infinity, 2 ** 53, '5', null];
const BAD_COSTS: unknown[] = [
  ...BAD_AMOUNTS.map((tokens) => ({ tokens, nanos: 0 })),
  ...BAD_AMOUNTS.map((nanos) => ({ tokens: 1, nanos })),
  null,
  undefined,
  'free',
];

const fresh = () => limiterOf(`ten_${crypto.randomUUID()}`);

async function expectUntouched(stub: ReturnType<typeof limiterOf>) {
  await runInDurableObject(stub, (limiter, state) => {
    for (const scope of ['key_a', null]) {
      const { state: s } = limiter.dump(scope);
      expect(s.inflight).toBe(0);
      for (const row of Object.values(s.ledger))
        expect(row).toMatchObject({ tokensSpent: 0, tokensHeld: 0, nanosSpent: 0, nanosHeld: 0 });
    }
    expect(state.storage.sql.exec('SELECT COUNT(*) AS n FROM reservations').one().n).toBe(0);
  });
}

describe('the Limiter Durable Object refuses amounts it cannot hold', () => {
  it('refuses a reserve with a bad cost over RPC, writing nothing', async () => {
    const stub = fresh();
    for (const cost of BAD_COSTS) {
      expect(await stub.reserve(input(cost)), JSON.stringify(cost) ?? String(cost)).toEqual({
        ok: false,
        invalid: expect.stringMatching(/non-negative safe integers/),
      });
    }
    await expectUntouched(stub);
    const ok = await stub.reserve(input({ tokens: 10, nanos: 10 }));
    expect(ok.ok).toBe(true);
  });

  it('refuses a reserve with a bad TTL, writing nothing', async () => {
    const stub = fresh();
    for (const ttl of [0, -1, Number.NaN, Infinity, 30 * 24 * 3600 * 1000, '60000'])
      expect(await stub.reserve(input({ tokens: 1, nanos: 1 }, ttl)), String(ttl)).toEqual({
        ok: false,
        invalid: expect.stringMatching(/ttlMs/),
      });
    await expectUntouched(stub);
  });

  it('charges what was held for a settle with a bad charge, and releases the slot', async () => {
    const stub = fresh();
    for (const actual of BAD_COSTS.filter((c) => c !== null)) {
      const r = await stub.reserve(input({ tokens: 10, nanos: 20 }));
      if (!r.ok) throw new Error(`refused after settling ${JSON.stringify(actual)}: ${JSON.stringify(r)}`);
      expect(await stub.settle(r.id, actual as Charge)).toBe(true);
    }
    const settles = BAD_COSTS.length - 1;
    await runInDurableObject(stub, (limiter) => {
      for (const scope of ['key_a', null]) {
        const { state } = limiter.dump(scope);
        expect(state.inflight).toBe(0);
        expect(state.ledger.day).toMatchObject({
          tokensSpent: 10 * settles,
          tokensHeld: 0,
          nanosSpent: 20 * settles,
          nanosHeld: 0,
        });
      }
    });
    expect((await stub.reserve(input({ tokens: 1, nanos: 1 }))).ok).toBe(true);
  });

  it('counts rows corrupted before these checks (infinite or negative) as nothing, so the key is not locked', async () => {
    const stub = fresh();
    await runInDurableObject(stub, (_limiter, state) => {
      const day = periodKey('day', Date.now());
      for (const scope of ['key:key_a', 'tenant'])
        state.storage.sql.exec(
          'INSERT INTO ledger (scope, period, tokens_spent, tokens_held, nanos_spent, nanos_held) VALUES (?, ?, ?, ?, ?, ?)',
          scope,
          day,
          -5,
          Infinity,
          0,
          -Infinity,
        );
      state.storage.sql.exec(`INSERT INTO scopes VALUES ('key:key_a', ?, 0, 0, 0, 0, 0, ?)`, -3, Infinity);
    });
    const r = await stub.reserve(input({ tokens: 10, nanos: 10 }));
    if (!r.ok) throw new Error(`locked: ${JSON.stringify(r)}`);
    expect(await stub.settle(r.id, { tokens: 7, nanos: 7 })).toBe(true);
    const { state } = await runInDurableObject(stub, (limiter) => limiter.dump('key_a'));
    expect(state.inflight).toBe(0);
    expect(state.ledger.day).toMatchObject({ tokensSpent: 7, tokensHeld: 0, nanosSpent: 7, nanosHeld: 0 });
  });
});
