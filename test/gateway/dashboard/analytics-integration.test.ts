/**
 * The dashboard's Analytics page on real D1: logs through the queue into the rollups, then the page for a
 * range as an owner and as a tenant_admin (its own tenant only), its CSV links, and long ids shown with
 * `Id` (ellipsised, the full value in the title). Tenants of its own, so the file can share a runtime.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTenant } from '../admin-helpers';
import { Browser, createAdmin, navLabels } from '../dashboard-helpers';
import { deliver, LOG_QUEUE, logEvent } from '../log-fixtures';

const run = crypto.randomUUID().slice(0, 8);
const LONG_MODEL = `mock/${'x'.repeat(300)}`;

let tenantA: { id: string; name: string };
let tenantB: { id: string; name: string };
let keyA: string;

async function signedIn(token?: string): Promise<Browser> {
  const b = new Browser();
  await b.signIn(token);
  return b;
}

beforeAll(async () => {
  tenantA = await createTenant(`dash-analytics-a-${run}`);
  tenantB = await createTenant(`dash-analytics-b-${run}`);
  keyA = (await createKey(tenantA.id, { name: `key-a-${run}` })).id;
  const now = Date.now();
  await deliver(LOG_QUEUE, [
    logEvent({
      time: now - 60_000,
      tenantId: tenantA.id,
      keyId: keyA,
      latencyMs: 120,
      ttftMs: 40,
      costUsd: 0.02,
    }),
    logEvent({
      time: now - 30_000,
      tenantId: tenantA.id,
      keyId: keyA,
      model: LONG_MODEL,
      latencyMs: 900,
      costUsd: 0.01,
    }),
    logEvent({
      time: now - 20_000,
      tenantId: tenantA.id,
      keyId: keyA,
      provider: null,
      model: 'nosuch/model-x',
      status: 404,
      errorSource: 'gateway',
      errorCode: 'model_not_found',
    }),
    logEvent({ time: now - 10_000, tenantId: tenantB.id, keyId: 'key_b', costUsd: 5 }),
  ]);
});

describe('dashboard analytics', () => {
  it('shows series, percentiles, top spend with names and failed lookups for the last hour', async () => {
    const b = await signedIn();
    const res = await b.get(`/dashboard/analytics?range=1h&tenant_id=${tenantA.id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(navLabels(html)).toContain('Analytics');
    expect(html).toContain('Per-minute buckets, 1 min per point.');
    // Every minute of the hour is a point of the requests chart (61 labels' worth of bars or none).
    expect(html).toContain('id="c-req-t"');
    expect(html).toMatch(/<table id="latency">[\s\S]*mock\/echo[\s\S]*<\/table>/);
    expect(html).toContain(`title="${LONG_MODEL}"`);
    expect(html).toContain(`key-a-${run}`);
    expect(html).toMatch(/<table id="lookup-failures">[\s\S]*nosuch\/model-x[\s\S]*model_not_found/);
    // The failed lookup is in no per-model table.
    const latency = /<table id="latency">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
    expect(latency).not.toContain('nosuch/model-x');
    expect(html).toContain(
      `/dashboard/analytics/export.csv?range=1h&amp;group_by=model&amp;tenant_id=${tenantA.id}&amp;table=keys`,
    );
  });

  it('hands the CSV export through', async () => {
    const b = await signedIn();
    const res = await b.get(`/dashboard/analytics/export.csv?range=1h&tenant_id=${tenantA.id}&table=keys`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('name,requests,cost_usd,tokens,groups');
    expect(lines[1]).toMatch(new RegExp(`^${keyA},3,0.03`));
  });

  it("shows a tenant_admin its own tenant's figures only", async () => {
    const b = await signedIn((await createAdmin('tenant_admin', [tenantA.id])).token);
    const html = await (await b.get('/dashboard/analytics?range=1h')).text();
    expect(html).toContain(tenantA.id);
    expect(html).not.toContain(tenantB.id);
    const foreign = await b.get(`/dashboard/analytics?range=1h&tenant_id=${tenantB.id}`);
    expect(foreign.status).toBe(403);
  });
});
