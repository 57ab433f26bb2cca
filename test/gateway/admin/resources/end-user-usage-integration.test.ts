/**
 * Usage per end user and per tag, end to end on real D1: log events through the Worker's queue handler
 * (the consumer), the rollups it writes in the batch's transaction, and GET /admin/usage reading them.
 * Every figure the API reports equals the sum of the logged requests it covers, in both write modes
 * (D1 index, and rollups only with the R2 archive), and a redelivered batch adds nothing.
 * Each run uses tenants of its own, so the file can share a runtime.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bindings } from '../../../../src/env';
import type { LogEvent } from '../../../../src/core/log-event';
import { admin, createKey, createTenant } from '../../admin-helpers';
import { Browser } from '../../dashboard-helpers';
import { chatBody, post } from '../../helpers';
import { bindings, deliver, LOG_QUEUE, logEvent, waitForLogs } from '../../log-fixtures';

const run = crypto.randomUUID().slice(0, 8);
const INDEXED = `ten_eu_${run}`;
const ROLLUPS_ONLY = `ten_eu_r_${run}`;
const FROM = '2026-06-01';
const TO = '2026-06-02';

interface Figures {
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cost_usd: number;
  cache_hits: number;
  saved_tokens: number;
  saved_usd: number;
  errors: number;
}
type Bucket = Figures & { end_user?: string; tag?: string; value?: string };
interface Report {
  group_by: string;
  tenant_id: string;
  data: Bucket[];
  totals: Figures;
  groups: number;
  has_more: boolean;
  tag?: string | null;
  tag_keys?: string[];
}

/** A small deterministic PRNG, so a failure replays. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const USERS = ['u_alice', 'u_alan', 'u_bob', 'u_bea', 'svc_cron', 'u_ünï'];
const TEAMS = ['search', 'ads', 'growth'];

function events(tenantId: string, n: number, seed: number): LogEvent[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  return Array.from({ length: n }, () => {
    const hit = rand() < 0.15;
    const failed = !hit && rand() < 0.1;
    const input = failed ? 0 : 10 + Math.floor(rand() * 500);
    const output = failed ? 0 : Math.floor(rand() * 200);
    const cost = (input * 3 + output * 15) / 1e6;
    const tags: Record<string, string> = {};
    if (rand() < 0.8) tags.team = pick(TEAMS);
    if (rand() < 0.4) tags.feature = pick(['chat', 'summary']);
    return logEvent({
      tenantId,
      time: Date.UTC(2026, 5, rand() < 0.5 ? 1 : 2, 10) + Math.floor(rand() * 1e6),
      endUser: rand() < 0.85 ? pick(USERS) : null,
      tags: Object.keys(tags).length ? tags : null,
      cache: hit ? 'HIT' : 'MISS',
      status: failed ? 502 : 200,
      errorSource: failed ? 'provider' : null,
      errorCode: failed ? 'upstream_error' : null,
      inputTokens: input,
      outputTokens: output,
      cachedTokens: hit ? 0 : Math.floor(input / 4),
      costUsd: hit ? 0 : cost,
      savedUsd: hit ? cost : 0,
    });
  });
}

const zero = (): Figures => ({
  requests: 0,
  input_tokens: 0,
  output_tokens: 0,
  cached_tokens: 0,
  cost_usd: 0,
  cache_hits: 0,
  saved_tokens: 0,
  saved_usd: 0,
  errors: 0,
});

/** What the rollups must hold for these events, by the documented rules (as usage_daily counts). */
function expected(list: readonly LogEvent[], keyOf: (e: LogEvent) => string[]): Map<string, Figures> {
  const out = new Map<string, Figures>();
  for (const e of list) {
    const hit = e.cache === 'HIT' || e.cache === 'SEMANTIC';
    for (const key of keyOf(e)) {
      const f = out.get(key) ?? zero();
      f.requests += 1;
      f.input_tokens += hit ? 0 : e.inputTokens;
      f.output_tokens += hit ? 0 : e.outputTokens;
      f.cached_tokens += hit ? 0 : e.cachedTokens;
      f.cost_usd += e.costUsd;
      f.cache_hits += hit ? 1 : 0;
      f.saved_tokens += hit ? e.inputTokens + e.outputTokens : 0;
      f.saved_usd += e.savedUsd;
      f.errors += e.status >= 400 || e.errorCode !== null ? 1 : 0;
      out.set(key, f);
    }
  }
  return out;
}

