/**
 * /mcp: the MCP gateway over Streamable HTTP (docs/mcp.md). Each request is authenticated with a gateway
 * key like /v1, then served by a fresh SDK server and transport (src/mcp/handlers.ts) in the transport's
 * stateless mode, while the session itself is the gateway's: `initialize` opens one in its McpSession
 * object (src/durable/mcp-session.ts) and answers its id in `Mcp-Session-Id`; every later POST and the
 * DELETE that ends it must name it, with the key that opened it (another key is told it does not exist),
 * from any isolate. There is no server-initiated stream (GET is 405): progress rides on the POST's own
 * SSE answer. Errors are JSON-RPC errors with the HTTP status that fits.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  isInitializeRequest,
  isJSONRPCRequest,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { GatewayError } from '../core/errors';
import { originAllowed } from '../core/origins';
import { payloadMaxBytes } from '../core/payload';
import type { Principal } from '../core/principal';
import { mcpSessionObjects } from '../durable/mcp-session';
import type { Bindings } from '../env';
import { type EndUser, endUserOf } from '../limits/end-user';
import { emit } from '../logs/produce/sink';
import type { Deps } from '../ports';
import { fetcherFor } from '../providers/fetcher';
import { readJsonBody } from '../api/read-body';
import { d1McpCatalog } from '../storage/mcp-catalog';
import type { McpContext } from './context';
import { gatewayServer } from './handlers';
import { callScopes, holdCall } from './limits';
import { authHeaders, reachableServers } from './servers';
import { rpcError } from './rpc-error';
import { mcpSessions, type Sessions } from './sessions';
import { randomToken } from '../util/crypto';

export const SESSION_HEADER = 'mcp-session-id';

export interface McpEndpointInput {
  readonly request: Request;
  readonly env: Bindings;
  readonly ctx: ExecutionContext;
  readonly deps: Deps;
  /** Stage 1 of the /v1 pipeline, handed in by app.ts: the caller's principal, or a 401 GatewayError. */
  readonly authenticate: (headers: Headers) => Promise<Principal>;
}

export async function serveMcp({
  request,
  env,
  ctx,
  deps,
  authenticate,
}: McpEndpointInput): Promise<Response> {
  const method = request.method;
  if (method === 'GET' || (method !== 'POST' && method !== 'DELETE'))
    return rpcError(405, -32000, 'Method not allowed: /mcp takes POST (and DELETE to end a session).', {
      allow: 'POST, DELETE',
    });
  let principal: Principal;
  try {
    principal = await authenticate(request.headers);
  } catch (err) {
    if (err instanceof GatewayError)
      return rpcError(err.status, -32001, err.message, { 'www-authenticate': 'Bearer realm="edgeway"' });
    throw err;
  }
  const origin = request.headers.get('origin');
  if (origin !== null && !originAllowed(principal.origins, origin))
    return rpcError(403, -32000, `Origin '${origin}' may not use this key.`);
  const sessions = mcpSessions(mcpSessionObjects(env.MCP_SESSIONS));
  const sessionId = request.headers.get(SESSION_HEADER);

  if (method === 'DELETE') {
    if (!sessionId) return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required.');
    return (await sessions.close(sessionId, principal.id))
      ? new Response(null, { status: 200 })
      : rpcError(404, -32001, 'Session not found.');
  }

  let body: unknown;
  try {
    body = await readJsonBody(request, deps.config.maxBodyBytes);
  } catch (err) {
    if (err instanceof GatewayError)
      return rpcError(err.status, err.status === 400 ? -32700 : -32600, `Parse error: ${err.message}`);
    throw err;
  }
  const messages = (Array.isArray(body) ? body : [body]) as JSONRPCMessage[];
  const initialize = messages.find((m) => isInitializeRequest(m));
  let endUser: EndUser | null;
  try {
    // The header alone: an MCP message has no body field naming the end user.
    endUser = endUserOf(request.headers, {});
  } catch (err) {
    if (err instanceof GatewayError) return rpcError(400, -32602, err.message);
    throw err;
  }

  let id: string;
  let upstreams: Record<string, { sessionId: string; protocolVersion: string }>;
  if (initialize) {
    if (messages.length > 1) return rpcError(400, -32600, 'Invalid Request: initialize must be sent alone.');
    // 32 random bytes, base64url: unguessable, and visible ASCII as the spec asks.
    id = randomToken();
    const requested = initialize.params.protocolVersion;
    await sessions.open(id, {
      tenantId: principal.tenantId,
      keyId: principal.id,
      protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
      clientName: initialize.params.clientInfo.name.slice(0, 200),
      clientVersion: initialize.params.clientInfo.version.slice(0, 100),
      createdAt: Date.now(),
      upstreams: {},
    });
    upstreams = {};
  } else {
    if (!sessionId) return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required.');
    const state = await sessions.read(sessionId, principal.id);
    if (!state) return rpcError(404, -32001, 'Session not found.');
    id = sessionId;
    upstreams = { ...state.upstreams };
  }

  const context = mcpContext(request, principal, endUser, env, ctx, deps, sessions, id, upstreams);
  const server = gatewayServer(context);
  // Progress is relayed on an SSE answer; a request that asks for none is answered as plain JSON.
  const wantsProgress = messages.some(
    (m) =>
      isJSONRPCRequest(m) &&
      (m.params?._meta as { progressToken?: unknown } | undefined)?.progressToken !== undefined,
  );
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: !wantsProgress });
  await server.connect(transport);
  const response = await transport.handleRequest(request, { parsedBody: body });
  response.headers.set(SESSION_HEADER, id);
  return response;
}

function mcpContext(
  request: Request,
  principal: Principal,
  endUser: EndUser | null,
  env: Bindings,
  ctx: ExecutionContext,
  deps: Deps,
  sessions: Sessions,
  sessionId: string,
  upstreams: Record<string, { sessionId: string; protocolVersion: string }>,
): McpContext {
  const catalog = d1McpCatalog(env.DB);
  let servers: ReturnType<typeof reachable> | null = null;
  const reachable = async () => reachableServers(principal, await catalog.serversFor(principal.tenantId));
  const keep = (work: Promise<unknown>) =>
    ctx.waitUntil(work.catch((err: unknown) => console.error('mcp background work failed', String(err))));
  return {
    principal,
    endUser,
    servers: () => {
      servers ??= reachable();
      return servers;
    },
    target: async (server) => ({
      server,
      headers: await authHeaders(server, principal.tenantId, env.PROVIDER_KEYS_SECRET),
      fetch: fetcherFor(env, server.url),
      session: upstreams[server.id] ?? null,
    }),
    remember: (serverId, session) => {
      upstreams[serverId] = session;
      keep(sessions.setUpstream(sessionId, principal.id, serverId, session));
    },
    hold: () => holdCall(principal, callScopes(principal, endUser), deps.counter, keep),
    log: (event) => keep(emit(deps.logs, event)),
    keep,
    clientGone: request.signal,
    payloadMaxBytes: payloadMaxBytes(env.LOG_PAYLOAD_MAX_BYTES),
    now: Date.now,
  };
}
