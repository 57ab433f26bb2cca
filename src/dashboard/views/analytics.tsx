/**
 * The Analytics page: range presets (1 h, 24 h, 7 d, 30 d) and a tenant, the time series
 * (analytics-charts.tsx), latency percentiles per model, provider or route, the top-N spend tables with
 * "other", failed lookups (analytics-tables.tsx), and a CSV link for each table.
 */
import type { ApiFailure } from '../admin-api';
import { fmtCompact, fmtInt, fmtPercent, fmtTime, fmtUsd } from '../format';
import type { AnalyticsReport, Tenant } from '../schemas';
import { SeriesCharts } from './analytics-charts';
import { LatencyTable, LookupFailuresTable, RefusedKeysTable, TopTable } from './analytics-tables';
import { Failure } from './parts';
import { TenantSelect } from './usage';

export const RANGES = [
  { value: '1h', label: '1 h' },
  { value: '24h', label: '24 h' },
  { value: '7d', label: '7 d' },
  { value: '30d', label: '30 d' },
] as const;
export type RangeValue = (typeof RANGES)[number]['value'];

export const GROUPS = [
  { value: 'model', label: 'Model' },
  { value: 'provider', label: 'Provider' },
  { value: 'route', label: 'Route' },
] as const;
export type GroupValue = (typeof GROUPS)[number]['value'];

export interface AnalyticsFilters {
  range: RangeValue;
  group_by: GroupValue;
  tenant_id?: string | undefined;
}

/** The page's (or its CSV export's) query for these filters, with `over` replacing some (pure). */
export function analyticsQuery(f: AnalyticsFilters, over: Record<string, string> = {}): string {
  const q = new URLSearchParams({ range: f.range, group_by: f.group_by });
  if (f.tenant_id) q.set('tenant_id', f.tenant_id);
  for (const [k, v] of Object.entries(over)) q.set(k, v);
  return q.toString();
}

const CSV_LINKS = [
  ['series', 'time series'],
  ['latency', 'latency'],
  ['tenants', 'tenants'],
  ['keys', 'keys'],
  ['models', 'models'],
  ['end_users', 'end users'],
  ['lookup_failures', 'failed lookups'],
  ['refused_keys', 'keys refused'],
] as const;

function Cards(props: { t: AnalyticsReport['totals'] }) {
  const t = props.t;
  return (
    <div class="cards">
      <div class="card">
        Requests<b>{fmtInt(t.requests)}</b>
      </div>
      <div class="card">
        Error rate<b>{fmtPercent(t.errors, t.requests)}</b>
      </div>
      <div class="card">
        Cache hit rate<b>{fmtPercent(t.cache_hits, t.requests)}</b>
      </div>
      <div class="card">
        Cost<b>{fmtUsd(t.cost_usd)}</b>
      </div>
      <div class="card">
        Tokens in / out<b>{`${fmtCompact(t.input_tokens)} / ${fmtCompact(t.output_tokens)}`}</b>
      </div>
      <div class="card">
        Limit denials<b>{fmtInt(t.denials)}</b>
      </div>
    </div>
  );
}

function stepName(ms: number): string {
  if (ms >= 86_400_000) return `${ms / 86_400_000} d`;
  if (ms >= 3_600_000) return `${ms / 3_600_000} h`;
  return `${ms / 60_000} min`;
}

export function AnalyticsPage(props: {
  filters: AnalyticsFilters;
  tenants: Tenant[];
  report: AnalyticsReport | null;
  failure: ApiFailure | null;
}) {
  const { filters: f, report: r } = props;
  const tenantName = (id: string) => r?.names.tenants[id];
  const keyName = (id: string) => r?.names.keys[id];
  return (
    <>
      <h1>Analytics</h1>
      <Failure failure={props.failure} action="Analytics could not be read" />
      <nav aria-label="Range" class="actions presets">
        {RANGES.map((p) => (
          <a
            class={p.value === f.range ? 'button' : 'button secondary'}
            href={`/dashboard/analytics?${analyticsQuery(f, { range: p.value })}`}
            aria-current={p.value === f.range ? 'true' : undefined}
          >
            {p.label}
          </a>
        ))}
      </nav>
      <form method="get" action="/dashboard/analytics" class="grid" aria-label="Analytics filters">
        <div>
          <label for="f-range">Range</label>
          <select id="f-range" name="range">
            {RANGES.map((p) => (
              <option value={p.value} selected={p.value === f.range}>{`Last ${p.label}`}</option>
            ))}
          </select>
        </div>
        <div>
          <label for="f-group">Percentiles per</label>
          <select id="f-group" name="group_by">
            {GROUPS.map((g) => (
              <option value={g.value} selected={g.value === f.group_by}>
                {g.label}
              </option>
            ))}
          </select>
        </div>
        <TenantSelect tenants={props.tenants} selected={f.tenant_id} />
        <div class="actions">
          <button type="submit">Show</button>
        </div>
      </form>
      {r ? (
        <>
          <section aria-labelledby="series-h">
            <h2 id="series-h">{`${fmtTime(r.from)} to ${fmtTime(r.to)}`}</h2>
            <p class="muted">
              {`${r.granularity === 'minute' ? 'Per-minute' : 'Hourly'} buckets, ${stepName(r.step_ms)} per point.`}
            </p>
            <Cards t={r.totals} />
            <SeriesCharts report={r} />
          </section>
          <section aria-labelledby="latency-h">
            <h2 id="latency-h">Latency percentiles</h2>
            <LatencyTable report={r} />
          </section>
          <section aria-labelledby="top-h">
            <h2 id="top-h">Top spend</h2>
            <TopTable
              id="top-tenants"
              caption="Cost per tenant"
              first="Tenant"
              top={r.top.tenant}
              name={tenantName}
              href={(id) => `/dashboard/tenants/${encodeURIComponent(id)}`}
            />
            <TopTable id="top-keys" caption="Cost per key" first="Key" top={r.top.key} name={keyName} />
            <TopTable id="top-models" caption="Cost per model" first="Model" top={r.top.model} />
            {r.top.end_user ? (
              <TopTable
                id="top-end-users"
                caption={`Cost per end user, UTC days ${r.days.from} to ${r.days.to} (kept per day)`}
                first="End user"
                top={r.top.end_user}
              />
            ) : (
              <p id="top-end-users" class="muted">
                {r.key_id
                  ? 'End users are kept per tenant, not per key: drop the key to rank them.'
                  : "Pick a tenant to rank its end users (end-user ids are each tenant's own)."}
              </p>
            )}
          </section>
          <section aria-labelledby="refused-h">
            <h2 id="refused-h">Refusing keys</h2>
            <p class="muted">
              Keys whose requests a limit or budget refused (429). Each key&#39;s page says which limit and
              whether it is still refusing.
            </p>
            <RefusedKeysTable report={r} />
          </section>
          <section aria-labelledby="failures-h">
            <h2 id="failures-h">Failed lookups</h2>
            <p class="muted">
              Requests for a model or route that does not exist, is not configured, or the key may not use;
              they are left out of every per-model figure.
            </p>
            <LookupFailuresTable report={r} />
          </section>
          <section aria-labelledby="csv-h">
            <h2 id="csv-h">Export</h2>
            <ul class="actions csv">
              {CSV_LINKS.map(([table, label]) => (
                <li>
                  <a
                    href={`/dashboard/analytics/export.csv?${analyticsQuery(f, { table })}`}
                  >{`${label} (CSV)`}</a>
                </li>
              ))}
            </ul>
          </section>
        </>
      ) : null}
    </>
  );
}
