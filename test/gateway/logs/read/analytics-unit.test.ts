/** The analytics reads' pure parts: range resolution, SQL shape, percentiles of a row, top-N "other", CSV. */
import { describe, expect, it } from 'vitest';
import { bucketColumns } from '../../../../src/core/latency-buckets';
import { fillSeries, latencyRow, topTable } from '../../../../src/logs/read/analytics';
import { analyticsCsv } from '../../../../src/logs/read/analytics-csv';
import { type AnalyticsRange, resolveRange, stepStarts } from '../../../../src/logs/read/analytics-range';
import { latencySql, seriesSql, topEndUsersSql, topSql } from '../../../../src/logs/read/analytics-sql';

const NOW = Date.UTC(2026, 10, 27, 19, 17, 42, 123);
const H = 3_600_000;

function range(preset: '1h' | '24h' | '7d' | '30d'): AnalyticsRange {
  const r = resolveRange({ preset }, NOW);
  if ('problem' in r) throw new Error(r.message);
  return r;
}

describe('resolveRange', () => {
  it('reads minute buckets up to 6 h and hourly ones beyond, with at most 125 points', () => {
    expect(range('1h')).toMatchObject({ table: 'usage_minutely', granularity: 'minute', stepMs: 60_000 });
    expect(range('24h')).toMatchObject({ table: 'usage_hourly', granularity: 'hour', stepMs: H });
    expect(range('7d')).toMatchObject({ table: 'usage_hourly', stepMs: 3 * H });
    expect(range('30d')).toMatchObject({ table: 'usage_hourly', stepMs: 6 * H });
    const six = resolveRange({ from: NOW - 6 * H, to: NOW }, NOW);
    expect(six).toMatchObject({ preset: 'custom', table: 'usage_minutely', stepMs: 5 * 60_000 });
    const sixAndAMinute = resolveRange({ from: NOW - 6 * H - 60_000, to: NOW }, NOW);
    expect(sixAndAMinute).toMatchObject({ table: 'usage_hourly' });
    // Minute rows older than 48 h are gone: an old short range reads the hourly buckets.
    const lastWeek = resolveRange({ from: NOW - 7 * 24 * H, to: NOW - 7 * 24 * H + H }, NOW);
    expect(lastWeek).toMatchObject({ table: 'usage_hourly', stepMs: H });
  });

  it('starts on a bucket boundary and names the UTC days it touches', () => {
    const r = range('24h');
    expect(r.from % H).toBe(0);
    expect(r.days).toEqual({ from: '2026-11-26', to: '2026-11-27' });
    expect(range('1h').from % 60_000).toBe(0);
  });

  it('refuses an inverted or too long range', () => {
    expect(resolveRange({ from: 2, to: 1 }, NOW)).toMatchObject({ problem: 'inverted' });
    expect(resolveRange({ from: 0, to: 401 * 24 * H }, NOW)).toMatchObject({ problem: 'too_long' });
  });

  it('puts every step of the range on the x axis, the last one holding now', () => {
    for (const preset of ['1h', '24h', '7d', '30d'] as const) {
      const r = range(preset);
      const starts = stepStarts(r);
      expect(starts[0]).toBeLessThanOrEqual(r.from);
      expect(starts.at(-1)).toBe(NOW - (NOW % r.stepMs));
      expect(starts.length).toBeLessThanOrEqual(126);
      expect(starts.every((t, i) => i === 0 || t - starts[i - 1]! === r.stepMs)).toBe(true);
    }
  });
});

