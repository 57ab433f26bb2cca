/**
 * Scopes below keys and tenants on real Limiter objects: end users (in the tenant's user shards),
 * model rules and tag rules, checked with the key and tenant in one reservation each object, over
 * several isolates' adapters (each its own lease book).
 */
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { KeyRecord } from '../../../src/core/key-record';
import { DowngradeRequired, type RequestScope, type Reservation } from '../../../src/core/limiter';
import type { Principal } from '../../../src/core/principal';
import { parseProxyRequest } from '../../../src/core/request';
import { GatewayError } from '../../../src/core/errors';
import { limiterObjects } from '../../../src/durable/limiter';
import { NANOS_PER_USD, type ScopeDump } from '../../../src/limits/protocol';
import { shardOf, userShardName } from '../../../src/limits/shards';
import { chatBody } from '../helpers';
import { leasingAdapter } from '../limits-helpers';

// $1,000 per 1M tokens: one token is 1,000,000 nano-dollars.
const PRICE = {
  'mock/echo': { input: 1_000, output: 1_000, cached: 0, cache_write: 1_000, cache_write_1h: 1_000 },
  'mock/cheap': { input: 10, output: 10, cached: 0, cache_write: 10, cache_write_1h: 10 },
};
const NANOS_PER_TOKEN = 1_000_000;
// 'one two three four' with max_tokens 10: a worst case of 12 + 10 = 22 tokens ($0.022 on mock/echo).
const REQUEST = parseProxyRequest('chat', chatBody('one two three four', { max_tokens: 10 }));
const USAGE = (output: number) => ({
  inputTokens: 12,
  outputTokens: output,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  cacheWrite1hTokens: 0,
  reasoningTokens: 0,
});

const objects = limiterObjects(env.LIMITER);

const isolate = () => leasingAdapter(PRICE);

const principalFor = (tenantId: string, over: Partial<KeyRecord>): Principal =>
  KeyRecord.parse({
    id: `key_${crypto.randomUUID().slice(0, 8)}`,
    tenantId,
    status: 'active',
    models: null,
    expiresAt: null,
    ...over,
  });

const userScope = (id: string, param = 'x-edgeway-user'): RequestScope => ({
  endUser: { id, param },
  tags: null,
});

const tenantDump = (tenantId: string, scopeId: string): Promise<ScopeDump> =>
  runInDurableObject(objects(tenantId), (o) => o.dumpScope(scopeId));
const userDump = (tenantId: string, user: string): Promise<ScopeDump> =>
  runInDurableObject(objects(userShardName(tenantId, shardOf(user))), (o) => o.dumpScope(`user:${user}`));

type Outcome = Reservation | GatewayError | DowngradeRequired;

/** The scope a 429 names in its body. */
const scopeOf = (err: GatewayError): string =>
  (err.details?.limit as { scope?: string } | undefined)?.scope ?? '';

/** Reserves, turning refusals into values. */
async function attempt(
  adapter: ReturnType<typeof isolate>,
  principal: Principal,
  scope: RequestScope,
  request = REQUEST,
): Promise<Outcome> {
  try {
    return await adapter.reserve(principal, request, [request.model], scope);
  } catch (err) {
    if (err instanceof GatewayError || err instanceof DowngradeRequired) return err;
    throw err;
  }
}

const admittedOf = (outcomes: Outcome[]) =>
  outcomes.filter((o): o is Reservation => !(o instanceof GatewayError) && !(o instanceof DowngradeRequired));

