/**
 * MCP tool calls on the usage page: per server (a chart of calls) and per tool (a table of calls, errors,
 * tool errors, mean latency and bytes, each tool linking to its logs), from the report's `mcp_calls`.
 * They are shown apart from, and labelled unlike, model requests: a tool call spends no tokens and is not
 * in the page's request, token or cost figures.
 */
import type { McpUsage } from '../../logs/read/mcp-usage';
import { fmtCompact, fmtInt, fmtMs } from '../format';
import { HBarChart } from './charts';

/** The logs page, filtered to these MCP calls within the page's scope. */
function logsHref(scope: McpScope, u: McpUsage): string {
  const q = new URLSearchParams({ endpoint: '/mcp' });
  if (scope.tenant_id) q.set('tenant_id', scope.tenant_id);
  if (scope.key_id) q.set('key_id', scope.key_id);
  if (u.tool) q.set('model', u.tool);
  else if (u.server) q.set('server', u.server);
  return `/dashboard/logs?${q}`;
}

export interface McpScope {
  tenant_id?: string | undefined;
  key_id?: string | undefined;
}

/** Calls per server namespace, summed over its tools (pure). */
export function callsPerServer(rows: readonly McpUsage[]): { server: string; calls: number }[] {
  const by = new Map<string, number>();
  for (const r of rows) by.set(r.server, (by.get(r.server) ?? 0) + r.calls);
  return [...by.entries()]
    .map(([server, calls]) => ({ server, calls }))
    .sort((a, b) => b.calls - a.calls || a.server.localeCompare(b.server));
}

export function McpCallsSection(props: { rows: readonly McpUsage[]; scope: McpScope }) {
  const { rows } = props;
  const calls = rows.reduce((n, r) => n + r.calls, 0);
  const errors = rows.reduce((n, r) => n + r.errors, 0);
  const toolErrors = rows.reduce((n, r) => n + r.tool_errors, 0);
  const servers = callsPerServer(rows);
  return (
    <section aria-labelledby="mcp-h">
      <h2 id="mcp-h">MCP tool calls</h2>
      <p class="muted">
        Calls made through /mcp to upstream MCP servers. They are not model requests: they spend no tokens and
        are not counted in the requests, tokens or cost above.
      </p>
      {rows.length === 0 ? (
        <p>No MCP calls in this range.</p>
      ) : (
        <>
          <div class="cards">
            <div class="card">
              Tool calls<b>{fmtInt(calls)}</b>
            </div>
            <div class="card">
              Errors<b>{fmtInt(errors)}</b>
            </div>
            <div class="card">
              Tool errors<b>{fmtInt(toolErrors)}</b>
            </div>
          </div>
          <HBarChart
            id="c-mcp"
            title="Tool calls per MCP server"
            summary={`${servers.length} servers, ${fmtInt(calls)} calls.`}
            labels={servers.map((s) => s.server || '(unknown)')}
            values={servers.map((s) => s.calls)}
            format={fmtCompact}
          />
          <div class="scroll">
            <table>
              <caption>MCP calls per server and tool</caption>
              <thead>
                <tr>
                  <th scope="col">Server</th>
                  <th scope="col">Tool</th>
                  <th scope="col">Method</th>
                  <th scope="col" class="num">
                    Calls
                  </th>
                  <th scope="col" class="num">
                    Errors
                  </th>
                  <th scope="col" class="num">
                    Tool errors
                  </th>
                  <th scope="col" class="num">
                    Mean latency
                  </th>
                  <th scope="col" class="num">
                    Arguments
                  </th>
                  <th scope="col" class="num">
                    Results
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr>
                    <th scope="row">{r.server || '(unknown)'}</th>
                    <td>
                      <a href={logsHref(props.scope, r)}>
                        {r.tool ? <code>{r.tool}</code> : <span class="muted">(every resource)</span>}
                      </a>
                    </td>
                    <td>{r.method || '—'}</td>
                    <td class="num">{fmtInt(r.calls)}</td>
                    <td class="num">{fmtInt(r.errors)}</td>
                    <td class="num">{fmtInt(r.tool_errors)}</td>
                    <td class="num">{fmtMs(r.calls ? Math.round(r.latency_ms / r.calls) : null)}</td>
                    <td class="num">{`${fmtCompact(r.args_bytes)} B`}</td>
                    <td class="num">{`${fmtCompact(r.result_bytes)} B`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
