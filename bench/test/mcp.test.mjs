// The MCP workload's harness without workerd: the JSON-RPC answer reader, both client harnesses and the
// workload itself against a small MCP server on a local Node socket (JSON or SSE answers, a session id),
// the Limiter dump readers and the report's tables and engagement lines.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { dayRequests, heldCount } from '../lib/mcp-bench.mjs';
import { openSession, rpcMessages } from '../lib/mcp-clients.mjs';
import { mcpChecksLines, mcpSection } from '../lib/mcp-report.mjs';
import { MCP_PAIRS, mcpWorkload } from '../lib/workloads/mcp.mjs';

test('an answer is read as one JSON message, a batch, or the data of each SSE event', () => {
  assert.deepEqual(rpcMessages('application/json', '{"jsonrpc":"2.0","id":1,"result":{}}'), [
    { jsonrpc: '2.0', id: 1, result: {} },
  ]);
  assert.deepEqual(rpcMessages('application/json; charset=utf-8', '[{"id":1},{"id":2}]'), [
    { id: 1 },
    { id: 2 },
  ]);
  assert.deepEqual(rpcMessages('application/json', ''), []);
  const sse =
    'id: a\r\ndata: \r\n\r\n' + // a priming event with no message
    'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n' +
    'event: message\nid: b\ndata: {"jsonrpc":"2.0",\ndata: "id":7,"result":{"ok":true}}\n\n';
  assert.deepEqual(rpcMessages('text/event-stream', sse), [
    { jsonrpc: '2.0', method: 'notifications/progress', params: {} },
    { jsonrpc: '2.0', id: 7, result: { ok: true } },
  ]);
});

/**
 * A minimal Streamable HTTP MCP server: `initialize` opens a session (its id in mcp-session-id), every
 * later POST must name it; `echo` answers its text (as SSE when `sse`), `boom` a JSON-RPC error,
 * `sad` an isError result. GET is 405, DELETE ends the session.
 */
function fakeServer({ sse }) {
  const sessions = new Set();
  let n = 0;
  const server = createServer(async (req, res) => {
    if (req.method === 'GET') return res.writeHead(405).end();
    const id = req.headers['mcp-session-id'];
    if (req.method === 'DELETE') {
      sessions.delete(id);
      return res.writeHead(200).end();
    }
    let body = '';
    for await (const chunk of req) body += chunk;
    const msg = JSON.parse(body);
    const answer = (payload, headers = {}) => {
      const text = JSON.stringify({ jsonrpc: '2.0', id: msg.id, ...payload });
      if (sse) {
        res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
        res.end(`event: message\ndata: ${text}\n\n`);
      } else res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(text);
    };
    if (msg.method === 'initialize') {
      const session = `s${++n}`;
      sessions.add(session);
      return answer(
        {
          result: {
            protocolVersion: msg.params.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'fake', version: '1' },
          },
        },
        { 'mcp-session-id': session },
      );
    }
    if (!sessions.has(id))
      return res.writeHead(404).end('{"jsonrpc":"2.0","error":{"code":-32001,"message":"no"},"id":null}');
    if (msg.id === undefined) return res.writeHead(202).end();
    const { name, arguments: args } = msg.params;
    if (name === 'boom') return answer({ error: { code: -32603, message: 'boom' } });
    if (name === 'sad')
      return answer({ result: { content: [{ type: 'text', text: 'sad' }], isError: true } });
    return answer({ result: { content: [{ type: 'text', text: args.text }] } });
  });
  return server;
}

const servers = {};
before(async () => {
  for (const kind of ['json', 'sse']) {
    const s = fakeServer({ sse: kind === 'sse' });
    await new Promise((r) => s.listen(0, '127.0.0.1', r));
    servers[kind] = { server: s, url: `http://127.0.0.1:${s.address().port}/mcp` };
  }
});
after(() => {
  for (const { server } of Object.values(servers)) server.close();
});

