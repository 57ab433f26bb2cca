/**
 * GET /admin/analytics and its CSV export, end to end: real requests through the gateway to the mock LLM
 * (JSON, streamed, a route, failed lookups, a request naming no model), their logs through the queue into
 * the rollups on real D1, then the report: series over the whole range, percentiles per model and route,
 * top-N tables with "other", failed lookups kept out of per-model usage, and a tenant_admin's scope.
 * Each run uses tenants of its own, so the file can share a runtime.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { admin, createKey, createTenant } from '../../admin-helpers';
import { chatBody, post } from '../../helpers';
import { waitForLogs } from '../../log-fixtures';

const run = crypto.randomUUID().slice(0, 8);

interface TopTable {
  rows: { name: string; tenant_id?: string; requests: number; cost_usd: number; tokens: number }[];
  other: { groups: number; requests: number; cost_usd: number } | null;
}
interface Report {
  range: string;
  granularity: string;
  step_ms: number;
  from: number;
  to: number;
  totals: Record<string, number>;
  series: ({ start: number } & Record<string, number>)[];
  latency: {
    name: string;
    requests: number;
    latency_p50_ms: number | null;
    latency_p95_ms: number | null;
    latency_p99_ms: number | null;
    ttft_count: number;
    ttft_p50_ms: number | null;
  }[];
  top: { tenant: TopTable; key: TopTable; model: TopTable; end_user: TopTable | null };
  lookup_failures: {
    tenant_id: string;
    key_id: string;
    model: string;
    error_code: string;
    requests: number;
  }[];
  names: { tenants: Record<string, string>; keys: Record<string, string> };
}

let tenantA: string;
let tenantB: string;
const keysA: { id: string; key: string }[] = [];
let keyB: { id: string; key: string };
let tenantAdminToken: string;

async function send(key: string, body: unknown, headers: Record<string, string> = {}): Promise<string> {
  const res = await post('/v1/chat/completions', body, key, headers);
  await res.arrayBuffer();
  return res.headers.get('x-edgeway-request-id')!;
}

const report = async (query: string, token?: string) => {
  const res = await admin('GET', `/analytics${query}`, undefined, token);
  expect(res.status, res.text).toBe(200);
  return res.json as Report;
};

beforeAll(async () => {
  tenantA = (await createTenant(`analytics-a-${run}`)).id;
  tenantB = (await createTenant(`analytics-b-${run}`)).id;
  for (let i = 0; i < 3; i++) keysA.push(await createKey(tenantA, { name: `a${i}` }));
  keyB = await createKey(tenantB, { name: 'b' });
  const route = await admin('POST', '/routes', {
    name: `analytics-${run}`,
    tenant_id: tenantA,
    spec: { strategy: 'fallback', targets: [{ model: 'mock/echo' }] },
  });
  expect(route.status, route.text).toBe(201);
  const ids: string[] = [];
  // Key 0 spends most (longer prompts), key 2 least; one streamed answer has a TTFT.
  for (let i = 0; i < 4; i++) ids.push(await send(keysA[0]!.key, chatBody('spend '.repeat(200 + i))));
  ids.push(await send(keysA[0]!.key, chatBody('stream me', { stream: true })));
  for (let i = 0; i < 2; i++) ids.push(await send(keysA[1]!.key, chatBody('spend '.repeat(50 + i))));
  ids.push(
    await send(keysA[2]!.key, chatBody('hi', { model: `analytics-${run}` }), { 'x-edgeway-user': 'u_one' }),
  );
  ids.push(await send(keysA[2]!.key, chatBody('hi', { model: 'nosuch/model-x' })));
  ids.push(await send(keysA[2]!.key, chatBody('hi', { model: 'nosuch/model-x' })));
  ids.push(await send(keysA[2]!.key, { messages: [{ role: 'user', content: 'no model' }] }));
  ids.push(await send(keyB.key, chatBody('tenant b')));
  await waitForLogs(ids);
  const made = await admin('POST', '/admins', {
    name: `analytics-tenant-admin-${run}`,
    role: 'tenant_admin',
    tenant_ids: [tenantA],
  });
  expect(made.status, made.text).toBe(201);
  tenantAdminToken = (made.json as { token: string }).token;
});

describe('GET /admin/analytics', () => {
  it('reads a 1 h range from minute buckets, every minute of it on the x axis', async () => {
    const r = await report(`?range=1h&tenant_id=${tenantA}`);
    expect(r).toMatchObject({ range: '1h', granularity: 'minute', step_ms: 60_000 });
    expect(r.series.length).toBeGreaterThanOrEqual(60);
    expect(r.series.length).toBeLessThanOrEqual(61);
    expect(r.series.every((p, i) => i === 0 || p.start - r.series[i - 1]!.start === 60_000)).toBe(true);
    expect(r.totals.requests).toBe(11);
    expect(r.totals.status_4xx).toBe(3);
    expect(r.totals.err_gateway).toBe(3);
    expect(r.totals.errors).toBe(3);
  });

  it('reads 7 and 30 days from hourly buckets, still spanning the whole range', async () => {
    const week = await report(`?range=7d&tenant_id=${tenantA}`);
    expect(week).toMatchObject({ granularity: 'hour', step_ms: 3 * 3_600_000 });
    expect(week.series.at(-1)!.start - week.series[0]!.start).toBeGreaterThanOrEqual(
      7 * 86_400_000 - 3 * 3_600_000,
    );
    expect(week.totals.requests).toBe(11);
    const month = await report(`?range=30d&tenant_id=${tenantA}`);
    expect(month.series).toHaveLength(121);
    expect(month.totals.requests).toBe(11);
  });

  it('gives latency percentiles per model and per route, and TTFT for the streamed answer', async () => {
    const byModel = await report(`?range=1h&tenant_id=${tenantA}&group_by=model`);
    // Failed lookups and the request that named no model are no model's.
    expect(byModel.latency.map((r) => [r.name, r.requests])).toEqual([
      ['mock/echo', 7],
      [`analytics-${run}`, 1],
    ]);
    const echo = byModel.latency[0]!;
    expect(echo.latency_p50_ms).toBeGreaterThan(0);
    expect(echo.latency_p95_ms!).toBeGreaterThanOrEqual(echo.latency_p50_ms!);
    expect(echo.latency_p99_ms!).toBeGreaterThanOrEqual(echo.latency_p95_ms!);
    expect(echo.ttft_count).toBe(1);
    expect(echo.ttft_p50_ms).toBeGreaterThan(0);
    const byRoute = await report(`?range=1h&tenant_id=${tenantA}&group_by=route`);
    expect(byRoute.latency.map((r) => [r.name, r.requests])).toEqual([[`analytics-${run}`, 1]]);
    const byProvider = await report(`?range=1h&tenant_id=${tenantA}&group_by=provider`);
    expect(byProvider.latency.map((r) => [r.name, r.requests])).toEqual([['mock', 8]]);
  });

  it('ranks keys by cost with an "other" row past the top N, and end users per day', async () => {
    const r = await report(`?range=24h&tenant_id=${tenantA}&top=1`);
    expect(r.top.key.rows.map((k) => k.name)).toEqual([keysA[0]!.id]);
    expect(r.top.key.other).toMatchObject({ groups: 2, requests: 6 });
    const all = await report(`?range=24h&tenant_id=${tenantA}`);
    const costs = all.top.key.rows.map((k) => k.cost_usd);
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    expect(all.top.key.other).toBeNull();
    expect(all.top.key.rows[0]!.cost_usd).toBeCloseTo(r.top.key.rows[0]!.cost_usd);
    expect(all.top.key.rows.reduce((s, k) => s + k.cost_usd, 0)).toBeCloseTo(
      r.top.key.rows[0]!.cost_usd + r.top.key.other!.cost_usd,
    );
    // A routed request counts under the name the client called (the route's), as in usage_daily.
    expect(all.top.model.rows.map((m) => m.name)).toEqual(['mock/echo', `analytics-${run}`]);
    expect(all.top.end_user?.rows.map((u) => [u.name, u.requests])).toEqual([['u_one', 1]]);
    // Names of the tenants and keys shown, looked up by their ids.
    expect(all.names.tenants).toEqual({ [tenantA]: `analytics-a-${run}` });
    expect(all.names.keys).toEqual({ [keysA[0]!.id]: 'a0', [keysA[1]!.id]: 'a1', [keysA[2]!.id]: 'a2' });
  });

  it('lists failed lookups by the name asked for, and keeps them out of usage per model', async () => {
    const r = await report(`?range=24h&tenant_id=${tenantA}`);
    expect(r.lookup_failures.map((f) => [f.key_id, f.model, f.error_code, f.requests]).sort()).toEqual([
      [keysA[2]!.id, '', 'missing_required_parameter', 1],
      [keysA[2]!.id, 'nosuch/model-x', 'model_not_found', 2],
    ]);
    const today = new Date().toISOString().slice(0, 10);
    const usage = await admin('GET', `/usage?tenant_id=${tenantA}&group_by=model&from=${today}&to=${today}`);
    const models = (usage.json as { data: { model: string | null }[] }).data.map((m) => m.model);
    expect(models).not.toContain('nosuch/model-x');
    expect(models).not.toContain(null);
    expect(models).toContain('mock/echo');
  });

  it("shows a tenant_admin only its own tenants, and refuses another tenant's", async () => {
    const own = await report('?range=1h', tenantAdminToken);
    expect(own.top.tenant.rows.map((t) => t.name)).toEqual([tenantA]);
    expect(own.totals.requests).toBe(11);
    const foreign = await admin(
      'GET',
      `/analytics?range=1h&tenant_id=${tenantB}`,
      undefined,
      tenantAdminToken,
    );
    expect(foreign.status).toBe(403);
    const foreignCsv = await admin(
      'GET',
      `/analytics/export.csv?tenant_id=${tenantB}`,
      undefined,
      tenantAdminToken,
    );
    expect(foreignCsv.status).toBe(403);
    // A key of another tenant reads as nothing.
    const key = await report(`?range=1h&key_id=${keyB.id}`, tenantAdminToken);
    expect(key.totals.requests).toBe(0);
    const everything = await report('?range=1h');
    expect(everything.top.tenant.rows.map((t) => t.name)).toEqual(expect.arrayContaining([tenantA, tenantB]));
    // End users are each tenant's own: ranked within a scope of tenants, never across every tenant.
    expect(own.top.end_user?.rows.map((u) => [u.tenant_id, u.name])).toEqual([[tenantA, 'u_one']]);
    expect(everything.top.end_user).toBeNull();
  });

  it('exports a table as CSV', async () => {
    const res = await admin(
      'GET',
      `/analytics/export.csv?range=24h&tenant_id=${tenantA}&table=lookup_failures`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const lines = res.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('tenant_id,key_id,model,error_code,requests,last_seen');
    expect(lines).toHaveLength(3);
    const series = await admin('GET', `/analytics/export.csv?range=1h&tenant_id=${tenantA}`);
    const rows = series.text.trimEnd().split('\r\n');
    expect(rows[0]!.startsWith('start,requests,errors,status_4xx')).toBe(true);
    const sum = rows.slice(1).reduce((s, l) => s + Number(l.split(',')[1]), 0);
    expect(sum).toBe(11);
  });

  it('refuses a preset with from/to, an inverted range and unknown parameters', async () => {
    for (const q of ['?range=1h&from=1000', '?from=2000&to=1000', '?range=2h', '?group_by=key', '?nope=1']) {
      const res = await admin('GET', `/analytics${q}`);
      expect(res.status, q).toBe(400);
    }
  });
});

describe('refusing keys', () => {
  it('names the keys a limit refused, with how many, and exports them as CSV', async () => {
    const tenant = (await createTenant(`analytics-refused-${run}`)).id;
    const limited = await createKey(tenant, { name: 'limited', limits: { rpm: 1 } });
    const free = await createKey(tenant, { name: 'free' });
    const ids: string[] = [];
    const statuses: number[] = [];
    for (const key of [limited.key, limited.key, limited.key, free.key]) {
      const res = await post('/v1/chat/completions', chatBody('hi'), key);
      await res.arrayBuffer();
      statuses.push(res.status);
      ids.push(res.headers.get('x-edgeway-request-id')!);
    }
    expect(statuses).toEqual([200, 429, 429, 200]);
    await waitForLogs(ids);
    const r = (await report(`?range=1h&tenant_id=${tenant}`)) as Report & {
      refused_keys: { key_id: string; tenant_id: string; denials: number; requests: number }[];
    };
    expect(r.refused_keys).toEqual([{ key_id: limited.id, tenant_id: tenant, denials: 2, requests: 3 }]);
    expect(r.names.keys[limited.id]).toBe('limited');
    expect(r.totals.denials).toBe(2);
    const csv = await admin('GET', `/analytics/export.csv?range=1h&tenant_id=${tenant}&table=refused_keys`);
    expect(csv.status, csv.text).toBe(200);
    expect(csv.text).toBe(`key_id,tenant_id,denials,requests\r\n${limited.id},${tenant},2,3\r\n`);
  });
});
