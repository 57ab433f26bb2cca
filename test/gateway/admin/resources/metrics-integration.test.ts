/**
 * GET /admin/metrics: usage_totals as Prometheus text, read back with a real Prometheus text-format parser.
 * The rows are written into usage_totals directly, as the log consumer's rollup writes them (its own tests
 * cover the rollup from requests); this checks what a scrape reads: every family with HELP and TYPE, the
 * counters, cumulative histograms in seconds, label escaping of an odd 400-character model id, and who
 * sees which tenant's series.
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { LATENCY_BOUNDS_MS } from '../../../../src/core/latency-buckets';
import { EXPOSITION_CONTENT_TYPE } from '../../../../src/logs/prometheus/exposition';
import { METRIC_SAMPLE_NAMES } from '../../../../src/logs/prometheus/usage-metrics';
import { admin, createTenant } from '../../admin-helpers';
import { type PromScrape, readExposition, series, value } from '../../prometheus-helpers';

/** A model id a client may send: long, with quotes, backslashes, a line feed, braces and non-ASCII. */
const ODD_MODEL = `acme/${'x'.repeat(380)} "quoted" back\\slash\nnext {a="b"}, é`;

interface TotalsRow {
  tenant: string;
  model: string;
  provider: string;
  counts?: Record<string, number>;
  lat?: Record<number, number>;
  ttft?: Record<number, number>;
}

