/**
 * Usage for everything, a tenant or a key: totals, per-day charts and table, guardrail counts per day,
 * per-model chart and table; MCP tool calls per server and tool, apart from model requests (usage-mcp.tsx);
 * for a tenant, its end users and tags (usage-groups.tsx).
 */
import type { ApiFailure } from '../admin-api';
import { fmtCompact, fmtInt, fmtPercent, fmtUsd } from '../format';
import type { ApiKey, LimitsReport, Tenant, UsageSeries } from '../schemas';
import { BudgetGlance } from './budget';
import { BarChart, HBarChart, LineChart } from './charts';
import { GuardrailDaysTable } from './guardrail-verdicts';
import { Failure, Id } from './parts';
import { EndUsersSection, type GroupFilters, TagsSection } from './usage-groups';
import { McpCallsSection } from './usage-mcp';

export type UsageFilters = GroupFilters & {
  tenant_id?: string | undefined;
  key_id?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
};

/** The filter forms' tenant picker: every tenant the admin may see, or all of them. */
export function TenantSelect(props: { tenants: Tenant[]; selected: string | null | undefined }) {
  return (
    <div>
      <label for="f-tenant">Tenant</label>
      <select id="f-tenant" name="tenant_id">
        <option value="">All tenants</option>
        {props.tenants.map((t) => (
          <option value={t.id} selected={t.id === props.selected}>
            {t.name}
          </option>
        ))}
      </select>
    </div>
  );
}

export function ScopeSelect(props: {
  tenants: Tenant[];
  keys: ApiKey[] | null;
  filters: { tenant_id?: string | undefined; key_id?: string | undefined };
}) {
  const f = props.filters;
  return (
    <>
      <TenantSelect tenants={props.tenants} selected={f.tenant_id} />
      <div>
        <label for="f-key">
          Key{props.keys ? '' : <span class="hint">Key ID (pick a tenant to choose from a list)</span>}
        </label>
        {props.keys ? (
          <select id="f-key" name="key_id">
            <option value="">All keys</option>
            {props.keys.map((k) => (
              <option value={k.id} selected={k.id === f.key_id}>{`${k.name || k.id} (${k.hint})`}</option>
            ))}
          </select>
        ) : (
          <input id="f-key" name="key_id" value={f.key_id ?? ''} autocomplete="off" />
        )}
      </div>
    </>
  );
}

function Totals(props: { t: UsageSeries['totals'] }) {
  const t = props.t;
  return (
    <div class="cards">
      <div class="card">
        Requests<b>{fmtInt(t.requests)}</b>
      </div>
      <div class="card">
        Tokens in / out<b>{`${fmtCompact(t.input_tokens)} / ${fmtCompact(t.output_tokens)}`}</b>
      </div>
      <div class="card">
        Cost<b>{fmtUsd(t.cost_usd)}</b>
      </div>
      <div class="card">
        Cache hits<b>{`${fmtInt(t.cache_hits)} (${fmtPercent(t.cache_hits, t.requests)})`}</b>
      </div>
      <div class="card">
        Saved by cache<b>{fmtUsd(t.saved_usd)}</b>
      </div>
      <div class="card">
        Errors<b>{fmtInt(t.errors)}</b>
      </div>
    </div>
  );
}

function row(label: string, r: UsageSeries['totals']) {
  return (
    <tr>
      <th scope="row">
        <Id value={label} />
      </th>
      <td class="num">{fmtInt(r.requests)}</td>
      <td class="num">{fmtInt(r.cache_hits)}</td>
      <td class="num">{fmtInt(r.input_tokens)}</td>
      <td class="num">{fmtInt(r.output_tokens)}</td>
      <td class="num">{fmtUsd(r.cost_usd)}</td>
      <td class="num">{fmtUsd(r.saved_usd)}</td>
      <td class="num">{fmtInt(r.errors)}</td>
    </tr>
  );
}

function UsageTable(props: {
  caption: string;
  first: string;
  rows: { label: string; r: UsageSeries['totals'] }[];
}) {
  return (
    <div class="scroll">
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{props.first}</th>
            <th scope="col" class="num">
              Requests
            </th>
            <th scope="col" class="num">
              Cache hits
            </th>
            <th scope="col" class="num">
              Tokens in
            </th>
            <th scope="col" class="num">
              Tokens out
            </th>
            <th scope="col" class="num">
              Cost
            </th>
            <th scope="col" class="num">
              Saved
            </th>
            <th scope="col" class="num">
              Errors
            </th>
          </tr>
        </thead>
        <tbody>{props.rows.map((x) => row(x.label, x.r))}</tbody>
      </table>
    </div>
  );
}