describe('end users, model rules and the tenant in one reservation', () => {
  it('200 concurrent requests from 50 end users over 4 isolates: no scope passes its budget, every ledger equals the usage', async () => {
    const tenantId = `ten_${crypto.randomUUID()}`;
    // Per user $0.05 a day (two worst cases of $0.022: 100 in all), the model rule $1.8 (81), the tenant $5.
    const principal = principalFor(tenantId, {
      tenantBudgets: { usd: { total: 5 } },
      tenantScopes: {
        end_users: { limits: {}, budgets: { usd: { day: 0.05 } } },
        model_limits: [{ match: 'mock/*', limits: {}, budgets: { usd: { total: 1.8 } } }],
        tag_limits: [],
        tag_keys: [],
        downgrade: null,
      },
    });
    const users = Array.from({ length: 50 }, (_, i) => `u_${i}`);
    const adapters = Array.from({ length: 4 }, isolate);
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        attempt(adapters[i % 4]!, principal, userScope(users[i % 50]!)).then((o) => ({
          o,
          user: users[i % 50]!,
        })),
      ),
    );
    const spentBy = new Map<string, number>();
    let total = 0;
    await Promise.all(
      outcomes.map(({ o, user }, i) => {
        if (o instanceof GatewayError || o instanceof DowngradeRequired) return undefined;
        const out = i % 11; // 12 + 0…10 tokens: never past the worst case
        const nanos = (12 + out) * NANOS_PER_TOKEN;
        spentBy.set(user, (spentBy.get(user) ?? 0) + nanos);
        total += nanos;
        return o.settle(USAGE(out));
      }),
    );
    await Promise.all(admittedOf(outcomes.map((x) => x.o)).map((r) => r.background));

    const refusals = outcomes.map((x) => x.o).filter((o): o is GatewayError => o instanceof GatewayError);
    expect(refusals.length + admittedOf(outcomes.map((x) => x.o)).length).toBe(200);
    expect(refusals.length).toBeGreaterThan(0);
    for (const r of refusals) {
      expect(r.status).toBe(429);
      expect(['user', 'model', 'tenant']).toContain(scopeOf(r));
    }
    for (const user of users) {
      const { state } = await userDump(tenantId, user);
      expect(state.ledger.day.nanosSpent).toBe(spentBy.get(user) ?? 0);
      expect(state.ledger.day.nanosHeld).toBe(0);
      expect(state.inflight).toBe(0);
      expect(state.ledger.day.nanosSpent).toBeLessThanOrEqual(0.05 * NANOS_PER_USD);
    }
    const model = await tenantDump(tenantId, 'model:mock/*');
    const tenant = await tenantDump(tenantId, 'tenant');
    expect(model.state.ledger.total.nanosSpent).toBe(total);
    expect(tenant.state.ledger.total.nanosSpent).toBe(total);
    expect(model.state.ledger.total.nanosSpent).toBeLessThanOrEqual(1.8 * NANOS_PER_USD);
    expect(model.state.ledger.total.nanosHeld + tenant.state.ledger.total.nanosHeld).toBe(0);
    // Both the end users' budgets and the model rule's refused some (the tenant's is never reached).
    const scopes = new Set(refusals.map((r) => scopeOf(r)));
    expect([...scopes].sort()).toEqual(['model', 'user']);
  }, 60_000);

  it("serves exactly 10 of a brand-new end user's first 100 concurrent requests against a default of 10 a day", async () => {
    const tenantId = `ten_${crypto.randomUUID()}`;
    const principal = principalFor(tenantId, {
      tenantScopes: {
        end_users: { limits: {}, budgets: { requests: { day: 10 } } },
        model_limits: [],
        tag_limits: [],
        tag_keys: [],
        downgrade: null,
      },
    });
    const adapters = Array.from({ length: 4 }, isolate);
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        attempt(adapters[i % 4]!, principal, userScope('brand-new', 'user')),
      ),
    );
    const admitted = admittedOf(outcomes);
    expect(admitted).toHaveLength(10);
    const refusals = outcomes.filter((o): o is GatewayError => o instanceof GatewayError);
    expect(refusals).toHaveLength(90);
    expect(refusals[0]!.code).toBe('budget_exceeded');
    expect(refusals[0]!.param).toBe('user');
    expect(refusals[0]!.headers?.['x-edgeway-limit-scope']).toBe('user');
    expect(refusals[0]!.details?.limit).toMatchObject({
      scope: 'user',
      scope_id: 'brand-new',
      kind: 'requests_day',
    });
    await Promise.all(admitted.map((r) => r.settle(USAGE(3))));
    const { state } = await userDump(tenantId, 'brand-new');
    expect(state.ledger.day).toMatchObject({ requestsSpent: 10, requestsHeld: 0 });
  }, 60_000);

  it("holds an end user with an override to it, not the tenant's default", async () => {
    const tenantId = `ten_${crypto.randomUUID()}`;
    const principal = principalFor(tenantId, {
      tenantScopes: {
        end_users: { limits: {}, budgets: { requests: { day: 1 } } },
        model_limits: [],
        tag_limits: [],
        tag_keys: [],
        downgrade: null,
      },
    });
    await objects(userShardName(tenantId, shardOf('paid'))).setOverride('paid', {
      limits: {},
      budgets: { requests: { day: 3 } },
    });
    const adapter = isolate();
    const run = async (user: string) => {
      const outcomes: Outcome[] = [];
      for (let i = 0; i < 4; i++) outcomes.push(await attempt(adapter, principal, userScope(user)));
      return admittedOf(outcomes).length;
    };
    expect(await run('free')).toBe(1);
    expect(await run('paid')).toBe(3);
    const state = await runInDurableObject(objects(userShardName(tenantId, shardOf('paid'))), (o) =>
      o.userState('paid'),
    );
    expect(state.override?.budgets.requests?.day).toBe(3);
    expect(state.dump.lastDenial).toMatchObject({ kind: 'requests_day', count: 1 });
  });

  it('gives back what one object held when the other refuses: nothing is recorded for a refused request', async () => {
    const tenantId = `ten_${crypto.randomUUID()}`;
    // The tenant allows one request a minute; the end user has a generous budget.
    const principal = principalFor(tenantId, {
      tenantLimits: { rpm: 1 },
      tenantScopes: {
        end_users: { limits: { rpm: 100 }, budgets: { usd: { day: 10 } } },
        model_limits: [],
        tag_limits: [],
        tag_keys: [],
        downgrade: null,
      },
    });
    const adapter = isolate();
    const kept: Promise<unknown>[] = [];
    const scope = { ...userScope('u'), keep: (work: Promise<unknown>) => kept.push(work) };
    const first = await attempt(adapter, principal, scope);
    // The second asks the user's shard for a lease (a second request in the window), which the tenant's refusal gives back.
    const second = await attempt(adapter, principal, scope);
    expect(first).not.toBeInstanceOf(GatewayError);
    expect(second).toBeInstanceOf(GatewayError);
    expect((second as GatewayError).details?.limit).toMatchObject({ scope: 'tenant', kind: 'rpm' });
    await (first as Reservation).settle(USAGE(4));
    // The lease the refused request opened closes when its window ends and reports that it admitted nothing.
    expect(kept.length).toBe(1);
    await Promise.all(kept);
    const { state } = await userDump(tenantId, 'u');
    // One request counted and charged; the refused one left nothing held and no request in the window.
    expect(state.inflight).toBe(0);
    expect(state.requests.cur).toBe(1);
    expect(state.ledger.day).toMatchObject({
      nanosSpent: 16 * NANOS_PER_TOKEN,
      nanosHeld: 0,
      requestsSpent: 1,
    });
  });

  it('admits a busy end user from leases, exactly: few shard calls, the budget never passed', async () => {
    const tenantId = `ten_${crypto.randomUUID()}`;
    const principal = principalFor(tenantId, {
      tenantScopes: {
        end_users: { limits: {}, budgets: { requests: { day: 400 } } },
        model_limits: [],
        tag_limits: [],
        tag_keys: [],
        downgrade: null,
      },
    });
    const calls = { reserve: 0, settle: 0 };
    const counted = leasingAdapter(PRICE, calls);
    // An agent's session: 300 calls for one end user, 10 at a time.
    const admitted: Reservation[] = [];
    for (let round = 0; round < 30; round++) {
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, () => attempt(counted, principal, userScope('agent-user'))),
      );
      for (const o of admittedOf(outcomes)) admitted.push(o);
      await Promise.all(admittedOf(outcomes).map((r) => r.settle(USAGE(3))));
    }
    await Promise.all(admitted.map((r) => r.background));
    expect(admitted.length).toBe(300);
    expect(calls.reserve).toBeLessThan(100);
    const { state } = await userDump(tenantId, 'agent-user');
    expect(state.ledger.day).toMatchObject({
      requestsSpent: 300,
      requestsHeld: 0,
      nanosSpent: 300 * 15 * NANOS_PER_TOKEN,
    });
    expect(state.inflight).toBe(0);
  }, 60_000);

  it("names a model rule's scope, pattern and field in its 429, and keeps other models out of it", async () => {
    const tenantId = `ten_${crypto.randomUUID()}`;
    const principal = principalFor(tenantId, {
      scopes: { model_limits: [{ match: 'mock/echo', limits: { rpm: 2 }, budgets: {} }], downgrade: null },
    });
    const adapter = isolate();
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 3; i++)
      outcomes.push(await attempt(adapter, principal, { endUser: null, tags: null }));
    const refusal = outcomes[2] as GatewayError;
    expect(refusal).toBeInstanceOf(GatewayError);
    expect(refusal.param).toBe('model');
    expect(refusal.headers?.['x-edgeway-limit-scope']).toBe('model');
    expect(refusal.details?.limit).toMatchObject({
      scope: 'model',
      scope_id: 'mock/echo',
      kind: 'rpm',
      limit: 2,
    });
    // Another model is not counted in that rule (and nothing else limits this key).
    const other = parseProxyRequest(
      'chat',
      chatBody('one two three four', { max_tokens: 10, model: 'mock/cheap' }),
    );
    expect(await attempt(adapter, principal, { endUser: null, tags: null }, other)).not.toBeInstanceOf(
      GatewayError,
    );
  });

  it('counts each value of a tag rule without a value apart, and a named value on its own rule', async () => {
    const tenantId = `ten_${crypto.randomUUID()}`;
    const principal = principalFor(tenantId, {
      tenantScopes: {
        end_users: null,
        model_limits: [],
        tag_limits: [
          { tag: 'team', limits: { rpm: 1 }, budgets: {} },
          { tag: 'team', value: 'search', limits: { rpm: 2 }, budgets: {} },
        ],
        tag_keys: [],
        downgrade: null,
      },
    });
    const adapter = isolate();
    const send = (team: string) => attempt(adapter, principal, { endUser: null, tags: { team } });
    const results = [
      await send('ads'),
      await send('ads'),
      await send('search'),
      await send('search'),
      await send('search'),
    ];
    expect(results.map((r) => r instanceof GatewayError)).toEqual([false, true, false, false, true]);
    expect((results[1] as GatewayError).details?.limit).toMatchObject({ scope: 'tag', scope_id: 'team=ads' });
    expect((results[1] as GatewayError).param).toBe('cf-aig-metadata.team');
  });

  it('downgrades at the percent of a budget, then admits the downgraded request until the budget is spent', async () => {
    const tenantId = `ten_${crypto.randomUUID()}`;
    const principal = principalFor(tenantId, {
      tenantScopes: {
        end_users: {
          limits: {},
          budgets: { usd: { day: 0.1 } },
          downgrade: { at_percent: 50, route: 'cheap' },
        },
        model_limits: [],
        tag_limits: [],
        tag_keys: [],
        downgrade: null,
      },
    });
    const adapter = isolate();
    const scope = userScope('u');
    // $0.022 per worst case: the first two fit under 50 % ($0.044 + 0.022 = 66 % triggers on the third).
    const first = await attempt(adapter, principal, scope);
    await (first as Reservation).settle(USAGE(10));
    const second = await attempt(adapter, principal, scope);
    await (second as Reservation).settle(USAGE(10));
    const third = await attempt(adapter, principal, scope);
    expect(third).toBeInstanceOf(DowngradeRequired);
    expect((third as DowngradeRequired).route).toBe('cheap');
    expect((third as DowngradeRequired).reason).toBe('user:u:usd_day@50');
    // Downgraded, it is admitted while the budget lasts, then refused (never downgraded twice).
    const downgraded = { ...scope, downgraded: true };
    let admitted = 0;
    let refused: GatewayError | null = null;
    for (let i = 0; i < 5 && !refused; i++) {
      const o = await attempt(adapter, principal, downgraded);
      if (o instanceof GatewayError) refused = o;
      else {
        expect(o).not.toBeInstanceOf(DowngradeRequired);
        admitted += 1;
        await (o as Reservation).settle(USAGE(10));
      }
    }
    expect(admitted).toBe(2);
    expect(refused?.code).toBe('budget_exceeded');
    const { state } = await userDump(tenantId, 'u');
    expect(state.ledger.day.nanosSpent).toBe(4 * 22 * NANOS_PER_TOKEN);
  });
});
