/**
 * A tenant's usage by who and what it was for, on the usage page: its top end users by spend (with a
 * search by id prefix, each linking to their logs) and its spend per value of a tag key (the key chosen
 * from those its usage was rolled up by). Both read GET /admin/usage with group_by=end_user|tag; the
 * totals line covers every end user (or value) that matched, not only the rows shown.
 */
import type { Child } from 'hono/jsx';
import { fmtInt, fmtPercent, fmtUsd } from '../format';
import type { UsageSeries } from '../schemas';
import { HBarChart } from './charts';
import { Id } from './parts';

/** The page's own filters, carried by the two forms below so each keeps the other's choice. */
export type GroupFilters = {
  /** End-user id prefix. */
  user_search?: string | undefined;
  /** The tag key to break spend down by; none: every tag=value pair. */
  tag?: string | undefined;
};

/** The usage page's filters (tenant, key, range and these). */
type PageFilters = GroupFilters & Readonly<Record<string, string | undefined>>;

/** The usage page's filters as hidden fields, for a form that changes one more. */
function Carried(props: { filters: PageFilters; omit: keyof GroupFilters }) {
  const entries = Object.entries(props.filters).filter(
    ([k, v]) => k !== props.omit && typeof v === 'string' && v !== '',
  );
  return (
    <>
      {entries.map(([k, v]) => (
        <input type="hidden" name={k} value={v} />
      ))}
    </>
  );
}

function GroupTable(props: {
  caption: string;
  heads: string[];
  rows: { cells: Child[]; r: UsageSeries['totals'] }[];
  whole: number;
}) {
  return (
    <div class="scroll">
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.heads.map((h) => (
              <th scope="col">{h}</th>
            ))}
            <th scope="col" class="num">
              Cost
            </th>
            <th scope="col" class="num">
              Share of cost
            </th>
            <th scope="col" class="num">
              Requests
            </th>
            <th scope="col" class="num">
              Tokens in
            </th>
            <th scope="col" class="num">
              Tokens out
            </th>
            <th scope="col" class="num">
              Cache hits
            </th>
            <th scope="col" class="num">
              Errors
            </th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map(({ cells, r }) => (
            <tr>
              {cells.map((c, i) => (i === 0 ? <th scope="row">{c}</th> : <td>{c}</td>))}
              <td class="num">{fmtUsd(r.cost_usd)}</td>
              <td class="num">{fmtPercent(r.cost_usd, props.whole)}</td>
              <td class="num">{fmtInt(r.requests)}</td>
              <td class="num">{fmtInt(r.input_tokens)}</td>
              <td class="num">{fmtInt(r.output_tokens)}</td>
              <td class="num">{fmtInt(r.cache_hits)}</td>
              <td class="num">{fmtInt(r.errors)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** `top 20 of 1,204 end users; all of them: $12.30 over 5,000 requests`. */
function Summary(props: { report: UsageSeries; what: string }) {
  const r = props.report;
  const groups = r.groups ?? r.data.length;
  const shown = r.has_more
    ? `Top ${fmtInt(r.data.length)} of ${fmtInt(groups)} ${props.what}`
    : `${fmtInt(groups)} ${props.what}`;
  return (
    <p class="muted">{`${shown}; all of them: ${fmtUsd(r.totals.cost_usd)} over ${fmtInt(r.totals.requests)} requests.`}</p>
  );
}

export function EndUsersSection(props: { report: UsageSeries; filters: PageFilters }) {
  const { report, filters } = props;
  const logs = (user: string) =>
    `/dashboard/logs?${new URLSearchParams({ tenant_id: report.tenant_id ?? '', end_user: user })}`;
  return (
    <section aria-labelledby="end-users-h">
      <h2 id="end-users-h">Top end users by spend</h2>
      <form method="get" action="/dashboard/usage" class="grid" aria-label="Search end users">
        <Carried filters={filters} omit="user_search" />
        <div>
          <label for="f-user-search">End user id starts with</label>
          <input
            id="f-user-search"
            name="user_search"
            value={filters.user_search ?? ''}
            placeholder="u_"
            autocomplete="off"
          />
        </div>
        <div class="actions">
          <button type="submit">Search</button>
        </div>
      </form>
      <Summary report={report} what="end users" />
      {report.data.length === 0 ? (
        <p>
          {filters.user_search
            ? 'No end user with such an id has usage in this range.'
            : 'No request in this range named an end user (x-edgeway-user, or the body’s user field).'}
        </p>
      ) : (
        <>
          <HBarChart
            id="c-end-users"
            title="Cost per end user (USD)"
            summary={`${report.data.length} end users shown.`}
            labels={report.data.map((d) => d.end_user ?? '')}
            values={report.data.map((d) => d.cost_usd)}
            format={fmtUsd}
          />
          <GroupTable
            caption="Usage per end user, costliest first"
            heads={['End user']}
            whole={report.totals.cost_usd}
            rows={report.data.map((d) => ({
              cells: [<Id value={d.end_user ?? ''} href={logs(d.end_user ?? '')} />],
              r: d,
            }))}
          />
        </>
      )}
    </section>
  );
}

export function TagsSection(props: { report: UsageSeries; filters: PageFilters }) {
  const { report, filters } = props;
  const keys = report.tag_keys ?? [];
  return (
    <section aria-labelledby="tags-h">
      <h2 id="tags-h">Per tag</h2>
      <form method="get" action="/dashboard/usage" class="grid" aria-label="Choose a tag key">
        <Carried filters={filters} omit="tag" />
        <div>
          <label for="f-tag">Tag key (cf-aig-metadata)</label>
          <select id="f-tag" name="tag">
            <option value="">Every key</option>
            {[...new Set([...keys, ...(filters.tag ? [filters.tag] : [])])].map((k) => (
              <option value={k} selected={k === filters.tag}>
                {k}
              </option>
            ))}
          </select>
        </div>
        <div class="actions">
          <button type="submit">Break down</button>
        </div>
      </form>
      {report.data.length === 0 ? (
        <p>
          No tagged usage in this range: requests are rolled up by the values of the tenant’s tag keys in
          their cf-aig-metadata header.
        </p>
      ) : (
        <>
          <Summary report={report} what={filters.tag ? `values of ${filters.tag}` : 'tag values'} />
          <HBarChart
            id="c-tags"
            title="Cost per tag value (USD)"
            summary={`${report.data.length} values shown.`}
            labels={report.data.map((d) => `${d.tag}=${d.value}`)}
            values={report.data.map((d) => d.cost_usd)}
            format={fmtUsd}
          />
          <GroupTable
            caption={filters.tag ? `Usage per value of ${filters.tag}` : 'Usage per tag and value'}
            heads={['Tag', 'Value']}
            whole={filters.tag ? report.totals.cost_usd : 0}
            rows={report.data.map((d) => ({
              cells: [<Id value={d.tag ?? ''} max={12} />, <Id value={d.value ?? ''} />],
              r: d,
            }))}
          />
          {filters.tag ? null : (
            <p class="muted">
              A request with several tags counts under each of them, so shares are left out.
            </p>
          )}
        </>
      )}
    </section>
  );
}
