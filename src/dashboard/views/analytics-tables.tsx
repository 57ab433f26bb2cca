/**
 * The analytics page's tables: latency and TTFT percentiles per model, provider or route; the costliest
 * tenants, keys, models and end users with their "other" row; the failed lookups. Every id, model and
 * name goes through `Id` (ellipsised, full value on hover), tenant and key names beside their ids.
 */
import { fmtInt, fmtNum, fmtPercent, fmtTime, fmtUsd } from '../format';
import type { AnalyticsReport } from '../schemas';
import { Id } from './parts';

type Top = NonNullable<AnalyticsReport['top']['end_user']>;

/** A latency in ms: decimals below 10 ms, where they say something. */
export function fmtLatency(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 10 ? `${fmtNum(Math.round(ms * 10) / 10)} ms` : `${fmtInt(ms)} ms`;
}

const GROUP_LABEL = { model: 'Model', provider: 'Provider', route: 'Route' } as const;

export function LatencyTable(props: { report: AnalyticsReport }) {
  const { latency, group_by } = props.report;
  const label = GROUP_LABEL[group_by];
  if (latency.length === 0) return <p>{`No requests reached a ${label.toLowerCase()} in this range.`}</p>;
  return (
    <div class="scroll">
      <table id="latency">
        <caption>{`Latency and time to first token per ${label.toLowerCase()}, busiest first`}</caption>
        <thead>
          <tr>
            <th scope="col">{label}</th>
            <th scope="col" class="num">
              Requests
            </th>
            <th scope="col" class="num">
              Errors
            </th>
            <th scope="col" class="num">
              p50
            </th>
            <th scope="col" class="num">
              p95
            </th>
            <th scope="col" class="num">
              p99
            </th>
            <th scope="col" class="num">
              TTFT p50
            </th>
            <th scope="col" class="num">
              TTFT p95
            </th>
          </tr>
        </thead>
        <tbody>
          {latency.map((r) => (
            <tr>
              <th scope="row">
                <Id value={r.name} />
              </th>
              <td class="num">{fmtInt(r.requests)}</td>
              <td class="num">{`${fmtInt(r.errors)} (${fmtPercent(r.errors, r.requests)})`}</td>
              <td class="num">{fmtLatency(r.latency_p50_ms)}</td>
              <td class="num">{fmtLatency(r.latency_p95_ms)}</td>
              <td class="num">{fmtLatency(r.latency_p99_ms)}</td>
              <td class="num">{fmtLatency(r.ttft_p50_ms)}</td>
              <td class="num">{fmtLatency(r.ttft_p95_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function TopTable(props: {
  id: string;
  caption: string;
  first: string;
  top: Top;
  name?: (id: string) => string | undefined;
  href?: (id: string) => string;
}) {
  const { top } = props;
  if (top.rows.length === 0)
    return (
      <p id={props.id}>
        <strong>{props.caption}:</strong> no spend in this range.
      </p>
    );
  const total = top.rows.reduce((s, r) => s + r.cost_usd, 0) + (top.other?.cost_usd ?? 0);
  return (
    <div class="scroll">
      <table id={props.id}>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{props.first}</th>
            <th scope="col" class="num">
              Cost
            </th>
            <th scope="col" class="num">
              Share
            </th>
            <th scope="col" class="num">
              Requests
            </th>
            <th scope="col" class="num">
              Tokens
            </th>
          </tr>
        </thead>
        <tbody>
          {top.rows.map((r) => (
            <tr>
              <th scope="row">
                <Id value={r.name} name={props.name?.(r.name)} href={props.href?.(r.name)} />
              </th>
              <td class="num">{fmtUsd(r.cost_usd)}</td>
              <td class="num">{fmtPercent(r.cost_usd, total)}</td>
              <td class="num">{fmtInt(r.requests)}</td>
              <td class="num">{fmtInt(r.tokens)}</td>
            </tr>
          ))}
          {top.other ? (
            <tr class="other">
              <th scope="row">{`Other (${fmtInt(top.other.groups)})`}</th>
              <td class="num">{fmtUsd(top.other.cost_usd)}</td>
              <td class="num">{fmtPercent(top.other.cost_usd, total)}</td>
              <td class="num">{fmtInt(top.other.requests)}</td>
              <td class="num">{fmtInt(top.other.tokens)}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

export function LookupFailuresTable(props: { report: AnalyticsReport }) {
  const { lookup_failures: rows, names, days } = props.report;
  const caption = `Failed lookups, UTC days ${days.from} to ${days.to}`;
  if (rows.length === 0)
    return (
      <p id="lookup-failures">
        <strong>{caption}:</strong> none.
      </p>
    );
  return (
    <div class="scroll">
      <table id="lookup-failures">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Model asked for</th>
            <th scope="col">Error</th>
            <th scope="col" class="num">
              Requests
            </th>
            <th scope="col">Tenant</th>
            <th scope="col">Key</th>
            <th scope="col">Last seen</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((f) => (
            <tr>
              <th scope="row">
                {f.model === '' ? <span class="muted">(none)</span> : <Id value={f.model} />}
              </th>
              <td>
                <code>{f.error_code}</code>
              </td>
              <td class="num">{fmtInt(f.requests)}</td>
              <td>
                <Id value={f.tenant_id} name={names.tenants[f.tenant_id]} />
              </td>
              <td>
                {f.key_id === '' ? (
                  <span class="muted">—</span>
                ) : (
                  <Id value={f.key_id} name={names.keys[f.key_id]} />
                )}
              </td>
              <td>{fmtTime(f.last_seen)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The keys limits or budgets refused most: why each refuses is on its page (its limits and their states). */
export function RefusedKeysTable(props: { report: AnalyticsReport }) {
  const { refused_keys: rows, names } = props.report;
  const caption = 'Keys refused by a limit or budget';
  if (rows.length === 0)
    return (
      <p id="refused-keys">
        <strong>{caption}:</strong> none in this range.
      </p>
    );
  return (
    <div class="scroll">
      <table id="refused-keys">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col" class="num">
              Refused
            </th>
            <th scope="col" class="num">
              Of requests
            </th>
            <th scope="col">Tenant</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((k) => (
            <tr>
              <th scope="row">
                <Id
                  value={k.key_id}
                  name={names.keys[k.key_id]}
                  href={`/dashboard/keys/${encodeURIComponent(k.key_id)}`}
                />
              </th>
              <td class="num">{fmtInt(k.denials)}</td>
              <td class="num">{fmtInt(k.requests)}</td>
              <td>
                <Id
                  value={k.tenant_id}
                  name={names.tenants[k.tenant_id]}
                  href={`/dashboard/tenants/${encodeURIComponent(k.tenant_id)}`}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
