// The MCP gateway end to end, as a user runs it: a real stack (gateway under wrangler's dev server, the mock
// LLM's two MCP servers) plus a legacy SSE-transport MCP server built here with the same SDK. Servers, keys
// and policies are set through the admin API; the official SDK client calls /mcp. Lists, calls and
// progress, permissions per key, a key with no tools, an injected tool result blocked by policy, limits on
// calls, the logs and audit entries, and a session ended with DELETE.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import * as z from 'zod';
import { startTestStack } from './stack.mjs';

const PORT = 21587;
const LEGACY_PORT = PORT + 5;
const MOCK_TOKEN = 'mock-mcp-token';
let stack;
let legacy;

/** A legacy (HTTP+SSE transport) MCP server: GET /sse opens the stream, POST /messages carries requests. */
function startLegacyServer() {
  const transports = new Map();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, `http://127.0.0.1:${LEGACY_PORT}`);
    if (req.method === 'GET' && url.pathname === '/sse') {
      const mcp = new McpServer({ name: 'legacy', version: '1.0.0' });
      mcp.registerTool('shout', { inputSchema: { text: z.string() } }, async ({ text }) => ({
        content: [{ type: 'text', text: text.toUpperCase() }],
      }));
      const transport = new SSEServerTransport('/messages', res);
      transports.set(transport.sessionId, transport);
      res.on('close', () => transports.delete(transport.sessionId));
      await mcp.connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const transport = transports.get(url.searchParams.get('sessionId'));
      if (!transport) return res.writeHead(404).end();
      return transport.handlePostMessage(req, res);
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(LEGACY_PORT, '127.0.0.1', () => resolve(server)));
}

before(
  async () => {
    stack = await startTestStack(PORT, { PROVIDER_KEYS_SECRET: randomBytes(32).toString('base64url') });
    legacy = await startLegacyServer();
  },
  { timeout: 180_000 },
);

after(() => {
  stack?.stop();
  legacy?.close();
});

async function admin(method, path, body) {
  const res = await fetch(`${stack.url}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function connect(key, headers = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}`, ...headers } },
  });
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

const codeOf = (err) => (err && typeof err === 'object' && 'code' in err ? err.code : String(err));

let tenant;
test('an admin registers servers, and a key lists and calls their tools through /mcp', {
  timeout: 60_000,
}, async () => {
  tenant = await admin('POST', '/tenants', { name: 'mcp-e2e' });
  const docs = await admin('POST', `/tenants/${tenant.id}/mcp-servers`, {
    namespace: 'docs',
    url: `${stack.mockUrl}/mcp/healthy`,
    auth: { type: 'bearer', secret: MOCK_TOKEN },
  });
  assert.equal(JSON.stringify(docs).includes(MOCK_TOKEN), false);
  await admin('POST', `/tenants/${tenant.id}/mcp-servers`, {
    namespace: 'flaky',
    url: `${stack.mockUrl}/mcp/faulty`,
    timeout_ms: 1000,
  });
  await admin('POST', `/tenants/${tenant.id}/mcp-servers`, {
    namespace: 'legacy',
    url: `http://127.0.0.1:${LEGACY_PORT}/sse`,
    transport: 'sse',
  });
  const key = await admin('POST', '/keys', { tenant_id: tenant.id, name: 'agent' });
  const { client } = await connect(key.key);
  const names = (await client.listTools()).tools.map((t) => t.name);
  for (const name of ['docs__echo', 'docs__count', 'flaky__ok', 'legacy__shout'])
    assert.ok(names.includes(name), name);
  const echoed = await client.callTool({ name: 'docs__echo', arguments: { text: 'through the gateway' } });
  assert.deepEqual(echoed.content, [{ type: 'text', text: 'through the gateway' }]);
  const shouted = await client.callTool({ name: 'legacy__shout', arguments: { text: 'sse too' } });
  assert.deepEqual(shouted.content, [{ type: 'text', text: 'SSE TOO' }]);
  const progress = [];
  await client.callTool({ name: 'docs__count', arguments: { n: 3, delay_ms: 10 } }, undefined, {
    onprogress: (p) => progress.push(p.progress),
  });
  assert.deepEqual(progress, [1, 2, 3]);
  const slow = await client.callTool({ name: 'flaky__slow', arguments: { ms: 5000 } }).catch((e) => e);
  assert.equal(codeOf(slow), -32013);
});

