/**
 * Wrong admin tokens are throttled per client, across isolates (the Throttle
 * Durable Object), with a cache that spares the object most calls; and every
 * admin answer carries nosniff and no-store.
 */
import { env, runInDurableObject, SELF } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { ThrottleGate, STATUS_TTL_MS } from '../../../../src/admin/access/throttle-gate';
import {
  THROTTLE_BLOCK_MS,
  THROTTLE_LIMIT,
  type ThrottleStore,
} from '../../../../src/core/throttle-protocol';
import { throttleObjects, type Throttle } from '../../../../src/durable/throttle';
import { ADMIN_TOKEN } from '../../admin-helpers';

function adminAs(ip: string | null, token: string | null, path = '/admin/tenants'): Promise<Response> {
  const headers: Record<string, string> = {};
  if (ip) headers['cf-connecting-ip'] = ip;
  if (token) headers.authorization = `Bearer ${token}`;
  return SELF.fetch(`http://gw.test${path}`, { headers });
}

/** The real store, counting the calls that reach the Durable Object. */
function countingStore(): ThrottleStore & { calls: { fail: number; status: number } } {
  const real = throttleObjects(env.THROTTLE);
  const calls = { fail: 0, status: 0 };
  return {
    calls,
    fail: (client) => {
      calls.fail += 1;
      return real.fail(client);
    },
    blockedUntil: (client) => {
      calls.status += 1;
      return real.blockedUntil(client);
    },
  };
}

describe('wrong admin tokens', () => {
  it(`answer 429 with retry-after from the ${THROTTLE_LIMIT}th failure, even for the right token`, async () => {
    const ip = '203.0.113.10';
    const statuses: number[] = [];
    for (let i = 0; i < THROTTLE_LIMIT; i++) statuses.push((await adminAs(ip, `wrong-${i}`)).status);
    expect(statuses).toEqual([...Array(THROTTLE_LIMIT - 1).fill(401), 429]);

    const right = await adminAs(ip, ADMIN_TOKEN);
    expect(right.status).toBe(429);
    const retryAfter = Number(right.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(THROTTLE_BLOCK_MS / 1000);
    expect(await right.json()).toMatchObject({
      error: {
        code: 'too_many_attempts',
        type: 'rate_limit_error',
        message: expect.stringMatching(/try again/),
      },
    });
    expect(right.headers.get('x-content-type-options')).toBe('nosniff');
    expect(right.headers.get('cache-control')).toBe('no-store');
  });

  it('block only the client that failed', async () => {
    for (let i = 0; i < THROTTLE_LIMIT; i++) await adminAs('203.0.113.11', 'wrong');
    expect((await adminAs('203.0.113.12', ADMIN_TOKEN)).status).toBe(200);
    expect((await adminAs('2001:db8:aa:bb::1', ADMIN_TOKEN)).status).toBe(200);
  });

  it('count a whole IPv6 /64 as one client', async () => {
    for (let i = 0; i < THROTTLE_LIMIT; i++) await adminAs(`2001:db8:cc:dd::${i + 1}`, 'wrong');
    expect((await adminAs('2001:db8:cc:dd:ffff::9', ADMIN_TOKEN)).status).toBe(429);
  });

  it('do not count a request that sends no token (it guesses nothing)', async () => {
    const ip = '203.0.113.13';
    for (let i = 0; i < THROTTLE_LIMIT * 2; i++) expect((await adminAs(ip, null)).status).toBe(401);
    expect((await adminAs(ip, ADMIN_TOKEN)).status).toBe(200);
  });
});

describe('the throttle across isolates', () => {
  it('adds up failures made through different isolates', async () => {
    const client = '198.51.100.1';
    const a = new ThrottleGate(throttleObjects(env.THROTTLE));
    const b = new ThrottleGate(throttleObjects(env.THROTTLE));
    for (let i = 0; i < THROTTLE_LIMIT / 2; i++) expect(await a.failed(client)).toBe(0);
    for (let i = 0; i < THROTTLE_LIMIT / 2 - 1; i++) expect(await b.failed(client)).toBe(0);
    expect(await b.failed(client)).toBeGreaterThan(0);
    // A third isolate that never saw this client refuses it before any guess is compared.
    expect(await new ThrottleGate(throttleObjects(env.THROTTLE)).check(client)).toBeGreaterThan(0);
  });

  it('refuses a blocked client from memory: no Durable Object call per attempt', async () => {
    const store = countingStore();
    const gate = new ThrottleGate(store);
    const client = '198.51.100.2';
    for (let i = 0; i < THROTTLE_LIMIT; i++) await gate.failed(client);
    const before = { ...store.calls };
    for (let i = 0; i < 500; i++) expect(await gate.check(client)).toBeGreaterThan(0);
    expect(store.calls).toEqual(before);
  });

  it('lets an unblocked client through with one status read per STATUS_TTL_MS, and no write', async () => {
    let now = 1_000_000;
    const store = countingStore();
    const gate = new ThrottleGate(store, () => now);
    for (let i = 0; i < 200; i++) {
      expect(await gate.check('198.51.100.3')).toBe(0);
      now += 50;
    }
    // 200 checks over 10 s of clock: one read per STATUS_TTL_MS (5 s).
    expect(store.calls).toEqual({ fail: 0, status: Math.ceil((200 * 50) / STATUS_TTL_MS) });
  });

  it('fails open on the store but still counts failures in the isolate', async () => {
    const broken: ThrottleStore = {
      fail: () => Promise.reject(new Error('Durable Object overloaded')),
      blockedUntil: () => Promise.reject(new Error('Durable Object overloaded')),
    };
    const reported = vi.spyOn(console, 'error').mockImplementation(() => {});
    const gate = new ThrottleGate(broken);
    expect(await gate.check('198.51.100.4')).toBe(0);
    const results: number[] = [];
    for (let i = 0; i < THROTTLE_LIMIT; i++) results.push(await gate.failed('198.51.100.4'));
    expect(results.slice(0, -1).every((r) => r === 0)).toBe(true);
    expect(results.at(-1)).toBeGreaterThan(0);
    expect(await gate.check('198.51.100.4')).toBeGreaterThan(0);
    expect(reported).toHaveBeenCalledWith('admin throttle store failed', 'Durable Object overloaded');
    reported.mockRestore();
  });

  it('forgets a client once its window and block are over (the alarm empties the object)', async () => {
    const ns = env.THROTTLE;
    const stub = ns.get(ns.idFromName('198.51.100.5'));
    await stub.fail();
    await runInDurableObject(stub, async (object: Throttle, state) => {
      object.now = () => Date.now() + 2 * THROTTLE_BLOCK_MS;
      await object.alarm();
      expect(state.storage.sql.exec('SELECT COUNT(*) AS n FROM failures').one().n).toBe(0);
    });
  });
});

describe('every admin answer', () => {
  it.each([
    ['an authorised read', '/admin/tenants', ADMIN_TOKEN],
    ['a 401', '/admin/tenants', null],
    ['a 404', '/admin/nothing-here', ADMIN_TOKEN],
    ['the OpenAPI document', '/admin/openapi.json', null],
  ])('carries nosniff and no-store: %s', async (_, path, token) => {
    const res = await adminAs('203.0.113.20', token, path);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
