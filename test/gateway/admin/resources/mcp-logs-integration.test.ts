/**
 * MCP calls in the logs, end to end on real D1 and R2: /mcp log events (endpoint /mcp, provider
 * mcp:<namespace>, model <namespace>__<tool>, the mcp field) through the Worker's queue handler, then
 * read back by GET /admin/logs (the mcp field, endpoint and server filters), one log by id, the archive
 * export, GET /admin/usage (mcp_calls, and no tool call among the model figures), and the dashboard's
 * logs and usage pages. Each run uses a tenant of its own, so the file can share a runtime.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { LogEvent, LogMcp } from '../../../../src/core/log-event';
import { admin } from '../../admin-helpers';
import { Browser } from '../../dashboard-helpers';
import { deliver, LOG_QUEUE, logEvent } from '../../log-fixtures';

const run = crypto.randomUUID().slice(0, 8);
const TENANT = `ten_mcp_${run}`;
const DAY = '2026-07-01';
const T0 = Date.UTC(2026, 6, 1, 9);

function call(
  i: number,
  ns: string,
  model: string,
  mcp: Omit<LogMcp, 'namespace'>,
  over: Partial<LogEvent> = {},
): LogEvent {
  return logEvent({
    tenantId: TENANT,
    keyId: `key_${run}_${i % 2}`,
    time: T0 + i * 1000,
    endpoint: '/mcp',
    provider: `mcp:${ns}`,
    model,
    cache: null,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    latencyMs: 10 * (i + 1),
    mcp: { ...mcp, namespace: ns },
    ...over,
  });
}

const tool = (name: string, args: number, result: number, isError = false) =>
  ({
    method: 'tools/call',
    server: `srv_gh_${run}`,
    name,
    argsBytes: args,
    resultBytes: result,
    isError,
  }) as const;

const calls = [
  call(0, 'github', 'github__search_issues', tool('search_issues', 40, 400)),
  call(1, 'github', 'github__search_issues', tool('search_issues', 60, 600, true)),
  call(2, 'github', 'github__search_issues', tool('search_issues', 5, 0), {
    status: 504,
    errorSource: 'provider',
    errorCode: 'upstream_timeout',
  }),
  call(3, 'docs', 'docs__review', {
    method: 'prompts/get',
    server: `srv_docs_${run}`,
    name: 'review',
    argsBytes: 12,
    resultBytes: 90,
    isError: false,
  }),
  call(4, 'docs', 'docs+file:///readme.md', {
    method: 'resources/read',
    server: `srv_docs_${run}`,
    name: 'file:///readme.md',
    argsBytes: 0,
    resultBytes: 300,
    isError: false,
  }),
];
const model = logEvent({ tenantId: TENANT, keyId: `key_${run}_0`, time: T0 + 10_000, costUsd: 0.25 });

/** An event's mcp field as the admin API shows it. */
const shown = (m: LogMcp) => ({
  method: m.method,
  server: m.server,
  namespace: m.namespace,
  name: m.name,
  args_bytes: m.argsBytes,
  result_bytes: m.resultBytes,
  is_error: m.isError,
});

interface Row {
  id: string;
  endpoint: string;
  model: string | null;
  mcp: unknown;
}

async function logs(query: string): Promise<Row[]> {
  const res = await admin('GET', `/logs?tenant_id=${TENANT}&limit=100&${query}`);
  expect(res.status, res.text).toBe(200);
  return (res.json as { data: Row[] }).data;
}

const ids = (rows: readonly { id: string }[]) => rows.map((r) => r.id).sort();
const idsOf = (events: readonly LogEvent[]) => events.map((e) => e.requestId).sort();

beforeAll(async () => {
  const first = calls.slice(0, 3).map((body, i) => ({ id: `mcp-${run}-${i}`, body }));
  const results = [
    await deliver(LOG_QUEUE, first),
    // A redelivery: nothing may count twice.
    await deliver(LOG_QUEUE, first),
    await deliver(LOG_QUEUE, [...calls.slice(3), model]),
  ];
  for (const r of results) expect(r.retryBatch.retry).toBe(false);
});