const byUser = (e: LogEvent) => (e.endUser === null ? [] : [e.endUser]);
const byTag = (tag: string) => (e: LogEvent) => (e.tags?.[tag] === undefined ? [] : [e.tags[tag]]);
const byPair = (e: LogEvent) => Object.entries(e.tags ?? {}).map(([k, v]) => `${k}=${v}`);

function expectFigures(got: Figures, want: Figures, what: string) {
  for (const k of Object.keys(want) as (keyof Figures)[]) {
    if (k === 'cost_usd' || k === 'saved_usd') expect(got[k], `${what} ${k}`).toBeCloseTo(want[k], 9);
    else expect(got[k], `${what} ${k}`).toBe(want[k]);
  }
}

function sum(figures: Iterable<Figures>): Figures {
  const total = zero();
  for (const f of figures) for (const k of Object.keys(total) as (keyof Figures)[]) total[k] += f[k];
  return total;
}

async function usage(query: string): Promise<Report> {
  const res = await admin('GET', `/usage?from=${FROM}&to=${TO}&${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json as Report;
}

const indexedEvents = events(INDEXED, 120, 7);
const rollupEvents = events(ROLLUPS_ONLY, 80, 11);
const rollupsOnly = { ...bindings, LOG_INDEX_DAYS: '0' } as Bindings;

beforeAll(async () => {
  const half = indexedEvents.length / 2;
  const first = indexedEvents.slice(0, half).map((body, i) => ({ id: `eu-${run}-${i}`, body }));
  const results = [
    await deliver(LOG_QUEUE, first),
    // The same messages again (a redelivery): the rollups must not count them twice.
    await deliver(LOG_QUEUE, first),
    await deliver(LOG_QUEUE, indexedEvents.slice(half)),
    await deliver(LOG_QUEUE, rollupEvents, rollupsOnly),
  ];
  for (const r of results) expect(r.retryBatch.retry).toBe(false);
});

describe('GET /admin/usage?group_by=end_user', () => {
  for (const [tenant, list] of [
    [INDEXED, indexedEvents],
    [ROLLUPS_ONLY, rollupEvents],
  ] as const) {
    it(`reports each end user's figures as the sum of their logged requests (${tenant === INDEXED ? 'D1 index' : 'rollups only'})`, async () => {
      const want = expected(list, byUser);
      const r = await usage(`tenant_id=${tenant}&group_by=end_user&limit=500`);
      expect(r.groups).toBe(want.size);
      expect(r.has_more).toBe(false);
      expect(r.data.map((b) => b.end_user).sort()).toEqual([...want.keys()].sort());
      for (const b of r.data) expectFigures(b, want.get(b.end_user!)!, b.end_user!);
      expectFigures(r.totals, sum(want.values()), 'totals');
      // Requests without an end user are in the tenant's usage, not in any end user's.
      const all = await usage(`tenant_id=${tenant}`);
      expect(all.totals.requests).toBe(list.length);
      expect(r.totals.requests).toBe(list.filter((e) => e.endUser !== null).length);
    });
  }

  it('ranks by spend, keeps the top N, and says how many more there are', async () => {
    const want = [...expected(indexedEvents, byUser).entries()].sort((a, b) => b[1].cost_usd - a[1].cost_usd);
    const r = await usage(`tenant_id=${INDEXED}&group_by=end_user&limit=2`);
    expect(r.data.map((b) => b.end_user)).toEqual(want.slice(0, 2).map(([u]) => u));
    expect(r.groups).toBe(want.length);
    expect(r.has_more).toBe(true);
    // Totals cover every end user, not only the two shown.
    expectFigures(r.totals, sum(want.map(([, f]) => f)), 'totals');
  });

  it('searches end users by id prefix, non-ASCII included', async () => {
    const want = expected(indexedEvents, byUser);
    const r = await usage(`tenant_id=${INDEXED}&group_by=end_user&search=u_a`);
    expect(r.data.map((b) => b.end_user).sort()).toEqual(
      [...want.keys()].filter((u) => u.startsWith('u_a')).sort(),
    );
    expectFigures(
      r.totals,
      sum([...want.entries()].filter(([u]) => u.startsWith('u_a')).map(([, f]) => f)),
      'prefix totals',
    );
    const accented = await usage(
      `tenant_id=${INDEXED}&group_by=end_user&search=${encodeURIComponent('u_ü')}`,
    );
    expect(accented.data.map((b) => b.end_user)).toEqual(want.has('u_ünï') ? ['u_ünï'] : []);
    const none = await usage(`tenant_id=${INDEXED}&group_by=end_user&search=nobody`);
    expect(none).toMatchObject({ data: [], groups: 0, has_more: false });
    expect(none.totals.requests).toBe(0);
  });

  it("never shows another tenant's end users", async () => {
    const r = await usage(`tenant_id=ten_nobody_${run}&group_by=end_user`);
    expect(r.data).toEqual([]);
  });
});

