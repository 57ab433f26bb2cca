import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { SELF } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { type Connection, connect, connectHealthy, FAULTY, firstText, HEALTHY, TOKEN } from './mcp-helpers';

const open: Connection[] = [];

async function track(connection: Promise<Connection>): Promise<Connection> {
  const c = await connection;
  open.push(c);
  return c;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.client.close()));
});

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return SELF.fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

describe('/mcp/healthy', () => {
  it('lists its tools', async () => {
    const { client } = await track(connectHealthy());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['add', 'count', 'echo', 'read_doc', 'whoami']);
    expect(tools.find((t) => t.name === 'add')?.outputSchema?.properties).toHaveProperty('sum');
  });

  it('echoes text and adds with structured content', async () => {
    const { client } = await track(connectHealthy());
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'hi there' } }))).toBe(
      'hi there',
    );
    await client.listTools();
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3.5 } });
    expect(firstText(sum)).toBe('5.5');
    expect(sum.structuredContent).toEqual({ sum: 5.5 });
  });

  it('answers invalid arguments with an isError result', async () => {
    const { client } = await track(connectHealthy());
    const result = await client.callTool({ name: 'count', arguments: { n: 50, delay_ms: 0 } });
    expect(result.isError).toBe(true);
  });

  it('sends one progress notification per step of count', async () => {
    const { client } = await track(connectHealthy());
    const seen: Progress[] = [];
    const result = await client.callTool({ name: 'count', arguments: { n: 4, delay_ms: 10 } }, undefined, {
      onprogress: (progress) => seen.push(progress),
    });
    expect(firstText(result)).toBe('counted 4');
    expect(seen.map((p) => [p.progress, p.total])).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
  });

  it('counts without notifications when the client asks for no progress', async () => {
    const { client } = await track(connectHealthy());
    const result = await client.callTool({ name: 'count', arguments: { n: 2, delay_ms: 0 } });
    expect(firstText(result)).toBe('counted 2');
  });

  it('reads the fixed documents, each with what a guardrail looks for', async () => {
    const { client } = await track(connectHealthy());
    const read = async (id: string) => client.callTool({ name: 'read_doc', arguments: { id } });
    const plain = firstText(await read('plain')) ?? '';
    expect(plain).toContain('Quarterly planning');
    expect(plain.length).toBeGreaterThan(250);
    expect(firstText(await read('injected'))).toMatch(
      /ignore all previous instructions[\s\S]*attacker\.example/,
    );
    const secret = firstText(await read('secret'));
    expect(secret).toMatch(/AKIA[0-9A-Z]{16}/);
    expect(secret).toMatch(/sk-[A-Za-z0-9]{32,}/);
    const pii = firstText(await read('pii'));
    expect(pii).toMatch(/[\w.]+@example\.com/);
    expect(pii).toMatch(/\+1 415-555-\d{4}/);
    const missing = await read('nope');
    expect(missing.isError).toBe(true);
    expect(firstText(missing)).toContain('nope');
  });

  it('reports the x-mock-tenant header it received, or none', async () => {
    const tenant = await track(connectHealthy({ headers: { 'x-mock-tenant': 'acme' } }));
    expect(firstText(await tenant.client.callTool({ name: 'whoami', arguments: {} }))).toBe('acme');
    const anonymous = await track(connectHealthy());
    expect(firstText(await anonymous.client.callTool({ name: 'whoami', arguments: {} }))).toBe('none');
  });

  it('serves the readme, the document template and the summarize prompt', async () => {
    const { client } = await track(connectHealthy());
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining(['doc://readme', 'doc://plain', 'doc://injected', 'doc://secret', 'doc://pii']),
    );
    const readme = await client.readResource({ uri: 'doc://readme' });
    expect(readme.contents[0]).toMatchObject({
      mimeType: 'text/plain',
      text: expect.stringContaining('read_doc'),
    });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['doc://{id}']);
    const pii = await client.readResource({ uri: 'doc://pii' });
    expect(pii.contents[0]).toMatchObject({
      uri: 'doc://pii',
      text: expect.stringContaining('@example.com'),
    });
    const prompt = await client.getPrompt({ name: 'summarize', arguments: { topic: 'tide tables' } });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: expect.stringContaining('tide tables') } },
    ]);
  });

  it('refuses a request without the token, or with another, as a JSON-RPC 401', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer not-the-token' }];
    for (const headers of attempts) {
      const res = await post(HEALTHY, INITIALIZE, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    }
    const refused = connect(HEALTHY);
    await expect(refused).rejects.toBeInstanceOf(StreamableHTTPError);
    await expect(refused).rejects.toMatchObject({ code: 401 });
  });

  it('serves a reused session id without a new initialize', async () => {
    const first = await track(connectHealthy());
    const sessionId = first.transport.sessionId;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const again = await track(connectHealthy({ sessionId }));
    expect(again.client.getServerVersion()).toBeUndefined();
    expect(firstText(await again.client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe(
      'still here',
    );
    expect(again.transport.sessionId).toBe(sessionId);
  });

  it('answers an unknown session id with the SDK 404', async () => {
    const res = await post(
      HEALTHY,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': 'no-such-session' },
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Session not found' },
      id: null,
    });
    const stale = await track(connectHealthy({ sessionId: 'no-such-session' }));
    await expect(stale.client.listTools()).rejects.toMatchObject({ code: 404 });
  });

  it('forgets a session the client deletes', async () => {
    const first = await track(connectHealthy());
    const sessionId = first.transport.sessionId;
    await first.transport.terminateSession();
    const res = await post(
      HEALTHY,
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': sessionId ?? '' },
    );
    expect(res.status).toBe(404);
  });

  it('offers no server-initiated stream: GET is a 405', async () => {
    const res = await SELF.fetch(HEALTHY, { method: 'GET', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, DELETE');
  });

  it('refuses anything but initialize without a session id', async () => {
    const res = await post(
      HEALTHY,
      { jsonrpc: '2.0', id: 4, method: 'tools/list' },
      { authorization: `Bearer ${TOKEN}` },
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: -32000 } });
  });
});

