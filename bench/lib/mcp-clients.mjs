/**
 * The two MCP client harnesses the MCP workload measures with, behind one shape: `open(target)` gives a
 * session (initialize done) whose `call(args)` times one `tools/call` and whose `close()` ends it.
 * - `sdk`: the official `@modelcontextprotocol/sdk` Client over StreamableHTTPClientTransport, what an
 *   agent uses;
 * - `raw`: a hand-built JSON-RPC POST per call (Accept: application/json, text/event-stream), the
 *   session id and protocol version reused, the answer read as JSON or as SSE: no client library between
 *   the timer and the socket, so the SDK client's own per-call work cannot hide the gateway's.
 * A target is { name, url, headers, tool }: the endpoint, the headers that authenticate to it, and the
 * tool's name there (`echo` on the mock, `bench__echo` through the gateway).
 * A call resolves { ms, ok, text } (text: the result's first text block, for the engagement checks) and
 * never rejects: a failed call is `ok: false` with its `error`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

export const HARNESSES = ['sdk', 'raw'];
const CLIENT_INFO = { name: 'edgeway-bench', version: '1.0.0' };
const CALL_TIMEOUT_MS = 15_000;

/** The first text block of a tools/call result, or null. */
export function resultText(result) {
  const block = (result?.content ?? []).find((b) => b?.type === 'text');
  return block ? block.text : null;
}

/** A session of the official SDK client against `target`. */
export async function openSdkSession(target) {
  const transport = new StreamableHTTPClientTransport(new URL(target.url), {
    requestInit: { headers: { ...target.headers } },
    // A failed call is counted as one, not retried behind the timer's back.
    reconnectionOptions: {
      maxRetries: 0,
      initialReconnectionDelay: 0,
      maxReconnectionDelay: 0,
      reconnectionDelayGrowFactor: 1,
    },
  });
  const client = new Client(CLIENT_INFO);
  await client.connect(transport);
  return {
    sessionId: transport.sessionId ?? null,
    async call(args) {
      const t0 = performance.now();
      try {
        const result = await client.callTool({ name: target.tool, arguments: args }, undefined, {
          timeout: CALL_TIMEOUT_MS,
        });
        const ms = performance.now() - t0;
        if (result.isError) return { ms, ok: false, error: `isError: ${resultText(result)}` };
        return { ms, ok: true, text: resultText(result) };
      } catch (err) {
        return { ms: performance.now() - t0, ok: false, error: String(err?.message ?? err) };
      }
    },
    async close() {
      await transport.terminateSession().catch(() => {});
      await client.close().catch(() => {});
    },
  };
}

/**
 * The JSON-RPC messages of one HTTP answer: a JSON body (one message or a batch), or an SSE stream's
 * `data:` lines (each event one message). Pure.
 */
export function rpcMessages(contentType, body) {
  if ((contentType ?? '').includes('text/event-stream')) {
    const out = [];
    for (const event of body.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data) out.push(JSON.parse(data));
    }
    return out;
  }
  if (body.trim() === '') return [];
  const parsed = JSON.parse(body);
  return Array.isArray(parsed) ? parsed : [parsed];
}

/** A session of hand-built JSON-RPC POSTs against `target`. */
export async function openRawSession(target) {
  let nextId = 1;
  let sessionId = null;
  let protocolVersion = null;
  const post = async (message) => {
    const res = await fetch(target.url, {
      method: 'POST',
      headers: {
        ...target.headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
        ...(protocolVersion ? { 'mcp-protocol-version': protocolVersion } : {}),
      },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const body = await res.text();
    return { res, body };
  };
  const ask = async (method, params) => {
    const id = nextId++;
    const { res, body } = await post({ jsonrpc: '2.0', id, method, params });
    if (!res.ok) throw new Error(`${method} → HTTP ${res.status}: ${body.slice(0, 300)}`);
    const answer = rpcMessages(res.headers.get('content-type'), body).find((m) => m.id === id);
    if (!answer) throw new Error(`${method}: no answer with id ${id} in ${body.slice(0, 300)}`);
    if (answer.error) throw new Error(`${method} → ${answer.error.code}: ${answer.error.message}`);
    return { res, result: answer.result };
  };

  const init = await ask('initialize', {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: CLIENT_INFO,
  });
  sessionId = init.res.headers.get('mcp-session-id');
  protocolVersion = init.result.protocolVersion;
  const initialized = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  if (initialized.res.status !== 202 && initialized.res.status !== 200)
    throw new Error(`notifications/initialized → HTTP ${initialized.res.status}`);

  return {
    sessionId,
    async call(args) {
      const t0 = performance.now();
      try {
        const { result } = await ask('tools/call', { name: target.tool, arguments: args });
        const ms = performance.now() - t0;
        if (result.isError) return { ms, ok: false, error: `isError: ${resultText(result)}` };
        return { ms, ok: true, text: resultText(result) };
      } catch (err) {
        return { ms: performance.now() - t0, ok: false, error: String(err?.message ?? err) };
      }
    },
    async close() {
      if (!sessionId) return;
      await fetch(target.url, {
        method: 'DELETE',
        headers: { ...target.headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion },
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      })
        .then((r) => r.arrayBuffer())
        .catch(() => {});
    },
  };
}

/** Opens a session of `harness` ('sdk' | 'raw') against `target`. */
export function openSession(harness, target) {
  if (harness === 'sdk') return openSdkSession(target);
  if (harness === 'raw') return openRawSession(target);
  throw new Error(`unknown MCP harness ${harness}`);
}