describe('GET /admin/usage?group_by=tag', () => {
  it('reports each value of one tag key as the sum of the requests that carried it', async () => {
    for (const tag of ['team', 'feature']) {
      const want = expected(indexedEvents, byTag(tag));
      const r = await usage(`tenant_id=${INDEXED}&group_by=tag&tag=${tag}`);
      expect(r.tag).toBe(tag);
      expect(r.tag_keys).toEqual(['feature', 'team']);
      expect(r.data.map((b) => b.value).sort()).toEqual([...want.keys()].sort());
      for (const b of r.data) {
        expect(b.tag).toBe(tag);
        expectFigures(b, want.get(b.value!)!, `${tag}=${b.value}`);
      }
      expectFigures(r.totals, sum(want.values()), `${tag} totals`);
    }
  });

  it('without a key, every tag=value pair is a group; rollups-only writes count the same', async () => {
    for (const [tenant, list] of [
      [INDEXED, indexedEvents],
      [ROLLUPS_ONLY, rollupEvents],
    ] as const) {
      const want = expected(list, byPair);
      const r = await usage(`tenant_id=${tenant}&group_by=tag&limit=500`);
      expect(r.tag).toBeNull();
      expect(r.groups).toBe(want.size);
      for (const b of r.data) expectFigures(b, want.get(`${b.tag}=${b.value}`)!, `${b.tag}=${b.value}`);
    }
  });
});

describe('GET /admin/usage: what end_user and tag grouping refuse', () => {
  it('refuses a missing tenant, a key filter, and top-N options where they do not apply', async () => {
    for (const [query, param] of [
      ['group_by=end_user', 'tenant_id'],
      [`group_by=end_user&tenant_id=${INDEXED}&key_id=key_a`, 'key_id'],
      [`group_by=end_user&tenant_id=${INDEXED}&tag=team`, 'tag'],
      [`group_by=day&tenant_id=${INDEXED}&limit=5`, 'limit'],
      [`group_by=model&tenant_id=${INDEXED}&search=u_`, 'search'],
      [`group_by=end_user&tenant_id=${INDEXED}&limit=501`, 'limit'],
      [`group_by=end_user&tenant_id=${INDEXED}&limit=0`, 'limit'],
    ]) {
      const res = await admin('GET', `/usage?${query}`);
      expect(res.status, query).toBe(400);
      expect((res.json as { error: { param: string } }).error.param, query).toBe(param);
    }
  });
});