for (const harness of ['raw', 'sdk'])
  for (const kind of ['json', 'sse'])
    test(`the ${harness} harness opens a session and times calls against ${kind} answers`, {
      timeout: 15_000,
    }, async () => {
      const target = (tool) => ({ name: 't', url: servers[kind].url, headers: {}, tool });
      const s = await openSession(harness, target('echo'));
      assert.match(s.sessionId, /^s\d+$/);
      const ok = await s.call({ text: 'hello' });
      assert.equal(ok.ok, true);
      assert.equal(ok.text, 'hello');
      assert.ok(ok.ms > 0);
      await s.close();
      const boom = await (await openSession(harness, target('boom'))).call({});
      assert.equal(boom.ok, false);
      assert.match(boom.error, /boom/);
      const sad = await (await openSession(harness, target('sad'))).call({});
      assert.deepEqual([sad.ok, sad.error], [false, 'isError: sad']);
    });

test('the workload reports each target per harness and concurrency, and the differences within repeats', {
  timeout: 30_000,
}, async () => {
  const logged = [];
  const targets = ['direct', 'gateway', 'gateway-governed'].map((name) => ({
    name,
    label: name,
    url: servers.json.url,
    headers: {},
    tool: 'echo',
  }));
  const out = await mcpWorkload({ log: (m) => logged.push(m) }, targets, {
    pids: {},
    harnesses: ['raw'],
    concurrencies: [1, 3],
    requests: 6,
    repeats: 2,
    warmup: 2,
    text: 'x'.repeat(10),
  });
  assert.equal(out.argBytes, 10);
  assert.deepEqual(Object.keys(out.harnesses.raw), ['1', '3']);
  for (const c of ['1', '3']) {
    const run = out.harnesses.raw[c];
    for (const t of targets) {
      const x = run.perTarget[t.name];
      assert.equal(x.errors, 0);
      assert.equal(x.requests, 2 * 6);
      assert.equal(x.runs.length, 2);
      assert.equal(x.latencyMs.p50.runs, 2);
    }
    // The split pairs are absent: their targets did not run.
    assert.deepEqual(
      Object.keys(run.added),
      MCP_PAIRS.slice(0, 3).map(([a, b]) => `${a} − ${b}`),
    );
    const d = run.added['gateway − direct'].p50;
    const each = run.perTarget.gateway.runs.map(
      (r, i) => r.latencyMs.p50 - run.perTarget.direct.runs[i].latencyMs.p50,
    );
    assert.equal(d.median, [...each].sort((a, b) => a - b)[0]);
  }
  assert.equal(logged.length, 2);

  const md = mcpSection({
    ...out,
    checks: { limits: { sent: 5, counted: 5 }, guardrails: { governedRedacted: true, plainIntact: true } },
  });
  assert.match(md, /^## MCP: tools\/call through the gateway \(2 × 6 calls per target and run\)/);
  assert.match(md, /### raw JSON-RPC POSTs .*, 1 session per target \(calls back to back\)/);
  assert.match(md, /### raw JSON-RPC POSTs .*, 3 sessions per target in parallel/);
  assert.match(md, /\| gateway − direct \| [+-]\d/);
  assert.match(md, /\| direct \| [\d.]+ \([\d.]+…[\d.]+\) \| .* \| – \| – \| 0\/12 \|/);
});

test('the engagement lines say when the Limiter count is not exact or a guardrail did not redact', () => {
  assert.deepEqual(mcpChecksLines(null), []);
  const [limits, guard] = mcpChecksLines({
    limits: { sent: 10, counted: 9 },
    guardrails: { governedRedacted: false, plainIntact: true },
  });
  assert.match(limits, /counted 9 calls today against 10 answered \(NOT EXACT\)/);
  assert.match(guard, /came back NOT REDACTED through the governed key and unchanged through the plain key/);
  assert.match(
    mcpChecksLines({ limits: { sent: 3, counted: null, error: 'no proxy' } })[0],
    /could not be read \(no proxy\)/,
  );
});

test("a Limiter dump's day ledger gives the calls counted and those still held", () => {
  const dump = { state: { ledger: { day: { requestsSpent: 12, requestsHeld: 1 } } } };
  assert.equal(dayRequests(dump), 12);
  assert.equal(heldCount(dump), 1);
  assert.equal(dayRequests({ state: {} }), null);
  assert.equal(heldCount({}), 0);
});
