/**
 * /mcp's governance end to end: allow-lists per tenant and key, global servers and tenants' own tokens,
 * guardrails on arguments and results, tool-call limits (exact under concurrency), logs of every call,
 * and sessions served from their Durable Object by an isolate that never saw them.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import worker from '../../../src/index';
import { admin } from '../admin-helpers';
import { forgetMcpSessions } from '../../../src/mcp/sessions';
import {
  connect,
  FAULTY_URL,
  HEALTHY_URL,
  MOCK_TOKEN,
  seedMcpKey,
  seedServer,
  seedTenant,
  seedToken,
} from './mcp-helpers';

const codeOf = (e: unknown) => (e instanceof McpError ? e.code : null);

async function withDocs(
  tenantScopes: Record<string, unknown> = {},
  tenantGuardrails: Record<string, unknown> = {},
) {
  const tenantId = await seedTenant({ scopes: tenantScopes, guardrails: tenantGuardrails });
  await seedServer({ tenantId, namespace: 'docs', url: HEALTHY_URL, authType: 'bearer', secret: MOCK_TOKEN });
  await seedServer({ tenantId, namespace: 'flaky', url: FAULTY_URL });
  return tenantId;
}

async function mcpLogs(tenantId: string, count: number) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { results } = await env.DB.prepare(
      "SELECT * FROM request_logs WHERE tenant_id = ? AND endpoint = '/mcp' ORDER BY time, id",
    )
      .bind(tenantId)
      .all<Record<string, unknown>>();
    if (results.length >= count || Date.now() > deadline) return results;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('/mcp permissions', () => {
  it("lists and calls only what both the tenant's and the key's allow-lists match", async () => {
    const tenantId = await withDocs({ mcp: { tools: ['docs__*', 'flaky__ok'] } });
    const key = await seedMcpKey(tenantId, {
      scopes: { mcp: { tools: ['docs__e*', 'docs__add', 'flaky__*'] } },
    });
    const { client } = await connect(key.secret);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['docs__add', 'docs__echo', 'flaky__ok']);
    const refused = await client
      .callTool({ name: 'docs__read_doc', arguments: { id: 'plain' } })
      .catch((e) => e);
    expect(codeOf(refused)).toBe(-32011);
    expect((refused as Error).message).toContain("Tool 'docs__read_doc' is not available to this key");
    expect(codeOf(await client.callTool({ name: 'nowhere__tool' }).catch((e) => e))).toBe(-32011);
    expect(codeOf(await client.callTool({ name: 'no-namespace' }).catch((e) => e))).toBe(-32011);
  });

  it('tells a key with no tools so, never with an empty list', async () => {
    const tenantId = await withDocs();
    const none = await seedMcpKey(tenantId, { scopes: { mcp: { tools: [] } } });
    const { client } = await connect(none.secret);
    const err = await client.listTools().catch((e) => e);
    expect(codeOf(err)).toBe(-32010);
    expect((err as Error).message).toContain("the key's MCP allow-list is empty");
    const unmatched = await seedMcpKey(tenantId, { scopes: { mcp: { tools: ['docs__nothing_like_this'] } } });
    const second = await connect(unmatched.secret);
    expect(codeOf(await second.client.listTools().catch((e) => e))).toBe(-32010);
    // A namespace nobody registers: other files' global servers are offered to every tenant of the runtime.
    const bare = await seedMcpKey(await seedTenant({ scopes: { mcp: { tools: ['unregistered__*'] } } }));
    const third = await connect(bare.secret);
    const noServers = await third.client.listTools().catch((e) => e);
    expect(codeOf(noServers)).toBe(-32010);
    expect((noServers as Error).message).toContain('no MCP server is registered');
  });

  it("offers global servers to every tenant, and a tenant_token server only with that tenant's own token", async () => {
    const ns = `g${Date.now().toString(36)}`;
    const global = await seedServer({
      tenantId: null,
      namespace: ns,
      url: HEALTHY_URL,
      authType: 'tenant_token',
      authHeader: 'authorization-unused',
    });
    // The mock wants `Authorization: Bearer mock-mcp-token`: a tenant_token server without a header sends a bearer.
    await env.DB.prepare('UPDATE mcp_servers SET auth_header = NULL WHERE id = ?').bind(global).run();
    const withToken = await seedTenant({ scopes: { mcp: { tools: [`${ns}__*`] } } });
    const without = await seedTenant({ scopes: { mcp: { tools: [`${ns}__*`] } } });
    await seedToken(global, withToken, MOCK_TOKEN);
    const a = await connect((await seedMcpKey(withToken)).secret);
    expect((await a.client.callTool({ name: `${ns}__echo`, arguments: { text: 'hi' } })).content).toEqual([
      { type: 'text', text: 'hi' },
    ]);
    const b = await connect((await seedMcpKey(without)).secret);
    const listed = await b.client.listTools().catch((e) => e);
    expect(codeOf(listed)).toBe(-32013);
    expect((listed as Error).message).toContain("needs the tenant's own token");
    await env.DB.prepare('DELETE FROM mcp_servers WHERE id = ?').bind(global).run();
  });
});

describe('/mcp guardrails', () => {
  it('blocks a tool result carrying an injection, by policy, and logs the verdict', async () => {
    const tenantId = await withDocs({}, { injection: { tool_results: 'block' } });
    const key = await seedMcpKey(tenantId);
    const { client } = await connect(key.secret);
    const plain = await client.callTool({ name: 'docs__read_doc', arguments: { id: 'plain' } });
    expect(JSON.stringify(plain.content)).toContain('quarter');
    const blocked = await client
      .callTool({ name: 'docs__read_doc', arguments: { id: 'injected' } })
      .catch((e) => e);
    expect(codeOf(blocked)).toBe(-32014);
    expect(JSON.stringify(blocked)).not.toContain('attacker');
    const rows = await mcpLogs(tenantId, 2);
    const row = rows.find((r) => r.status === 400);
    expect(row?.error_code).toBe('guardrail_blocked');
    expect(String(row?.guardrails)).toContain('"direction":"tool"');
  });

  it('quarantines an injected result as a notice the agent reads instead', async () => {
    const tenantId = await withDocs({}, { injection: { tool_results: 'quarantine' } });
    const { client } = await connect((await seedMcpKey(tenantId)).secret);
    const result = await client.callTool({ name: 'docs__read_doc', arguments: { id: 'injected' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('withheld by policy');
    expect(JSON.stringify(result.content)).not.toContain('attacker');
  });

  it('redacts secrets and PII in results, and blocks secrets in arguments', async () => {
    const tenantId = await withDocs(
      {},
      { secrets: { request: 'block', response: 'redact' }, pii: { response: 'redact' } },
    );
    const { client } = await connect((await seedMcpKey(tenantId)).secret);
    const secret = await client.callTool({ name: 'docs__read_doc', arguments: { id: 'secret' } });
    expect(JSON.stringify(secret.content)).not.toMatch(/AKIA[0-9A-Z]{16}/);
    const pii = await client.callTool({ name: 'docs__read_doc', arguments: { id: 'pii' } });
    expect(JSON.stringify(pii.content)).not.toMatch(/@[a-z0-9-]+\.[a-z]{2,}/i);
    const leaked = await client
      .callTool({ name: 'docs__echo', arguments: { text: 'key: AKIAIOSFODNN7EXAMPLE please' } })
      .catch((e) => e);
    expect(codeOf(leaked)).toBe(-32014);
    expect(JSON.stringify(leaked)).not.toContain('AKIAIOSFODNN7EXAMPLE');
  });

  it('redacts secrets in arguments before the call when the policy says redact', async () => {
    const tenantId = await withDocs({}, { secrets: { request: 'redact' } });
    const { client } = await connect((await seedMcpKey(tenantId)).secret);
    const echoed = await client.callTool({
      name: 'docs__echo',
      arguments: { text: 'key: AKIAIOSFODNN7EXAMPLE' },
    });
    expect(JSON.stringify(echoed.content)).not.toContain('AKIAIOSFODNN7EXAMPLE');
  });
});

describe('/mcp limits', () => {
  it('admits exactly the per-minute calls of a key under concurrency, then refuses with -32012', async () => {
    const tenantId = await withDocs();
    const key = await seedMcpKey(tenantId, { scopes: { mcp: { calls: { per_minute: 5 } } } });
    const { client } = await connect(key.secret);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        client.callTool({ name: 'flaky__ok', arguments: {} }).then(
          () => 'ok',
          (e) => codeOf(e) ?? String(e) + i,
        ),
      ),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(5);
    expect(results.filter((r) => r === -32012)).toHaveLength(7);
    const refused = await client.callTool({ name: 'flaky__ok' }).catch((e) => e);
    expect((refused as McpError).data).toMatchObject({ scope: 'key', kind: 'rpm', limit: 5 });
  });

  it("holds each end user to the tenant's per-user day limit, and the tenant to its own", async () => {
    const tenantId = await withDocs({ mcp: { calls: { per_day: 5 }, end_user_calls: { per_day: 2 } } });
    const key = await seedMcpKey(tenantId);
    const alice = await connect(key.secret, { headers: { 'x-edgeway-user': 'alice' } });
    const bob = await connect(key.secret, { headers: { 'x-edgeway-user': 'bob' } });
    const call = (c: typeof alice) =>
      c.client.callTool({ name: 'flaky__ok' }).then(
        () => 'ok',
        (e) => e as McpError,
      );
    expect([await call(alice), await call(alice)]).toEqual(['ok', 'ok']);
    const third = await call(alice);
    expect((third as McpError).data).toMatchObject({
      scope: 'user',
      scope_id: 'alice',
      kind: 'requests_day',
    });
    expect([await call(bob), await call(bob)]).toEqual(['ok', 'ok']);
    const anonymous = await connect(key.secret);
    expect(await call(anonymous)).toBe('ok');
    const over = await call(anonymous);
    expect((over as McpError).data).toMatchObject({ scope: 'tenant', kind: 'requests_day', limit: 5 });
  });
});

describe('/mcp logs', () => {
  it('logs every call with server, tool, key, end user, status and latency; payloads only when the key opts in', async () => {
    const tenantId = await withDocs();
    const quiet = await seedMcpKey(tenantId);
    const loud = await seedMcpKey(tenantId, { logPayload: true });
    const a = await connect(quiet.secret, { headers: { 'x-edgeway-user': 'u-7' } });
    await a.client.callTool({ name: 'docs__echo', arguments: { text: 'not logged' } });
    await a.client.callTool({ name: 'flaky__fail' }).catch(() => {});
    const b = await connect(loud.secret);
    await b.client.callTool({ name: 'docs__echo', arguments: { text: 'logged text' } });
    const rows = await mcpLogs(tenantId, 3);
    expect(rows).toHaveLength(3);
    const [echo, fail, logged] = rows;
    expect(echo).toMatchObject({
      provider: 'mcp:docs',
      model: 'docs__echo',
      status: 200,
      key_id: quiet.id,
      end_user: 'u-7',
    });
    expect(JSON.parse(String(echo?.mcp))).toMatchObject({
      method: 'tools/call',
      namespace: 'docs',
      name: 'echo',
      is_error: false,
    });
    expect(JSON.parse(String(echo?.mcp)).args_bytes).toBe(JSON.stringify({ text: 'not logged' }).length);
    expect(fail).toMatchObject({
      model: 'flaky__fail',
      status: 502,
      error_code: 'mcp_upstream_error',
      error_source: 'provider',
    });
    expect([echo?.payload_archived, fail?.payload_archived, logged?.payload_archived]).toEqual([0, 0, 1]);
    const detail = (await admin('GET', `/logs/${String(logged?.id)}`)).json as {
      request_payload: string;
      response_payload: string;
    };
    expect(JSON.parse(detail.request_payload)).toEqual({ text: 'logged text' });
    expect(detail.response_payload).toContain('logged text');
  });
});

describe('/mcp sessions', () => {
  it('serves a session from its Durable Object in an isolate that never saw it, and not after DELETE', async () => {
    const tenantId = await withDocs();
    const key = await seedMcpKey(tenantId);
    const viaApp = async (url: string | URL, init?: RequestInit) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(new Request(String(url), init), env, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    };
    const first = await connect(key.secret, { fetch: viaApp });
    await first.client.callTool({ name: 'docs__echo', arguments: { text: 'one' } });
    const sessionId = first.transport.sessionId!;
    forgetMcpSessions();
    const resumed = await connect(key.secret, { fetch: viaApp, sessionId });
    resumed.transport.setProtocolVersion('2025-11-25');
    const echoed = await resumed.client.callTool({ name: 'docs__echo', arguments: { text: 'two' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'two' }]);
    await resumed.transport.terminateSession();
    forgetMcpSessions();
    const gone = await connect(key.secret, { fetch: viaApp, sessionId });
    expect(String(await gone.client.listTools().catch((e) => e))).toContain('Session not found');
  });
});