describe('/mcp/faulty tools', () => {
  it('lists its tools without a credential or a session', async () => {
    const { client, transport } = await track(connect(FAULTY));
    expect(transport.sessionId).toBeUndefined();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['ok', 'slow', 'fail', 'tool_error', 'malformed', 'disconnect']);
  });

  it('answers ok, and slow after its wait', async () => {
    const { client } = await track(connect(FAULTY));
    expect(firstText(await client.callTool({ name: 'ok', arguments: {} }))).toBe('fine');
    const started = Date.now();
    expect(firstText(await client.callTool({ name: 'slow', arguments: { ms: 120 } }))).toBe('slept 120 ms');
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
  });

  it('lets a client time out on slow', async () => {
    const { client } = await track(connect(FAULTY));
    const call = client.callTool({ name: 'slow', arguments: { ms: 1500 } }, undefined, { timeout: 100 });
    await expect(call).rejects.toMatchObject({ code: ErrorCode.RequestTimeout });
  });

  it('answers fail with a JSON-RPC error', async () => {
    const { client } = await track(connect(FAULTY));
    const call = client.callTool({ name: 'fail', arguments: {} });
    await expect(call).rejects.toBeInstanceOf(McpError);
    await expect(call).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: expect.stringContaining('mock tool failure'),
      data: { fault: 'fail' },
    });
  });

  it('answers tool_error with an isError result', async () => {
    const { client } = await track(connect(FAULTY));
    const result = await client.callTool({ name: 'tool_error', arguments: {} });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain('tool_error');
  });

  it('answers malformed with a 200 that is not JSON-RPC', async () => {
    const res = await post(FAULTY, {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'malformed' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('{"oops":');
    const { client } = await track(connect(FAULTY));
    await expect(client.callTool({ name: 'malformed', arguments: {} })).rejects.toBeInstanceOf(SyntaxError);
  });

  it('drops the event stream of disconnect before any response', async () => {
    const { client, transportErrors } = await track(connect(FAULTY));
    const call = client.callTool({ name: 'disconnect', arguments: {} }, undefined, { timeout: 300 });
    await expect(call).rejects.toMatchObject({ code: ErrorCode.RequestTimeout });
    expect(transportErrors.map((e) => e.message)).toEqual([
      expect.stringContaining('SSE stream disconnected'),
    ]);
  });

  it('refuses GET and DELETE, being stateless', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await SELF.fetch(FAULTY, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });
});

describe('/mcp/faulty?fault=', () => {
  it('down: every request is a 503', async () => {
    const res = await SELF.fetch(`${FAULTY}?fault=down`, { method: 'GET' });
    expect(res.status).toBe(503);
    await expect(connect(`${FAULTY}?fault=down`)).rejects.toMatchObject({ code: 503 });
  });

  it('slow_list: tools/list waits ms, other calls do not', async () => {
    const { client } = await track(connect(`${FAULTY}?fault=slow_list&ms=1500`));
    expect(firstText(await client.callTool({ name: 'ok', arguments: {} }))).toBe('fine');
    await expect(client.listTools(undefined, { timeout: 100 })).rejects.toMatchObject({
      code: ErrorCode.RequestTimeout,
    });
    const quick = await track(connect(`${FAULTY}?fault=slow_list&ms=50`));
    expect((await quick.client.listTools()).tools).toHaveLength(6);
  });

  it('list_error: tools/list answers a JSON-RPC error, tools still answer', async () => {
    const { client } = await track(connect(`${FAULTY}?fault=list_error`));
    await expect(client.listTools()).rejects.toMatchObject({ code: ErrorCode.InternalError });
    expect(firstText(await client.callTool({ name: 'ok', arguments: {} }))).toBe('fine');
  });

  it('malformed: every POST answers a 200 that is not JSON-RPC, so initialize fails', async () => {
    const res = await post(`${FAULTY}?fault=malformed`, INITIALIZE);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"oops":');
    await expect(connect(`${FAULTY}?fault=malformed`)).rejects.toBeInstanceOf(SyntaxError);
  });

  it('an unknown fault is a 400 naming the known ones', async () => {
    const res = await post(`${FAULTY}?fault=typo`, INITIALIZE);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { message: expect.stringContaining('slow_list') } });
  });
});