describe('analytics SQL', () => {
  it('bounds every read by the range, then by the scope, in one JSON parameter for the tenants', () => {
    const r = range('24h');
    const all = seriesSql(r, { tenantIds: null });
    expect(all.sql).toContain('FROM usage_hourly WHERE start >= ? AND start <= ?');
    expect(all.sql).not.toContain('tenant_id');
    expect(all.binds).toEqual([H, r.from, r.to]);
    const scoped = seriesSql(r, { tenantIds: ['ten_a', 'ten_b'], keyId: 'key_1' });
    expect(scoped.sql).toContain('tenant_id IN (SELECT value FROM json_each(?)) AND key_id = ?');
    expect(scoped.binds).toEqual([H, r.from, r.to, '["ten_a","ten_b"]', 'key_1']);
  });

  it('sums every histogram column and leaves out the empty group', () => {
    const s = latencySql(range('1h'), { tenantIds: null }, 'route', 20);
    expect(s.sql).toContain('FROM usage_minutely');
    expect(s.sql).toContain("route <> ''");
    for (const c of [...bucketColumns('lat'), ...bucketColumns('ttft')]) expect(s.sql).toContain(`sum(${c})`);
    expect(s.binds.at(-1)).toBe(20);
  });

  it('ranks groups by cost with window sums for "other"; end users by UTC day', () => {
    const t = topSql(range('7d'), { tenantIds: ['ten_a'] }, 'key', 5);
    expect(t.sql).toMatch(/count\(\*\) OVER \(\) AS groups/);
    expect(t.sql).toContain("key_id <> ''");
    expect(t.sql).toContain('ORDER BY cost_usd DESC');
    const u = topEndUsersSql(range('7d'), ['ten_a'], 5);
    expect(u.sql).toContain('GROUP BY tenant_id, end_user');
    expect(u.sql).toContain('FROM usage_end_users_daily WHERE day >= ? AND day <= ?');
    expect(u.binds).toEqual(['2026-11-20', '2026-11-27', '["ten_a"]', 5]);
  });
});

describe('analytics rows', () => {
  it('turns summed histograms into percentiles', () => {
    const raw: Record<string, unknown> = {
      name: 'm',
      requests: 10,
      errors: 1,
      fallbacks: 0,
      latency_sum_ms: 875,
      ttft_count: 0,
      ttft_sum_ms: 0,
    };
    for (const c of [...bucketColumns('lat'), ...bucketColumns('ttft')]) raw[c] = 0;
    raw.lat_8 = 10;
    const row = latencyRow(raw);
    expect(row.latency_p50_ms).toBeCloseTo(87.5);
    expect(row.latency_avg_ms).toBeCloseTo(87.5);
    expect(row.ttft_p50_ms).toBeNull();
  });

  it('says what the groups past the top hold', () => {
    const whole = { groups: 3, all_requests: 10, all_cost_usd: 6, all_tokens: 100 };
    const t = topTable([
      { name: 'a', requests: 5, cost_usd: 4, tokens: 60, ...whole },
      { name: 'b', requests: 3, cost_usd: 1.5, tokens: 30, ...whole },
    ]);
    expect(t.other).toEqual({ groups: 1, requests: 2, cost_usd: 0.5, tokens: 10 });
    expect(
      topTable([
        {
          name: 'a',
          requests: 1,
          cost_usd: 1,
          tokens: 1,
          groups: 1,
          all_requests: 1,
          all_cost_usd: 1,
          all_tokens: 1,
        },
      ]).other,
    ).toBeNull();
    expect(topTable([])).toEqual({ rows: [], other: null });
  });

  it('exports CSV with quoting, formula-safe cells and the "other" row', () => {
    const r = range('1h');
    const series = fillSeries(r, []);
    const { start: _, ...totals } = series[0]!;
    const csv = analyticsCsv(
      {
        series,
        totals,
        latency: [],
        top: {
          tenant: { rows: [], other: null },
          key: { rows: [], other: null },
          model: {
            rows: [{ name: '=cmd,"x"', requests: 1, cost_usd: 0.5, tokens: 3 }],
            other: { groups: 2, requests: 4, cost_usd: 0.25, tokens: 9 },
          },
          end_user: null,
        },
        lookup_failures: [],
        refused_keys: [{ key_id: 'key_1', tenant_id: '+t', denials: 3, requests: 7 }],
        names: { tenants: {}, keys: {} },
      },
      'models',
    );
    expect(csv).toBe(
      'name,requests,cost_usd,tokens,groups\r\n"\'=cmd,""x""",1,0.5,3,\r\n(other),4,0.25,9,2\r\n',
    );
  });
});
