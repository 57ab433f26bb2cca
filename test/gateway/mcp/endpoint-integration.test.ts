/** /mcp end to end in the Workers runtime: the official SDK client through the gateway to the mock's MCP servers. */
import { describe, expect, it } from 'vitest';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  connect,
  FAULTY_URL,
  HEALTHY_URL,
  INIT,
  MOCK_TOKEN,
  rpc,
  seedMcpKey,
  seedServer,
  seedTenant,
} from './mcp-helpers';

async function tenantWithServers() {
  const tenantId = await seedTenant();
  await seedServer({ tenantId, namespace: 'docs', url: HEALTHY_URL, authType: 'bearer', secret: MOCK_TOKEN });
  await seedServer({ tenantId, namespace: 'flaky', url: FAULTY_URL });
  return tenantId;
}

describe('/mcp', () => {
  it('lists every server’s tools under its namespace and calls them through the gateway', async () => {
    const tenantId = await tenantWithServers();
    const key = await seedMcpKey(tenantId);
    const { client } = await connect(key.secret);
    expect(client.getServerVersion()?.name).toBe('edgeway');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toContain('docs__echo');
    expect(names).toContain('docs__add');
    expect(names).toContain('flaky__ok');
    const echoed = await client.callTool({ name: 'docs__echo', arguments: { text: 'hello there' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'hello there' }]);
    const added = await client.callTool({ name: 'docs__add', arguments: { a: 2, b: 40 } });
    expect(added.structuredContent).toEqual({ sum: 42 });
  });

  it('relays progress notifications of a long call', async () => {
    const key = await seedMcpKey(await tenantWithServers());
    const { client } = await connect(key.secret);
    const seen: number[] = [];
    const result = await client.callTool(
      { name: 'docs__count', arguments: { n: 3, delay_ms: 5 } },
      undefined,
      {
        onprogress: (p) => seen.push(p.progress),
      },
    );
    expect(seen).toEqual([1, 2, 3]);
    expect(result.content).toEqual([{ type: 'text', text: 'counted 3' }]);
  });

  it('passes prompts and resources through, renamed into the namespace', async () => {
    const key = await seedMcpKey(await tenantWithServers());
    const { client } = await connect(key.secret);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('docs__summarize');
    const prompt = await client.getPrompt({ name: 'docs__summarize', arguments: { topic: 'tides' } });
    expect(JSON.stringify(prompt.messages)).toContain('tides');
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('docs+doc://readme');
    const read = await client.readResource({ uri: 'docs+doc://readme' });
    expect(read.contents[0]?.uri).toBe('docs+doc://readme');
  });

  it('answers a JSON-RPC error for an upstream error, a timeout and a malformed answer, and the session goes on', async () => {
    const tenantId = await seedTenant();
    await seedServer({ tenantId, namespace: 'flaky', url: FAULTY_URL, timeoutMs: 300 });
    const key = await seedMcpKey(tenantId);
    const { client } = await connect(key.secret);
    const failed = await client.callTool({ name: 'flaky__fail' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(McpError);
    expect((failed as McpError).code).toBe(-32603);
    expect((failed as McpError).message).toContain("MCP server 'flaky'");
    const slow = await client
      .callTool({ name: 'flaky__slow', arguments: { ms: 2_000 } })
      .catch((e: unknown) => e);
    expect((slow as McpError).code).toBe(-32013);
    expect((slow as McpError).message).toContain('did not answer within 300 ms');
    const malformed = await client.callTool({ name: 'flaky__malformed' }).catch((e: unknown) => e);
    expect((malformed as McpError).code).toBe(-32013);
    const dropped = await client.callTool({ name: 'flaky__disconnect' }).catch((e: unknown) => e);
    expect((dropped as McpError).code).toBe(-32013);
    expect((await client.callTool({ name: 'flaky__ok' })).content).toEqual([{ type: 'text', text: 'fine' }]);
  });

  it('lists a server that is down as unavailable and the others as usual', async () => {
    // Its own servers only: other files' global servers are offered to every tenant of the runtime.
    const tenantId = await seedTenant({
      scopes: { mcp: { tools: ['docs__*', 'down__*', 'slow__*', 'nokey__*'] } },
    });
    await seedServer({
      tenantId,
      namespace: 'docs',
      url: HEALTHY_URL,
      authType: 'bearer',
      secret: MOCK_TOKEN,
    });
    await seedServer({ tenantId, namespace: 'down', url: `${FAULTY_URL}?fault=down` });
    await seedServer({
      tenantId,
      namespace: 'slow',
      url: `${FAULTY_URL}?fault=slow_list&ms=3000`,
      timeoutMs: 200,
    });
    await seedServer({
      tenantId,
      namespace: 'nokey',
      url: HEALTHY_URL,
      authType: 'bearer',
      secret: 'wrong-token',
    });
    const key = await seedMcpKey(tenantId);
    const { client } = await connect(key.secret);
    const listed = await client.listTools();
    expect(listed.tools.every((t) => t.name.startsWith('docs__'))).toBe(true);
    const unavailable = (listed._meta?.['edgeway/unavailable'] ?? []) as { server: string; error: string }[];
    expect(unavailable.map((u) => u.server).sort()).toEqual(['down', 'nokey', 'slow']);
    expect(unavailable.find((u) => u.server === 'down')?.error).toContain('HTTP 503');
    expect(unavailable.find((u) => u.server === 'nokey')?.error).toContain('credentials');
    expect(JSON.stringify(unavailable)).not.toContain('wrong-token');
  });

  it('refuses a request without a key, and a session another key opened', async () => {
    const tenantId = await tenantWithServers();
    const a = await seedMcpKey(tenantId);
    const b = await seedMcpKey(tenantId);
    const noKey = await rpc('', INIT);
    expect(noKey.status).toBe(401);
    expect(((await noKey.json()) as { error: { code: number } }).error.code).toBe(-32001);
    const opened = await rpc(a.secret, INIT);
    expect(opened.status).toBe(200);
    const session = opened.headers.get('mcp-session-id');
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    expect((await rpc(a.secret, list, { 'mcp-session-id': session! })).status).toBe(200);
    expect((await rpc(b.secret, list, { 'mcp-session-id': session! })).status).toBe(404);
    expect((await rpc(a.secret, list)).status).toBe(400);
    expect((await rpc(a.secret, list, { 'mcp-session-id': 'made-up' })).status).toBe(404);
  });

  it('ends a session on DELETE', async () => {
    const key = await seedMcpKey(await tenantWithServers());
    const { client, transport } = await connect(key.secret);
    const session = transport.sessionId!;
    await client.listTools();
    await transport.terminateSession();
    const after = await rpc(
      key.secret,
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      { 'mcp-session-id': session },
    );
    expect(after.status).toBe(404);
  });

  it('answers bad input with JSON-RPC errors', async () => {
    const key = await seedMcpKey(await tenantWithServers());
    const bad = await rpc(key.secret, '{"jsonrpc": "2.0", ');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const get = await (await import('cloudflare:test')).SELF.fetch('http://gw.test/mcp', {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    expect(get.status).toBe(405);
  });
});

describe('/mcp disabled servers', () => {
  it('keeps a disabled server out of /mcp entirely', async () => {
    const tenantId = await seedTenant({ scopes: { mcp: { tools: ['docs__*', 'off__*'] } } });
    await seedServer({
      tenantId,
      namespace: 'docs',
      url: HEALTHY_URL,
      authType: 'bearer',
      secret: MOCK_TOKEN,
    });
    await seedServer({ tenantId, namespace: 'off', url: FAULTY_URL, enabled: false });
    const { client } = await connect((await seedMcpKey(tenantId)).secret);
    const listed = await client.listTools();
    expect(listed.tools.some((t) => t.name.startsWith('off__'))).toBe(false);
    expect(listed._meta).toBeUndefined();
    const err = await client.callTool({ name: 'off__ok' }).catch((e: unknown) => e);
    expect((err as McpError).code).toBe(-32011);
  });
});