describe('GET /admin/logs with MCP calls', () => {
  it('returns each MCP call with its mcp field, and null for a model request', async () => {
    const rows = await logs('');
    expect(ids(rows)).toEqual(idsOf([...calls, model]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const e of calls) expect(byId.get(e.requestId)?.mcp).toEqual(shown(e.mcp!));
    expect(byId.get(model.requestId)?.mcp).toBeNull();
    const one = await admin('GET', `/logs/${calls[1]!.requestId}`);
    expect(one.json).toMatchObject({
      endpoint: '/mcp',
      provider: 'mcp:github',
      model: 'github__search_issues',
      mcp: shown(calls[1]!.mcp!),
    });
  });

  it('lists only MCP calls with endpoint=/mcp, one server with server=, one tool with model=', async () => {
    expect(ids(await logs('endpoint=/mcp'))).toEqual(idsOf(calls));
    expect(ids(await logs('endpoint=/v1/chat/completions'))).toEqual(idsOf([model]));
    expect(ids(await logs('server=github'))).toEqual(idsOf(calls.slice(0, 3)));
    expect(ids(await logs('server=docs&model=docs__review'))).toEqual(idsOf([calls[3]!]));
    expect(ids(await logs('endpoint=/mcp&status=error'))).toEqual(idsOf([calls[2]!]));
    // A server filter with another endpoint matches nothing, rather than widening the endpoint.
    expect(await logs('server=github&endpoint=/v1/chat/completions')).toEqual([]);
  });

  it('refuses a server that is not a namespace and an endpoint that is not a path', async () => {
    for (const [query, param] of [
      ['server=Not%20A%20Namespace', 'server'],
      ['endpoint=mcp', 'endpoint'],
    ]) {
      const res = await admin('GET', `/logs?${query}`);
      expect(res.status, query).toBe(400);
      expect((res.json as { error: { param: string } }).error.param, query).toBe(param);
    }
  });
});

describe('GET /admin/logs/export', () => {
  it('carries each MCP call with its mcp field', async () => {
    const res = await admin('GET', `/logs/export?tenant_id=${TENANT}&from=${T0}&to=${T0 + 60_000}`);
    expect(res.status, res.text).toBe(200);
    const lines = res.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Row);
    expect(ids(lines)).toEqual(idsOf([...calls, model]));
    for (const e of calls) expect(lines.find((l) => l.id === e.requestId)?.mcp).toEqual(shown(e.mcp!));
    expect(lines.find((l) => l.id === model.requestId)?.mcp).toBeNull();
  });
});

describe('GET /admin/usage', () => {
  it('reports MCP calls per server, method and tool, and keeps them out of the model figures', async () => {
    const res = await admin('GET', `/usage?tenant_id=${TENANT}&from=${DAY}&to=${DAY}&group_by=model`);
    expect(res.status, res.text).toBe(200);
    const r = res.json as {
      data: { model: string | null; requests: number }[];
      totals: { requests: number; cost_usd: number; errors: number };
      mcp_calls: unknown[];
    };
    expect(r.data.map((d) => [d.model, d.requests])).toEqual([['mock/echo', 1]]);
    expect(r.totals).toMatchObject({ requests: 1, cost_usd: 0.25, errors: 0 });
    expect(r.mcp_calls).toEqual([
      {
        server: 'github',
        method: 'tools/call',
        tool: 'github__search_issues',
        calls: 3,
        errors: 1,
        tool_errors: 1,
        args_bytes: 105,
        result_bytes: 1000,
        latency_ms: 60,
      },
      {
        server: 'docs',
        method: 'prompts/get',
        tool: 'docs__review',
        calls: 1,
        errors: 0,
        tool_errors: 0,
        args_bytes: 12,
        result_bytes: 90,
        latency_ms: 40,
      },
      {
        server: 'docs',
        method: 'resources/read',
        tool: '',
        calls: 1,
        errors: 0,
        tool_errors: 0,
        args_bytes: 0,
        result_bytes: 300,
        latency_ms: 50,
      },
    ]);
    // One key's calls only (calls 0, 2 and 4 are key _0's), most-called first.
    const key = await admin('GET', `/usage?key_id=key_${run}_0&from=${DAY}&to=${DAY}`);
    const mine = (key.json as { mcp_calls: { tool: string; calls: number }[] }).mcp_calls;
    expect(mine.map((m) => [m.tool, m.calls])).toEqual([
      ['github__search_issues', 2],
      ['', 1],
    ]);
    // The end-user and tag reports carry the tenant's tool calls too.
    const top = await admin('GET', `/usage?tenant_id=${TENANT}&from=${DAY}&to=${DAY}&group_by=end_user`);
    expect((top.json as { mcp_calls: unknown[] }).mcp_calls).toEqual(r.mcp_calls);
  });
});

