/**
 * `/mcp/healthy`: a stateful Streamable HTTP MCP server behind a fixed bearer token. An `initialize`
 * without a session id opens a session (its id in `mcp-session-id`); every later request names it and
 * goes to that session's transport. The token makes the gateway's stored upstream credential matter;
 * an unknown or forgotten session is the SDK's 404, which a client answers by re-initializing.
 *
 * GET (the optional stream for server-initiated messages) answers 405, as the spec allows: these tools
 * send nothing outside a call, and in workerd an idle stream held open by one request is cancelled as
 * hung, and closing it from another request (a DELETE, an eviction) is cross-request I/O.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createHealthyServer } from './healthy-server';
import { jsonRpcError, PARSE_ERROR, readJsonBody, SERVER_ERROR, SESSION_NOT_FOUND } from './json-rpc';
import { SessionStore } from './sessions';

/** The one credential `/mcp/healthy` accepts, as `Authorization: Bearer mock-mcp-token`. */
export const MOCK_MCP_TOKEN = 'mock-mcp-token';

const sessions = new SessionStore();

function unauthorized(): Response {
  return jsonRpcError(401, SERVER_ERROR, 'Unauthorized: send Authorization: Bearer <token>', {
    'www-authenticate': 'Bearer realm="edgeway-mock-mcp"',
  });
}

/** Opens a session for an `initialize` request; anything else without a session id is refused. */
async function openSession(request: Request): Promise<Response> {
  if (request.method !== 'POST')
    return jsonRpcError(400, SERVER_ERROR, 'Bad Request: Mcp-Session-Id header is required');
  const body = await readJsonBody(request);
  if (body === undefined) return jsonRpcError(400, PARSE_ERROR, 'Parse error: the body is not JSON');
  if (!isInitializeRequest(body))
    return jsonRpcError(400, SERVER_ERROR, 'Bad Request: Mcp-Session-Id header is required');
  const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
    onsessioninitialized: (id): void => sessions.add(id, transport),
    onsessionclosed: (id) => sessions.delete(id),
    // No keep-alive comments: a timer per open stream is cost the bench does not need.
    keepAliveMs: 0,
  });
  transport.onclose = () => {
    if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
  };
  await createHealthyServer().connect(transport);
  return transport.handleRequest(request, { parsedBody: body });
}

export async function handleMcpHealthy(request: Request): Promise<Response> {
  if (request.headers.get('authorization') !== `Bearer ${MOCK_MCP_TOKEN}`) return unauthorized();
  if (request.method === 'GET')
    return jsonRpcError(405, SERVER_ERROR, 'Method not allowed: no server-initiated stream', {
      allow: 'POST, DELETE',
    });
  const id = request.headers.get('mcp-session-id');
  if (id === null) return openSession(request);
  const transport = sessions.get(id);
  if (!transport) return jsonRpcError(404, SESSION_NOT_FOUND, 'Session not found');
  return transport.handleRequest(request);
}