test('per-key allow-lists, and a key with no tools is told so', { timeout: 60_000 }, async () => {
  const narrow = await admin('POST', '/keys', { tenant_id: tenant.id, mcp: { tools: ['docs__echo'] } });
  const { client } = await connect(narrow.key);
  assert.deepEqual(
    (await client.listTools()).tools.map((t) => t.name),
    ['docs__echo'],
  );
  assert.equal(
    codeOf(await client.callTool({ name: 'docs__count', arguments: { n: 1, delay_ms: 0 } }).catch((e) => e)),
    -32011,
  );
  const none = await admin('POST', '/keys', { tenant_id: tenant.id, mcp: { tools: [] } });
  const blocked = await (await connect(none.key)).client.listTools().catch((e) => e);
  assert.equal(codeOf(blocked), -32010);
});

test('a tool result carrying an injection is blocked by the tenant policy', { timeout: 60_000 }, async () => {
  const guarded = await admin('POST', '/tenants', {
    name: 'mcp-guarded',
    guardrails: { injection: { tool_results: 'block' } },
  });
  await admin('POST', `/tenants/${guarded.id}/mcp-servers`, {
    namespace: 'docs',
    url: `${stack.mockUrl}/mcp/healthy`,
    auth: { type: 'bearer', secret: MOCK_TOKEN },
  });
  const key = await admin('POST', '/keys', { tenant_id: guarded.id });
  const { client } = await connect(key.key);
  assert.ok(
    JSON.stringify((await client.callTool({ name: 'docs__read_doc', arguments: { id: 'plain' } })).content)
      .length > 50,
  );
  const refused = await client
    .callTool({ name: 'docs__read_doc', arguments: { id: 'injected' } })
    .catch((e) => e);
  assert.equal(codeOf(refused), -32014);
});

test('tool calls are limited per key, exactly', { timeout: 60_000 }, async () => {
  const key = await admin('POST', '/keys', { tenant_id: tenant.id, mcp: { calls: { per_minute: 3 } } });
  const { client } = await connect(key.key, { 'x-edgeway-user': 'e2e-user' });
  const outcomes = await Promise.all(
    Array.from({ length: 6 }, () =>
      client.callTool({ name: 'flaky__ok' }).then(
        () => 'ok',
        (e) => codeOf(e),
      ),
    ),
  );
  assert.deepEqual(outcomes.sort(), ['ok', 'ok', 'ok', -32012, -32012, -32012].sort());
});

test('calls are in the logs and registrations in the audit log, with no secret', {
  timeout: 60_000,
}, async () => {
  let rows = [];
  for (let i = 0; i < 100 && rows.length < 5; i++) {
    rows = (await admin('GET', `/logs?tenant_id=${tenant.id}&endpoint=/mcp&limit=100`)).data;
    if (rows.length < 5) await new Promise((r) => setTimeout(r, 200));
  }
  const models = rows.map((r) => r.model);
  assert.ok(models.includes('docs__echo') && models.includes('legacy__shout'), models.join(','));
  const echo = rows.find((r) => r.model === 'docs__echo');
  assert.equal(echo.provider, 'mcp:docs');
  assert.equal(echo.mcp.method, 'tools/call');
  assert.ok(rows.some((r) => r.end_user === 'e2e-user'));
  assert.ok(rows.some((r) => r.error_code === 'rate_limited'));
  const audit = await admin('GET', `/audit?tenant_id=${tenant.id}&resource=mcp_server&limit=50`);
  assert.ok(audit.data.length >= 3);
  assert.equal(JSON.stringify(audit).includes(MOCK_TOKEN), false);
});

test('DELETE ends a session', { timeout: 30_000 }, async () => {
  const key = await admin('POST', '/keys', { tenant_id: tenant.id });
  const { client, transport } = await connect(key.key);
  await client.listTools();
  const id = transport.sessionId;
  await transport.terminateSession();
  const res = await fetch(`${stack.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key.key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': id,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
  });
  assert.equal(res.status, 404);
});
