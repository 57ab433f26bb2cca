/**
 * GET /admin/routes/{id}/health through the real gateway: a route whose
 * primary fails (the mock's injected 503) opens that target's shared breaker
 * after MIN_CALLS requests; the health read shows it open since then, with
 * its recent failures, and a fallback rate of 100 % from the logged tries,
 * while the fallback that served every request is healthy at 0 %. The log
 * read is bounded and says when it was; `traffic=false` skips it.
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeTraffic } from '../../../../src/logs/read/route-traffic';
import { MIN_CALLS } from '../../../../src/routing/breaker';
import { admin, createTenant } from '../../admin-helpers';
import { harness } from '../../exchange-harness';
import { seedKey } from '../../helpers';
import { deliver, LOG_QUEUE } from '../../log-fixtures';

interface Health {
  status: string;
  unhealthy: number;
  traffic: {
    rows: number;
    truncated: boolean;
    requests: { last_hour: number; last_24h: number };
    fell_back: { last_hour: number };
  } | null;
  targets: {
    model: string;
    kind: string;
    status: string;
    unhealthy: boolean;
    breakers: { key: string; state: string; since: number | null; recent_failures: number }[];
    last_hour: {
      requests: number;
      served: number;
      skipped: number;
      failed_calls: number;
      fallback_rate: number | null;
    } | null;
    last_24h: { fallback_rate: number | null } | null;
  }[];
}

const tag = crypto.randomUUID().slice(0, 8);
const failing = `mock/echo;status=503;key=health-${tag}`;
const name = `health-${tag}`;
let tenantId: string;
let routeId: string;
let startedAt: number;

const hello = { messages: [{ role: 'user', content: 'Hello there, mock.' }] };

beforeAll(async () => {
  tenantId = (await createTenant(`route-health-${tag}`)).id;
  const key = (await seedKey({ tenantId, limits: { rpm: 10_000 } })).secret;
  const created = await admin('POST', '/routes', {
    name,
    tenant_id: tenantId,
    spec: { strategy: 'fallback', targets: [{ model: failing }, { model: 'mock/echo' }] },
  });
  expect(created.status, created.text).toBe(201);
  routeId = (created.json as { id: string }).id;
  startedAt = Date.now();
  // MIN_CALLS failures open the breaker; the request after them skips the target.
  for (let i = 0; i <= MIN_CALLS; i++) {
    const h = harness();
    const { res } = await h.call({ model: name, ...hello }, key);
    expect(res.status).toBe(200);
    const result = await deliver(LOG_QUEUE, h.counts.events);
    expect(result.retryMessages).toEqual([]);
  }
});

async function health(query = ''): Promise<Health> {
  const res = await admin('GET', `/routes/${routeId}/health${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json as Health;
}

describe('a route whose primary fails', () => {
  it('shows the primary open since it opened, with its failures and a 100 % fallback rate', async () => {
    const h = await health();
    expect(h.status).toBe('open');
    expect(h.unhealthy).toBe(1);
    const [primary, fallback] = h.targets;
    expect(primary).toMatchObject({ model: failing, kind: 'model', status: 'open', unhealthy: true });
    expect(primary?.breakers).toHaveLength(1);
    expect(primary?.breakers[0]).toMatchObject({ key: failing, state: 'open' });
    expect(primary?.breakers[0]?.since).toBeGreaterThanOrEqual(startedAt);
    expect(primary?.breakers[0]?.since).toBeLessThanOrEqual(Date.now());
    expect(primary?.breakers[0]?.recent_failures).toBeGreaterThan(MIN_CALLS - 1);
    expect(primary?.last_hour).toEqual({
      requests: MIN_CALLS + 1,
      served: 0,
      skipped: 1,
      failed_calls: MIN_CALLS,
      fallback_rate: 1,
    });
    expect(primary?.last_24h?.fallback_rate).toBe(1);
    expect(fallback).toMatchObject({ model: 'mock/echo', status: 'healthy', unhealthy: false });
    expect(fallback?.last_hour).toMatchObject({
      requests: MIN_CALLS + 1,
      served: MIN_CALLS + 1,
      fallback_rate: 0,
    });
    expect(h.traffic).toMatchObject({
      rows: MIN_CALLS + 1,
      truncated: false,
      requests: { last_hour: MIN_CALLS + 1, last_24h: MIN_CALLS + 1 },
      fell_back: { last_hour: MIN_CALLS + 1 },
    });
  });

  it('with traffic=false reads the breakers only', async () => {
    const h = await health('?traffic=false');
    expect(h.traffic).toBeNull();
    expect(h.targets[0]).toMatchObject({ status: 'open', last_hour: null, last_24h: null });
  });

  it('reads at most the row limit, the newest first, and says the figures are partial', async () => {
    const t = await routeTraffic(env.DB, { name, tenantId, now: Date.now(), limit: 2 });
    expect(t).toMatchObject({ rows: 2, limit: 2, truncated: true, requests: { last_24h: 2 } });
    // The newest request skipped the open primary: it is among the two read.
    expect(t.targets.find((x) => x.target === failing)?.last_24h).toMatchObject({ requests: 2, skipped: 1 });
  });

  it("does not count another tenant's requests to a route of the same name", async () => {
    const t = await routeTraffic(env.DB, { name, tenantId: 'ten_someone_else', now: Date.now() });
    expect(t).toMatchObject({ rows: 0, truncated: false, targets: [] });
  });
});

describe('the health read', () => {
  it('lists a target that names another route as a route, without a breaker', async () => {
    const res = await admin('POST', '/routes', {
      name: `outer-${tag}`,
      tenant_id: tenantId,
      spec: { strategy: 'fallback', targets: [{ model: name }, { model: 'mock/mock-small' }] },
    });
    expect(res.status, res.text).toBe(201);
    const h = await admin('GET', `/routes/${(res.json as { id: string }).id}/health`);
    const targets = (h.json as Health).targets;
    expect(targets[0]).toMatchObject({ model: name, kind: 'route', breakers: [], status: 'idle' });
    // mock/mock-small's breaker is the deployment's, shared with other files' requests in this runtime: it
    // has a breaker and is not unhealthy, whether or not another test has called it yet.
    expect(targets[1]).toMatchObject({ model: 'mock/mock-small', kind: 'model' });
    expect(targets[1]!.breakers).not.toEqual([]);
    expect(['idle', 'healthy']).toContain(targets[1]!.status);
  });

  it('is a 404 for an unknown route, and refuses an unknown query field', async () => {
    expect((await admin('GET', '/routes/rte_nope/health')).status).toBe(404);
    const bad = await admin('GET', `/routes/${routeId}/health?traffic=maybe`);
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: { param: 'traffic' } });
  });
});
