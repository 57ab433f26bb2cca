import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Breaker } from '../../../src/durable/breaker';
import { COOLDOWN_MS, MIN_CALLS, PROBE_LEASE_MS } from '../../../src/routing/breaker';

// Far in the future and fixed: the object's clock is injected.
const T0 = Date.UTC(2099, 0, 1);
const fail = (at: number) => ({ ok: false, ttfbMs: null, at });

/** A fresh target's Breaker stub, with its clock set to `clock.now` for every call. */
async function breakerFor(clock: { now: number }) {
  const stub = env.BREAKER.get(env.BREAKER.idFromName(`test/${crypto.randomUUID()}`));
  await runInDurableObject(stub, (breaker: Breaker) => {
    breaker.now = () => clock.now;
  });
  return stub;
}

describe('the Breaker Durable Object', () => {
  it('opens after enough failed calls from any isolate, and says until when', async () => {
    const clock = { now: T0 };
    const stub = await breakerFor(clock);
    const closed = await stub.report([fail(T0), fail(T0), { ok: true, ttfbMs: 120, at: T0 }]);
    expect(closed.open).toBeNull();
    const open = await stub.report(Array.from({ length: MIN_CALLS }, () => fail(T0)));
    expect(open.open).toEqual({
      kind: 'open',
      retryAt: T0 + COOLDOWN_MS,
      cooldownMs: COOLDOWN_MS,
      probeUntil: 0,
    });
    expect(open.health).toMatchObject({ calls: 8, failures: 7, ttfbSum: 120, ttfbWeight: 1 });
    expect((await stub.view()).open).toEqual(open.open);
  });

  it('grants the half-open probe to exactly one of two racing claims, then to nobody until its lease ends', async () => {
    const clock = { now: T0 };
    const stub = await breakerFor(clock);
    await stub.report(Array.from({ length: MIN_CALLS }, () => fail(T0)));
    expect((await stub.claimProbe()).verdict).toBe('open');

    clock.now = T0 + COOLDOWN_MS;
    const claims = await Promise.all([stub.claimProbe(), stub.claimProbe()]);
    expect(claims.map((c) => c.verdict).sort()).toEqual(['open', 'probe']);
    expect((await stub.claimProbe()).verdict).toBe('open');

    clock.now = T0 + COOLDOWN_MS + PROBE_LEASE_MS;
    expect((await stub.claimProbe()).verdict).toBe('probe');
  });

  it('closes on the probe success and re-opens for twice as long on its failure', async () => {
    const clock = { now: T0 };
    const stub = await breakerFor(clock);
    await stub.report(Array.from({ length: MIN_CALLS }, () => fail(T0)));

    clock.now = T0 + COOLDOWN_MS;
    await stub.claimProbe();
    const reopened = await stub.report([fail(clock.now)]);
    expect(reopened.open).toMatchObject({
      retryAt: clock.now + 2 * COOLDOWN_MS,
      cooldownMs: 2 * COOLDOWN_MS,
    });

    clock.now += 2 * COOLDOWN_MS;
    expect((await stub.claimProbe()).verdict).toBe('probe');
    const closed = await stub.report([{ ok: true, ttfbMs: 300, at: clock.now }]);
    expect(closed.open).toBeNull();
    expect((await stub.claimProbe()).verdict).toBe('closed');
  });

  it('keeps its state in storage and skips malformed outcomes', async () => {
    const clock = { now: T0 };
    const stub = await breakerFor(clock);
    const junk = [
      null,
      { ok: 'no', at: T0 },
      { ok: false, ttfbMs: -1, at: T0 },
      { ok: false, at: Number.NaN },
    ];
    // @ts-expect-error: what a buggy caller might send.
    const view = await stub.report(junk);
    expect(view.health.calls).toBe(0);

    await stub.report(Array.from({ length: MIN_CALLS }, () => fail(T0)));
    const stored = await runInDurableObject(stub, (_: Breaker, state: DurableObjectState) =>
      state.storage.sql.exec<{ state: string }>('SELECT state FROM breaker').one(),
    );
    expect(JSON.parse(stored.state)).toMatchObject({ kind: 'open', retryAt: T0 + COOLDOWN_MS });
  });
});
