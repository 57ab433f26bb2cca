/**
 * The request log: delivery reconciliation, filter and search form (request id, model prefix `gpt-4*`,
 * error code, one metadata key=value), paginated table with tenants' and keys' names beside their ids, the
 * archive's find and export forms, and one request's detail (its end user and tags, its upstream
 * attempts when it made any, its guardrail verdicts, payload only when collected). MCP calls (endpoint
 * /mcp) are listed among requests, shown as tool calls (log-mcp.tsx), and can be listed alone.
 */
import type { Reconciliation } from '../../logs/read/reconcile';
import type { ApiFailure } from '../admin-api';
import { fmtInt, fmtMs, fmtTime, fmtUsd } from '../format';
import type { Child } from 'hono/jsx';
import type { ApiKey, LogDetail, LogRow, Tenant } from '../schemas';
import { VerdictBadges, VerdictsTable } from './guardrail-verdicts';
import { LogArchiveForms } from './log-archive';
import { McpCell, McpFacts } from './log-mcp';
import { RouteCell, TriesTable } from './log-tries';
import { Failure, Id, Pager } from './parts';
import { ScopeSelect } from './usage';

export type LogFilters = Partial<
  Record<
    | 'tenant_id'
    | 'key_id'
    | 'request_id'
    | 'model'
    | 'error_code'
    | 'meta'
    | 'route'
    | 'end_user'
    | 'endpoint'
    | 'server'
    | 'status'
    | 'cache'
    | 'from'
    | 'to'
    | 'cursor',
    string
  >
>;

const CACHE = ['HIT', 'SEMANTIC', 'MISS', 'BYPASS', 'NONE'];
/** The endpoint of MCP calls' logs (src/core/log-event.ts MCP_ENDPOINT). */
const MCP = '/mcp';
const logPath = (id: string) => `/dashboard/logs/${encodeURIComponent(id)}`;

function statusClass(r: LogRow): string {
  return r.status >= 400 || r.error_code ? 'error' : 'ok';
}