describe('GET /admin/logs?end_user=', () => {
  it("lists only that end user's requests, each with its end user and tags", async () => {
    const user = 'u_bob';
    const want = indexedEvents.filter((e) => e.endUser === user);
    const res = await admin('GET', `/logs?tenant_id=${INDEXED}&end_user=${user}&limit=100`);
    expect(res.status, res.text).toBe(200);
    const page = res.json as { data: { id: string; end_user: string | null; tags: unknown }[] };
    expect(page.data.map((l) => l.id).sort()).toEqual(want.map((e) => e.requestId).sort());
    const byId = new Map(want.map((e) => [e.requestId, e]));
    for (const l of page.data) {
      expect(l.end_user).toBe(user);
      expect(l.tags).toEqual(byId.get(l.id)!.tags);
    }
    const one = await admin('GET', `/logs/${want[0]!.requestId}`);
    expect(one.json).toMatchObject({ end_user: user, tags: want[0]!.tags });
  });
});

describe('the dashboard', () => {
  it("shows a log's end user and tags, and filters the log list by end user", async () => {
    const b = new Browser();
    await b.signIn();
    const e = indexedEvents.find((x) => x.endUser === 'u_alice' && x.tags?.team)!;
    const detail = await b.page(`/dashboard/logs/${e.requestId}`);
    expect(detail).toMatch(
      /<dt>End user<\/dt><dd><span class="id[^"]*" title="u_alice"><code>u_alice<\/code><\/span><\/dd>/,
    );
    expect(detail).toContain(`team=${e.tags!.team}`);
    const list = await b.page(`/dashboard/logs?tenant_id=${INDEXED}&end_user=u_alice`);
    const ids = indexedEvents.filter((x) => x.endUser === 'u_alice').map((x) => x.requestId);
    for (const id of ids) expect(list).toContain(id);
    expect(list).not.toContain(indexedEvents.find((x) => x.endUser === 'u_bob')!.requestId);
    expect(list).toContain('value="u_alice"');
  });
});

describe('through the gateway', () => {
  it("counts a request's end user, from the header or the body, in that user's usage", async () => {
    const tenant = await createTenant(`end-users-${run}`);
    const key = await createKey(tenant.id);
    const sent: [Record<string, unknown>, Record<string, string>][] = [
      [{}, { 'x-edgeway-user': 'u_header' }],
      [{}, { 'x-edgeway-user': 'u_header' }],
      [{ user: 'u_body' }, {}],
      // The header wins over the body.
      [{ user: 'u_body' }, { 'x-edgeway-user': 'u_header' }],
      [{}, {}],
    ];
    const ids: string[] = [];
    for (const [extra, headers] of sent) {
      const res = await post(
        '/v1/chat/completions',
        chatBody(`hello ${ids.length}`, extra),
        key.key,
        headers,
      );
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      ids.push(res.headers.get('x-edgeway-request-id')!);
    }
    const rows = await waitForLogs(ids);
    expect(rows.map((r) => r.end_user)).toEqual(['u_header', 'u_header', 'u_body', 'u_header', null]);
    const today = new Date().toISOString().slice(0, 10);
    const res = await admin(
      'GET',
      `/usage?tenant_id=${tenant.id}&group_by=end_user&from=${today}&to=${today}`,
    );
    const r = res.json as Report;
    const of = (picked: typeof rows) => ({
      requests: picked.length,
      input_tokens: picked.reduce((n, x) => n + x.input_tokens, 0),
      output_tokens: picked.reduce((n, x) => n + x.output_tokens, 0),
      cost_usd: picked.reduce((n, x) => n + x.cost_usd, 0),
    });
    const header = r.data.find((b) => b.end_user === 'u_header')!;
    const body = r.data.find((b) => b.end_user === 'u_body')!;
    const want = of([rows[0]!, rows[1]!, rows[3]!]);
    expect(header).toMatchObject({
      requests: 3,
      input_tokens: want.input_tokens,
      output_tokens: want.output_tokens,
    });
    expect(header.cost_usd).toBeCloseTo(want.cost_usd, 12);
    expect(body).toMatchObject({ requests: 1, input_tokens: rows[2]!.input_tokens });
    expect(r.groups).toBe(2);
    expect(r.totals.requests).toBe(4);
  });
});
