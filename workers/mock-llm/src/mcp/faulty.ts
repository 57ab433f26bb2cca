/**
 * `/mcp/faulty`: a stateless Streamable HTTP MCP server (a new server and transport per request, no
 * session id, no credential, plain JSON answers) that misbehaves on request. Its tools fail one way
 * each (src/mcp/faulty-server.ts); `?fault=` makes the whole URL misbehave, so a gateway can register
 * an upstream that fails on every request:
 *
 * - `down`: every request is HTTP 503;
 * - `slow_list&ms=N`: `tools/list` waits N ms (default 1000);
 * - `list_error`: `tools/list` answers a JSON-RPC error;
 * - `malformed`: every POST answers HTTP 200 `application/json` that is not JSON-RPC.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createFaultyServer, type ListFaults, MAX_DELAY_MS } from './faulty-server';
import { jsonRpcError, PARSE_ERROR, readJsonBody, SERVER_ERROR } from './json-rpc';

const FAULTS = ['down', 'slow_list', 'list_error', 'malformed'] as const;
type Fault = (typeof FAULTS)[number];

const DEFAULT_LIST_DELAY_MS = 1000;

/** The start of a JSON object that never ends: what a broken upstream's 200 looks like. */
const GARBAGE = '{"oops":';

/** The bytes `disconnect` promises and never sends. */
const DROPPED_BYTES = 1024;

/** The URL's fault, undefined for none, or an error answer for an unknown one. */
function faultOf(url: URL): Fault | undefined | Response {
  const fault = url.searchParams.get('fault');
  if (fault === null) return undefined;
  if ((FAULTS as readonly string[]).includes(fault)) return fault as Fault;
  return jsonRpcError(400, SERVER_ERROR, `Unknown fault "${fault}"; use one of ${FAULTS.join(', ')}.`);
}

function listFaultsOf(fault: Fault | undefined, url: URL): ListFaults {
  const ms = Number(url.searchParams.get('ms') ?? DEFAULT_LIST_DELAY_MS);
  return {
    listDelayMs: fault === 'slow_list' && Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_DELAY_MS) : 0,
    listError: fault === 'list_error',
  };
}

/** The tool a single JSON-RPC `tools/call` request names, if the body is one. */
function calledTool(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  return method === 'tools/call' && typeof params?.name === 'string' ? params.name : undefined;
}

function malformed(): Response {
  return new Response(GARBAGE, { status: 200, headers: { 'content-type': 'application/json' } });
}

/**
 * An event stream that drops before it carries any message: the connection dies mid-call. workerd ends
 * a chunked body cleanly even when it errors, so the stream declares a length it never reaches
 * (FixedLengthStream, as src/sse.ts does for `reset_after`): a truncated transfer to any client, over
 * HTTP or a service binding.
 */
function disconnect(): Response {
  const sent = new TextEncoder().encode(': the connection drops before any response\n\n');
  const { readable, writable } = new FixedLengthStream(sent.byteLength + DROPPED_BYTES);
  const writer = writable.getWriter();
  writer
    .write(sent)
    .then(() => writer.abort(new Error('mock-llm: MCP connection dropped (disconnect)')))
    .catch(() => undefined);
  return new Response(readable, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

export async function handleMcpFaulty(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const fault = faultOf(url);
  if (fault instanceof Response) return fault;
  if (fault === 'down') return jsonRpcError(503, SERVER_ERROR, 'Service Unavailable (fault=down)');
  if (request.method !== 'POST')
    return jsonRpcError(405, SERVER_ERROR, 'Method not allowed: this server is stateless', { allow: 'POST' });
  if (fault === 'malformed') return malformed();
  const body = await readJsonBody(request);
  if (body === undefined) return jsonRpcError(400, PARSE_ERROR, 'Parse error: the body is not JSON');
  const tool = calledTool(body);
  if (tool === 'malformed') return malformed();
  if (tool === 'disconnect') return disconnect();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await createFaultyServer(listFaultsOf(fault, url)).connect(transport);
  return transport.handleRequest(request, { parsedBody: body });
}
