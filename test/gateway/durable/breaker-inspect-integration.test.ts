/**
 * The Breaker object's `inspect`, the admin API's read: open since it opened,
 * half-open once the cooldown ends, and closed since the probe closed it — a
 * time kept in storage, so a new instance of the object still knows it.
 */
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Breaker } from '../../../src/durable/breaker';
import { COOLDOWN_MS, MIN_CALLS } from '../../../src/routing/breaker';

const T0 = Date.UTC(2099, 0, 1);
const fail = (at: number) => ({ ok: false, ttfbMs: null, at });

describe('Breaker.inspect', () => {
  it('reads open since it opened, half-open after the cooldown, closed since the probe closed it', async () => {
    const clock = { now: T0 };
    const name = `inspect/${crypto.randomUUID()}`;
    const stub = env.BREAKER.get(env.BREAKER.idFromName(name));
    await runInDurableObject(stub, (b: Breaker) => {
      b.now = () => clock.now;
    });
    expect(await stub.inspect()).toMatchObject({ phase: 'closed', since: null, windowCalls: 0 });

    await stub.report([{ ok: true, ttfbMs: 50, at: T0 }, fail(T0)]);
    expect(await stub.inspect()).toMatchObject({ phase: 'closed', windowCalls: 2, windowFailures: 1 });

    await stub.report(Array.from({ length: MIN_CALLS }, () => fail(T0)));
    expect(await stub.inspect()).toMatchObject({ phase: 'open', since: T0, retryAt: T0 + COOLDOWN_MS });

    clock.now = T0 + COOLDOWN_MS;
    expect(await stub.inspect()).toMatchObject({ phase: 'half-open', since: T0 + COOLDOWN_MS });
    expect((await stub.claimProbe()).verdict).toBe('probe');
    await stub.report([{ ok: true, ttfbMs: 40, at: clock.now }]);
    const closed = await stub.inspect();
    expect(closed).toMatchObject({ phase: 'closed', since: T0 + COOLDOWN_MS, retryAt: null });
    // MIN_CALLS + 1 failures, half a half-life (15 s of 30 s) ago.
    expect(closed.health.failures).toBeCloseTo((MIN_CALLS + 1) * Math.SQRT1_2, 6);

    // The closing time is stored: a fresh instance (as after an eviction) reads it back.
    await runInDurableObject(stub, async (_b: Breaker, state) => {
      const rows = state.storage.sql.exec<{ at: number }>('SELECT at FROM breaker_closed').toArray();
      expect(rows).toEqual([{ at: T0 + COOLDOWN_MS }]);
    });
  });
});
