/**
 * One table of an analytics report as CSV (RFC 4180, pure): a header row, then one line per row, CRLF.
 * Times are ISO 8601 UTC; a cell with a comma, quote or line break is quoted, and one that a spreadsheet
 * would read as a formula (=, +, -, @ first) is prefixed with a quote, since model names and end-user ids
 * come from clients.
 */
import type { AnalyticsReport } from './analytics';

export const CSV_TABLES = [
  'series',
  'latency',
  'tenants',
  'keys',
  'models',
  'end_users',
  'lookup_failures',
  'refused_keys',
] as const;
export type CsvTable = (typeof CSV_TABLES)[number];

type Cell = string | number | null;

function cell(v: Cell): string {
  if (v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const csv = (header: readonly string[], rows: readonly Cell[][]) =>
  `${[header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;

const iso = (ms: number) => new Date(ms).toISOString();

const TOP_OF: Record<'tenants' | 'keys' | 'models' | 'end_users', keyof AnalyticsReport['top']> = {
  tenants: 'tenant',
  keys: 'key',
  models: 'model',
  end_users: 'end_user',
};

export function analyticsCsv(report: AnalyticsReport, table: CsvTable): string {
  switch (table) {
    case 'series': {
      const first = report.series[0];
      const counters = first ? Object.keys(first).filter((k) => k !== 'start') : [];
      return csv(
        ['start', ...counters],
        report.series.map((p) => [iso(p.start), ...counters.map((c) => p[c as keyof typeof p])]),
      );
    }
    case 'latency':
      return csv(
        [
          'name',
          'requests',
          'errors',
          'fallbacks',
          'latency_avg_ms',
          'latency_p50_ms',
          'latency_p95_ms',
          'latency_p99_ms',
          'ttft_count',
          'ttft_p50_ms',
          'ttft_p95_ms',
        ],
        report.latency.map((r) => [
          r.name,
          r.requests,
          r.errors,
          r.fallbacks,
          r.latency_avg_ms,
          r.latency_p50_ms,
          r.latency_p95_ms,
          r.latency_p99_ms,
          r.ttft_count,
          r.ttft_p50_ms,
          r.ttft_p95_ms,
        ]),
      );
    case 'lookup_failures':
      return csv(
        ['tenant_id', 'key_id', 'model', 'error_code', 'requests', 'last_seen'],
        report.lookup_failures.map((r) => [
          r.tenant_id,
          r.key_id,
          r.model,
          r.error_code,
          r.requests,
          iso(r.last_seen),
        ]),
      );
    case 'refused_keys':
      return csv(
        ['key_id', 'tenant_id', 'denials', 'requests'],
        report.refused_keys.map((r) => [r.key_id, r.tenant_id, r.denials, r.requests]),
      );
    default: {
      const top = report.top[TOP_OF[table]];
      // End users are each tenant's own: their rows say whose.
      const owned = table === 'end_users';
      const rows: Cell[][] = (top?.rows ?? []).map((r) => [
        r.name,
        r.requests,
        r.cost_usd,
        r.tokens,
        null,
        ...(owned ? [r.tenant_id ?? null] : []),
      ]);
      if (top?.other)
        rows.push([
          '(other)',
          top.other.requests,
          top.other.cost_usd,
          top.other.tokens,
          top.other.groups,
          ...(owned ? [null] : []),
        ]);
      const header = ['name', 'requests', 'cost_usd', 'tokens', 'groups'];
      return csv(owned ? [...header, 'tenant_id'] : header, rows);
    }
  }
}