export function LogsPage(props: {
  filters: LogFilters;
  tenants: Tenant[];
  keys: ApiKey[] | null;
  rows: LogRow[] | null;
  next: string | null;
  failure: ApiFailure | null;
  delivery: Reconciliation | null;
  /** Which archive forms the admin may use. */
  archive: { find: boolean; exports: boolean };
}) {
  const f = props.filters;
  return (
    <>
      <h1>Logs</h1>
      {props.delivery ? <Delivery r={props.delivery} /> : null}
      <form method="get" action="/dashboard/logs" class="grid" aria-label="Log filters">
        <ScopeSelect tenants={props.tenants} keys={props.keys} filters={f} />
        <div>
          <label for="f-endpoint">Requests</label>
          <select id="f-endpoint" name="endpoint">
            <option value="">All</option>
            <option value={MCP} selected={f.endpoint === MCP}>
              MCP calls
            </option>
          </select>
        </div>
        <div>
          <label for="f-request-id">Request id</label>
          <input
            id="f-request-id"
            name="request_id"
            value={f.request_id ?? ''}
            placeholder="x-edgeway-request-id"
            autocomplete="off"
          />
        </div>
        <div>
          <label for="f-model">
            Model<span class="hint">or MCP tool; a prefix ends in *, e.g. gpt-4*</span>
          </label>
          <input id="f-model" name="model" value={f.model ?? ''} placeholder="mock/echo" autocomplete="off" />
        </div>
        <div>
          <label for="f-error-code">
            Error code<span class="hint">exact, e.g. rate_limited</span>
          </label>
          <input id="f-error-code" name="error_code" value={f.error_code ?? ''} autocomplete="off" />
        </div>
        <div>
          <label for="f-meta">
            Metadata<span class="hint">key=value, from cf-aig-metadata</span>
          </label>
          <input id="f-meta" name="meta" value={f.meta ?? ''} placeholder="team=search" autocomplete="off" />
        </div>
        <div>
          <label for="f-server">
            MCP server<span class="hint">namespace</span>
          </label>
          <input id="f-server" name="server" value={f.server ?? ''} placeholder="github" autocomplete="off" />
        </div>
        <div>
          <label for="f-route">Route</label>
          <input id="f-route" name="route" value={f.route ?? ''} placeholder="smart" autocomplete="off" />
        </div>
        <div>
          <label for="f-end-user">End user</label>
          <input
            id="f-end-user"
            name="end_user"
            value={f.end_user ?? ''}
            placeholder="u_123"
            autocomplete="off"
          />
        </div>
        <div>
          <label for="f-status">
            Status<span class="hint">429, 4xx, error or ok</span>
          </label>
          <input id="f-status" name="status" value={f.status ?? ''} autocomplete="off" />
        </div>
        <div>
          <label for="f-cache">Cache</label>
          <select id="f-cache" name="cache">
            <option value="">Any</option>
            {CACHE.map((v) => (
              <option value={v} selected={f.cache?.toUpperCase() === v}>
                {v}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="f-from">From (UTC)</label>
          <input id="f-from" name="from" type="datetime-local" value={f.from ?? ''} />
        </div>
        <div>
          <label for="f-to">To (UTC)</label>
          <input id="f-to" name="to" type="datetime-local" value={f.to ?? ''} />
        </div>
        <div class="actions">
          <button type="submit">Filter</button> <a href="/dashboard/logs">Reset</a>
        </div>
      </form>
      <Failure failure={props.failure} action="Logs could not be read" />
      {props.rows === null ? null : props.rows.length === 0 ? (
        <p>No requests match. Requests appear here a few seconds after they end.</p>
      ) : (
        <div class="scroll">
          <table class="wrap-heads">
            <caption>Requests, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time (UTC)</th>
                <th scope="col">Status</th>
                <th scope="col">Model or tool</th>
                <th scope="col">Cache</th>
                <th scope="col">Guardrails</th>
                <th scope="col" class="num">
                  Tokens in / out
                </th>
                <th scope="col" class="num">
                  Cost
                </th>
                <th scope="col" class="num">
                  Latency
                </th>
                <th scope="col">Tenant / key</th>
              </tr>
            </thead>
            <tbody>
              {props.rows.map((r) => (
                <tr>
                  <th scope="row">
                    <a href={logPath(r.id)} aria-label={`Request ${r.id}`}>
                      {fmtTime(r.time).replace(' UTC', '')}
                    </a>
                  </th>
                  <td>
                    <span class={`badge ${statusClass(r)}`}>{r.status}</span>
                    {r.error_code ? (
                      <>
                        {' '}
                        <Id value={r.error_code} max={10} />
                      </>
                    ) : null}
                  </td>
                  <td>
                    {r.endpoint === MCP ? (
                      <McpCell log={r} />
                    ) : r.route ? (
                      <RouteCell route={r.route} tries={r.tries} />
                    ) : r.model ? (
                      <Id value={r.model} max={12} />
                    ) : (
                      <span class="muted">—</span>
                    )}
                  </td>
                  <td>
                    {r.cache ? (
                      <span class={`badge ${r.cache}`}>{r.cache}</span>
                    ) : (
                      <span class="muted">—</span>
                    )}
                  </td>
                  <td>
                    <VerdictBadges verdicts={r.guardrails} />
                  </td>
                  <td class="num">{`${fmtInt(r.input_tokens)} / ${fmtInt(r.output_tokens)}`}</td>
                  <td class="num">{fmtUsd(r.cost_usd)}</td>
                  <td class="num">{fmtMs(Math.round(r.latency_ms))}</td>
                  <td>
                    <Owners row={r} max={12} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager base="/dashboard/logs" query={f} next={props.next} label="Log" />
      <LogArchiveForms tenants={props.tenants} tenantId={f.tenant_id} {...props.archive} />
    </>
  );
}

const tenantPath = (id: string) => `/dashboard/tenants/${encodeURIComponent(id)}`;
const keyPath = (id: string) => `/dashboard/keys/${encodeURIComponent(id)}`;

/** The request's tenant and key (one above the other), each by name with its id beside it, linked. */
function Owners(props: { row: LogRow; max?: number }) {
  const r = props.row;
  return (
    <>
      {r.tenant_id ? (
        <Id value={r.tenant_id} name={r.tenant_name} href={tenantPath(r.tenant_id)} max={props.max} />
      ) : (
        '—'
      )}
      <br />
      {r.key_id ? <Id value={r.key_id} name={r.key_name} href={keyPath(r.key_id)} max={props.max} /> : '—'}
    </>
  );
}

/** Requests answered (the producers' counts) against events stored: the log pipeline's own audit. */
function Delivery(props: { r: Reconciliation }) {
  const r = props.r;
  const facts: [string, string][] = [
    ['Requests answered', fmtInt(r.sent)],
    ['Events stored', fmtInt(r.stored)],
    ['Dead-lettered', fmtInt(r.dead_lettered)],
    ['Stored by fallback', fmtInt(r.fallback)],
    [
      'Missing',
      `${fmtInt(r.missing)} (${fmtInt(r.missing_batches)} ${r.missing_batches === 1 ? 'batch' : 'batches'})`,
    ],
  ];
  return (
    <section aria-label="Log delivery">
      <h2>
        Delivery{' '}
        <span class={`badge ${r.balanced ? 'ok' : 'error'}`}>{r.balanced ? 'balanced' : 'not balanced'}</span>
      </h2>
      <dl class="facts">
        {facts.map(([k, v]) => (
          <>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </>
        ))}
      </dl>
      {r.missing > 0 ? (
        <p class="muted">Batches still in the queue count as missing for a few seconds.</p>
      ) : null}
    </section>
  );
}

export function LogDetailPage(props: { log: LogDetail }) {
  const l = props.log;
  const id = (v: string | null) => (v === null ? '—' : <Id value={v} max={40} />);
  const facts: [string, Child][] = [
    ['Request id', id(l.id)],
    ['Time', fmtTime(l.time)],
    ['Endpoint', id(l.endpoint)],
    ['Provider', id(l.provider)],
    ['Model', id(l.model)],
    ...(l.route ? ([['Route', id(l.route)]] as [string, Child][]) : []),
    // Archive lines written before end users were logged have neither field.
    ['End user', id(l.end_user)],
    [
      'Tags',
      l.tags && Object.keys(l.tags).length
        ? Object.entries(l.tags)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')
        : '—',
    ],
    ['Status', String(l.status)],
    [
      'Error',
      l.error_code ? (
        <>
          <Id value={l.error_code} max={30} /> (from the {l.error_source ?? 'gateway'})
        </>
      ) : (
        '—'
      ),
    ],
    ['Cache', l.cache ?? '—'],
    ['Stream', l.stream ? (l.stream_completed === false ? 'yes, incomplete' : 'yes') : 'no'],
    [
      'Tokens in / out / cached',
      `${fmtInt(l.input_tokens)} / ${fmtInt(l.output_tokens)} / ${fmtInt(l.cached_tokens)}`,
    ],
    ['Cache writes (of which 1 h)', `${fmtInt(l.cache_write_tokens)} (${fmtInt(l.cache_write_1h_tokens)})`],
    ['Reasoning tokens', fmtInt(l.reasoning_tokens)],
    ['Cost', fmtUsd(l.cost_usd)],
    ['Saved by cache', fmtUsd(l.saved_usd)],
    ['Latency', fmtMs(Math.round(l.latency_ms))],
    ['Time to first token', fmtMs(l.ttft_ms === null ? null : Math.round(l.ttft_ms))],
    ['Attempts', String(l.attempts)],
  ];
  return (
    <>
      <p>
        <a href="/dashboard/logs">« Logs</a>
      </p>
      <h1>
        Request <Id value={l.id} max={30} />
      </h1>
      <dl class="facts">
        {facts.map(([k, v]) => (
          <>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </>
        ))}
        <dt>Tenant</dt>
        <dd>
          {l.tenant_id ? (
            <Id value={l.tenant_id} name={l.tenant_name} href={tenantPath(l.tenant_id)} max={40} />
          ) : (
            '—'
          )}
        </dd>
        <dt>Key</dt>
        <dd>
          {l.key_id ? <Id value={l.key_id} name={l.key_name} href={keyPath(l.key_id)} max={40} /> : '—'}
        </dd>
      </dl>
      <McpFacts mcp={l.mcp} />
      <TriesTable tries={l.tries} />
      <VerdictsTable verdicts={l.guardrails} />
      <h2>Metadata</h2>
      {l.metadata && Object.keys(l.metadata).length ? (
        <pre>{JSON.stringify(l.metadata, null, 2)}</pre>
      ) : (
        <p class="muted">None.</p>
      )}
      <h2>Payload</h2>
      {l.has_payload ? (
        <>
          {l.payload_truncated ? (
            <p class="alert warn">The payload was cut to the configured size limit.</p>
          ) : null}
          <h3>Request</h3>
          <pre>{l.request_payload ?? '(not stored)'}</pre>
          <h3>Response</h3>
          <pre>{l.response_payload ?? '(not stored)'}</pre>
        </>
      ) : (
        <p class="muted">
          Not collected: the key does not store prompts and completions (its “store prompts” setting is off).
        </p>
      )}
    </>
  );
}
