/**
 * A logged MCP call on the logs pages: the list's cell (the tool as clients call it, badged as a tool
 * call, not a model) and the detail's facts (method, server, upstream name, argument and result sizes,
 * whether the tool reported an error). Requests that are not MCP calls render nothing extra.
 */
import type { Child } from 'hono/jsx';
import type { LogEntry, LogMcpEntry } from '../../logs/read/logs';
import { fmtInt } from '../format';
import { Id } from './parts';

const KIND: Readonly<Record<LogMcpEntry['method'], string>> = {
  'tools/call': 'tool call',
  'prompts/get': 'prompt',
  'resources/read': 'resource',
};

/** The list's model cell for an MCP call: `<namespace>__<tool>` and what kind of call it was. */
export function McpCell(props: { log: Pick<LogEntry, 'model' | 'mcp'> }) {
  const m = props.log.mcp;
  return (
    <>
      <Id value={props.log.model ?? m?.name ?? '—'} /> <span class="badge">{m ? KIND[m.method] : 'MCP'}</span>
      {m?.is_error ? (
        <>
          {' '}
          <span class="badge error">tool error</span>
        </>
      ) : null}
    </>
  );
}

/** The MCP call's own facts, under the request's. */
export function McpFacts(props: { mcp: LogMcpEntry | null }) {
  const m = props.mcp;
  if (!m) return null;
  const facts: [string, Child][] = [
    ['Method', m.method],
    ['Server', <Id value={m.server} name={m.namespace} />],
    [
      m.method === 'resources/read' ? 'Resource' : m.method === 'prompts/get' ? 'Prompt' : 'Tool',
      <Id value={m.name} />,
    ],
    ['Arguments', `${fmtInt(m.args_bytes)} bytes`],
    ['Result', `${fmtInt(m.result_bytes)} bytes`],
    ['Tool reported an error', m.is_error ? 'yes (isError)' : 'no'],
  ];
  return (
    <section aria-labelledby="mcp-h">
      <h2 id="mcp-h">MCP call</h2>
      <dl class="facts">
        {facts.map(([k, v]) => (
          <>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </>
        ))}
      </dl>
    </section>
  );
}