export function UsagePage(props: {
  filters: UsageFilters;
  tenants: Tenant[];
  keys: ApiKey[] | null;
  byDay: UsageSeries | null;
  byModel: UsageSeries | null;
  report: LimitsReport | null;
  /** A tenant's top end users and tag values; null without a tenant. */
  endUsers: UsageSeries | null;
  tags: UsageSeries | null;
  failure: ApiFailure | null;
}) {
  const { filters, byDay, byModel } = props;
  const days = byDay?.data ?? [];
  const labels = days.map((d) => d.day ?? '');
  const models = [...(byModel?.data ?? [])].sort(
    (a, b) => b.cost_usd - a.cost_usd || b.requests - a.requests,
  );
  return (
    <>
      <h1>Usage</h1>
      <form method="get" action="/dashboard/usage" class="grid" aria-label="Usage filters">
        <ScopeSelect tenants={props.tenants} keys={props.keys} filters={filters} />
        <div>
          <label for="f-from">From (UTC day)</label>
          <input id="f-from" name="from" type="date" value={filters.from ?? byDay?.from ?? ''} />
        </div>
        <div>
          <label for="f-to">To (UTC day)</label>
          <input id="f-to" name="to" type="date" value={filters.to ?? byDay?.to ?? ''} />
        </div>
        <div class="actions">
          <button type="submit">Show usage</button> <a href="/dashboard/usage">Reset</a>
        </div>
      </form>
      <Failure failure={props.failure} action="Usage could not be read" />
      {props.report ? (
        <BudgetGlance
          report={props.report}
          heading={props.report.scope === 'key' ? 'Key budget at a glance' : 'Tenant budget at a glance'}
        />
      ) : null}
      {byDay ? (
        <section aria-labelledby="totals-h">
          <h2 id="totals-h">{`${byDay.from} to ${byDay.to} (UTC)`}</h2>
          <Totals t={byDay.totals} />
          <BarChart
            id="c-req"
            title="Requests per day"
            summary={`${fmtInt(byDay.totals.requests)} requests, ${fmtInt(byDay.totals.cache_hits)} answered from cache.`}
            labels={labels}
            format={fmtCompact}
            series={[
              { name: 'from the provider', values: days.map((d) => d.requests - d.cache_hits) },
              { name: 'cache hits', values: days.map((d) => d.cache_hits), alt: true },
            ]}
          />
          <BarChart
            id="c-tok"
            title="Tokens per day"
            summary={`${fmtInt(byDay.totals.input_tokens)} input and ${fmtInt(byDay.totals.output_tokens)} output tokens.`}
            labels={labels}
            format={fmtCompact}
            series={[
              { name: 'input', values: days.map((d) => d.input_tokens) },
              { name: 'output', values: days.map((d) => d.output_tokens), alt: true },
            ]}
          />
          <LineChart
            id="c-cost"
            title="Cost per day (USD)"
            summary={`${fmtUsd(byDay.totals.cost_usd)} in total.`}
            labels={labels}
            format={fmtUsd}
            values={days.map((d) => d.cost_usd)}
          />
          <details>
            <summary>Per day, as a table</summary>
            <UsageTable
              caption="Usage per day"
              first="Day (UTC)"
              rows={[...days].reverse().map((d) => ({ label: d.day ?? '', r: d }))}
            />
          </details>
        </section>
      ) : null}
      {byDay ? <GuardrailDaysTable days={byDay.guardrails} /> : null}
      {byModel ? (
        <section aria-labelledby="models-h">
          <h2 id="models-h">Per model</h2>
          {models.length === 0 ? (
            <p>No requests in this range.</p>
          ) : (
            <>
              <HBarChart
                id="c-models"
                title="Requests per model"
                summary={`${models.length} models.`}
                labels={models.map((m) => m.model ?? '(none)')}
                values={models.map((m) => m.requests)}
                format={fmtCompact}
              />
              <UsageTable
                caption="Usage per model"
                first="Model"
                rows={models.map((m) => ({ label: m.model ?? '(none)', r: m }))}
              />
            </>
          )}
        </section>
      ) : null}
      {byDay ? (
        <McpCallsSection
          rows={byDay.mcp_calls}
          scope={{ tenant_id: filters.tenant_id, key_id: filters.key_id }}
        />
      ) : null}
      {filters.tenant_id ? null : (
        <p class="muted">Pick a tenant to see its top end users and its usage per tag.</p>
      )}
      {filters.key_id && (props.endUsers || props.tags) ? (
        <p class="muted">End users and tags below are the whole tenant's: they are not kept per key.</p>
      ) : null}
      {props.endUsers ? <EndUsersSection report={props.endUsers} filters={filters} /> : null}
      {props.tags ? <TagsSection report={props.tags} filters={filters} /> : null}
    </>
  );
}