describe('the dashboard', () => {
  it('lists MCP calls as tool calls, filters to them, and shows a call’s method, server, sizes and isError', async () => {
    const b = new Browser();
    await b.signIn();
    const list = await b.page(`/dashboard/logs?tenant_id=${TENANT}&endpoint=%2Fmcp`);
    for (const e of calls) expect(list).toContain(e.requestId);
    expect(list).not.toContain(model.requestId);
    expect(list).toMatch(/<option value="\/mcp" selected="">MCP calls<\/option>/);
    expect(list).toContain('<span class="badge">tool call</span>');
    expect(list).toContain('<span class="badge error">tool error</span>');
    const server = await b.page(`/dashboard/logs?tenant_id=${TENANT}&server=docs`);
    expect(server).toContain(calls[3]!.requestId);
    expect(server).not.toContain(calls[0]!.requestId);
    const detail = await b.page(`/dashboard/logs/${calls[1]!.requestId}`);
    expect(detail).toContain('<h2 id="mcp-h">MCP call</h2>');
    expect(detail).toContain('<dt>Method</dt><dd>tools/call</dd>');
    expect(detail).toContain(
      `<dt>Server</dt><dd><span class="id" title="github (srv_gh_${run})"><span>github</span> <code class="muted">srv_gh_${run}</code></span></dd>`,
    );
    expect(detail).toContain(
      '<dt>Tool</dt><dd><span class="id" title="search_issues"><code>search_issues</code></span></dd>',
    );
    expect(detail).toContain('<dt>Arguments</dt><dd>60 bytes</dd>');
    expect(detail).toContain('<dt>Result</dt><dd>600 bytes</dd>');
    expect(detail).toContain('<dt>Tool reported an error</dt><dd>yes (isError)</dd>');
    const plain = await b.page(`/dashboard/logs/${model.requestId}`);
    expect(plain).not.toContain('MCP call');
  });

  it('shows tool calls per server and tool on the usage page, apart from model requests', async () => {
    const b = new Browser();
    await b.signIn();
    const html = await b.page(`/dashboard/usage?tenant_id=${TENANT}&from=${DAY}&to=${DAY}`);
    expect(html).toContain('<h2 id="mcp-h">MCP tool calls</h2>');
    expect(html).toContain('not counted in the requests, tokens or cost above');
    expect(html).toMatch(/Tool calls<b>5<\/b>/);
    expect(html).toContain('<code>github__search_issues</code>');
    expect(html).toContain(
      `href="/dashboard/logs?endpoint=%2Fmcp&amp;tenant_id=${TENANT}&amp;model=github__search_issues"`,
    );
    expect(html).toContain('(every resource)');
    // The model table holds the model request alone.
    const models = html.slice(html.indexOf('id="models-h"'), html.indexOf('id="mcp-h"'));
    expect(models).toContain('mock/echo');
    expect(models).not.toContain('github__search_issues');
  });
});