async function insertTotals(row: TotalsRow): Promise<void> {
  const columns: Record<string, string | number> = {
    tenant_id: row.tenant,
    model: row.model,
    provider: row.provider,
    ...row.counts,
  };
  for (const [i, n] of Object.entries(row.lat ?? {})) columns[`lat_${i}`] = n;
  for (const [i, n] of Object.entries(row.ttft ?? {})) columns[`ttft_${i}`] = n;
  const names = Object.keys(columns);
  await env.DB.prepare(
    `INSERT INTO usage_totals (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
  )
    .bind(...Object.values(columns))
    .run();
}

let a: string;
let b: string;
let idle: string;
const tokens: Record<string, string> = {};

async function makeAdmin(name: string, role: string, tenant_ids?: string[]): Promise<string> {
  const res = await admin('POST', '/admins', { name, role, ...(tenant_ids ? { tenant_ids } : {}) });
  expect(res.status, res.text).toBe(201);
  return (res.json as { token: string }).token;
}

async function scrape(query = '', token?: string): Promise<PromScrape> {
  const res = await admin('GET', `/metrics${query}`, undefined, token);
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('content-type')).toBe(EXPOSITION_CONTENT_TYPE);
  return readExposition(res.text);
}

const tenantsIn = (s: PromScrape) => new Set(s.samples.map((x) => x.labels.tenant));

beforeAll(async () => {
  a = (await createTenant('metrics "a"')).id;
  b = (await createTenant('metrics-b')).id;
  idle = (await createTenant('metrics-idle')).id;
  await insertTotals({
    tenant: a,
    model: 'openai/gpt-4o-mini',
    provider: 'openai',
    counts: {
      requests: 10,
      input_tokens: 1000,
      output_tokens: 200,
      cached_tokens: 100,
      cost_usd: 0.0125,
      cache_hits: 2,
      saved_tokens: 300,
      saved_usd: 0.004,
      errors: 4,
      status_4xx: 2,
      status_5xx: 1,
      stream_errors: 1,
      err_gateway: 2,
      err_provider: 2,
      denials: 1,
      fallbacks: 1,
      attempts: 11,
      latency_sum_ms: 2500,
      ttft_count: 4,
      ttft_sum_ms: 600,
    },
    // 6 at ≤ 100 ms, 3 at ≤ 1 s, 1 above 300 s.
    lat: { 8: 6, 15: 3, 27: 1 },
    ttft: { 8: 3, 11: 1 },
  });
  await insertTotals({
    tenant: a,
    model: ODD_MODEL,
    provider: 'acme',
    counts: { requests: 1, latency_sum_ms: 0.5 },
    lat: { 0: 1 },
  });
  await insertTotals({
    tenant: b,
    model: 'anthropic/claude-sonnet-4',
    provider: 'anthropic',
    counts: { requests: 5, latency_sum_ms: 1000 },
    lat: { 12: 5 },
  });
  tokens.tenantAdmin = await makeAdmin('metrics-tenant-admin', 'tenant_admin', [a]);
  tokens.viewer = await makeAdmin('metrics-viewer', 'viewer');
});

describe('GET /admin/metrics', () => {
  it('is refused without an admin token, or with a wrong one', async () => {
    expect((await admin('GET', '/metrics', undefined, null)).status).toBe(401);
    expect((await admin('GET', '/metrics', undefined, 'not-a-token')).status).toBe(401);
  });

  it('exposes every metric with HELP and TYPE, and a tenant with usage has a series of each', async () => {
    const s = await scrape(`?tenant_id=${a}`);
    const types: Record<string, string> = {};
    for (const [name, f] of s.families) {
      expect(f.help, name).not.toBe('');
      types[name] = f.type;
    }
    expect(types).toMatchObject({
      edgeway_requests_total: 'COUNTER',
      edgeway_cost_usd_total: 'COUNTER',
      edgeway_errors_total: 'COUNTER',
      edgeway_request_duration_seconds: 'HISTOGRAM',
      edgeway_time_to_first_token_seconds: 'HISTOGRAM',
      edgeway_tenant_info: 'GAUGE',
    });
    for (const [name, type] of Object.entries(types)) {
      if (type === 'COUNTER') expect(name).toMatch(/^edgeway_[a-z_]+_total$/);
    }
    expect(new Set(s.samples.map((x) => x.name))).toEqual(new Set(METRIC_SAMPLE_NAMES));
  });

  it("reads a tenant's counters by tenant, model and provider", async () => {
    const s = await scrape(`?tenant_id=${a}`);
    const labels = { tenant: a, model: 'openai/gpt-4o-mini', provider: 'openai' };
    expect(value(s, 'edgeway_requests_total', labels)).toBe(10);
    expect(value(s, 'edgeway_input_tokens_total', labels)).toBe(1000);
    expect(value(s, 'edgeway_output_tokens_total', labels)).toBe(200);
    expect(value(s, 'edgeway_cached_tokens_total', labels)).toBe(100);
    expect(value(s, 'edgeway_cost_usd_total', labels)).toBe(0.0125);
    expect(value(s, 'edgeway_cache_hits_total', labels)).toBe(2);
    expect(value(s, 'edgeway_saved_tokens_total', labels)).toBe(300);
    expect(value(s, 'edgeway_saved_usd_total', labels)).toBe(0.004);
    expect(value(s, 'edgeway_limit_denials_total', labels)).toBe(1);
    expect(value(s, 'edgeway_fallbacks_total', labels)).toBe(1);
    expect(value(s, 'edgeway_upstream_attempts_total', labels)).toBe(11);
    const byClass = series(s, 'edgeway_errors_total', labels).map((x) => [x.labels.class, x.value]);
    expect(Object.fromEntries(byClass)).toEqual({ '4xx': 2, '5xx': 1, stream: 1 });
    const bySource = series(s, 'edgeway_errors_by_source_total', labels).map((x) => [
      x.labels.source,
      x.value,
    ]);
    expect(Object.fromEntries(bySource)).toEqual({ gateway: 2, provider: 2, client: 0 });
  });

  it('writes cumulative histograms in seconds over the latency bounds, ending at +Inf = _count', async () => {
    const s = await scrape(`?tenant_id=${a}`);
    const labels = { tenant: a, model: 'openai/gpt-4o-mini', provider: 'openai' };
    const buckets = series(s, 'edgeway_request_duration_seconds_bucket', labels);
    expect(buckets.map((x) => x.labels.le)).toEqual([
      ...LATENCY_BOUNDS_MS.map((ms) => String(ms / 1000)),
      '+Inf',
    ]);
    const at = (le: string) => buckets.find((x) => x.labels.le === le)?.value;
    expect([at('0.075'), at('0.1'), at('0.75'), at('1'), at('300'), at('+Inf')]).toEqual([0, 6, 6, 9, 9, 10]);
    const counts = buckets.map((x) => x.value);
    expect(counts).toEqual([...counts].sort((x, y) => x - y));
    expect(value(s, 'edgeway_request_duration_seconds_count', labels)).toBe(10);
    expect(value(s, 'edgeway_request_duration_seconds_sum', labels)).toBe(2.5);
    const ttft = series(s, 'edgeway_time_to_first_token_seconds_bucket', labels);
    expect(ttft.find((x) => x.labels.le === '0.1')?.value).toBe(3);
    expect(ttft.find((x) => x.labels.le === '0.3')?.value).toBe(4);
    expect(value(s, 'edgeway_time_to_first_token_seconds_count', labels)).toBe(4);
    expect(value(s, 'edgeway_time_to_first_token_seconds_sum', labels)).toBe(0.6);
  });

  it('escapes label values so an odd 400-character model id and a quoted tenant name read back exactly', async () => {
    const res = await admin('GET', `/metrics?tenant_id=${a}`);
    // Every sample stays on one line: the model's line feed is written as \n.
    expect(res.text.split('\n').filter((l) => l.includes('acme/xxx')).length).toBeGreaterThan(0);
    const s = readExposition(res.text);
    const odd = { tenant: a, model: ODD_MODEL, provider: 'acme' };
    expect(value(s, 'edgeway_requests_total', odd)).toBe(1);
    expect(value(s, 'edgeway_request_duration_seconds_bucket', { ...odd, le: '0.001' })).toBe(1);
    expect(value(s, 'edgeway_tenant_info', { tenant: a })).toBe(1);
    expect(series(s, 'edgeway_tenant_info')[0]?.labels.name).toBe('metrics "a"');
  });

  it("answers a tenant's filter with that tenant's series only", async () => {
    const s = await scrape(`?tenant_id=${b}`);
    expect(tenantsIn(s)).toEqual(new Set([b]));
    expect(value(s, 'edgeway_requests_total', { tenant: b, model: 'anthropic/claude-sonnet-4' })).toBe(5);
  });

  it('names a tenant without usage yet, with every family still described', async () => {
    const res = await admin('GET', `/metrics?tenant_id=${idle}`);
    const s = readExposition(res.text);
    expect(s.samples).toEqual([
      { name: 'edgeway_tenant_info', labels: { tenant: idle, name: 'metrics-idle' }, value: 1 },
    ]);
    expect(s.families.has('edgeway_request_duration_seconds')).toBe(true);
  });

  it("shows a tenant_admin its own tenants' series only, and refuses it another tenant", async () => {
    const own = await scrape('', tokens.tenantAdmin);
    expect(tenantsIn(own)).toEqual(new Set([a]));
    expect(value(own, 'edgeway_requests_total', { tenant: a, model: 'openai/gpt-4o-mini' })).toBe(10);
    const refused = await admin('GET', `/metrics?tenant_id=${b}`, undefined, tokens.tenantAdmin);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ error: { code: 'forbidden', type: 'permission_error' } });
    expect(refused.text).not.toContain('anthropic');
  });

  it('lets a viewer read every tenant', async () => {
    const s = await scrape('', tokens.viewer);
    const seen = tenantsIn(s);
    for (const t of [a, b, idle]) expect(seen.has(t), t).toBe(true);
  });

  it('refuses an unknown query parameter', async () => {
    const res = await admin('GET', '/metrics?tenant=x');
    expect(res.status).toBe(400);
  });
});
