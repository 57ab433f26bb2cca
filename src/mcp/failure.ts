/**
 * What went wrong on /mcp, as the JSON-RPC error the client gets and the status and code its log records
 * (pure). The gateway's own codes sit in JSON-RPC's implementation-defined range; an upstream's JSON-RPC
 * error keeps its code and message, with the server's namespace in `data`. Messages never carry an
 * upstream's raw answer, a secret or a URL's credentials.
 */
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

export const MCP_CODES = {
  /** The key may use no tool (its allow-lists match none, or its tenant has no servers). */
  noTools: -32010,
  /** The tool, prompt or resource is not one this key may use (or does not exist). */
  notPermitted: -32011,
  /** A tool-call limit of the key, tenant or end user is reached. */
  rateLimited: -32012,
  /** The upstream server is down, slow, unreachable or answered something that is not MCP. */
  unavailable: -32013,
  /** A guardrail refused the call's arguments or its result. */
  blocked: -32014,
} as const;

/**
 * An MCP failure: the JSON-RPC error the SDK's server answers with (it reads `code`, `message` and `data`),
 * and what its log records, an HTTP-like status and the gateway's error code.
 */
export class McpFailure extends Error {
  override readonly name = 'McpFailure';
  constructor(
    readonly code: number,
    message: string,
    readonly status: number,
    readonly reason: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function notPermitted(what: string): McpFailure {
  return new McpFailure(
    MCP_CODES.notPermitted,
    `${what} is not available to this key.`,
    403,
    'mcp_not_permitted',
  );
}

/** The SDK's `MCP error <code>: ` prefix, taken off an upstream's own message. */
const PREFIX = /^MCP error -?\d+: /;

/**
 * An exception from one upstream call as the failure the client is told: the upstream's JSON-RPC error
 * passed through, or `unavailable` naming what happened (timeout, refused credentials, HTTP status,
 * malformed answer, unreachable).
 */
export function upstreamFailure(err: unknown, namespace: string, timeoutMs: number): McpFailure {
  if (err instanceof McpFailure) return err;
  const data = { server: namespace };
  if (err instanceof McpError) {
    if (err.code === ErrorCode.RequestTimeout)
      return unavailable(`did not answer within ${timeoutMs} ms`, 504, 'mcp_upstream_timeout', data);
    if (err.code === ErrorCode.ConnectionClosed)
      return unavailable('closed the connection before answering', 502, 'mcp_upstream_closed', data);
    const message = err.message.replace(PREFIX, '').slice(0, 1_000);
    return new McpFailure(err.code, `MCP server '${namespace}': ${message}`, 502, 'mcp_upstream_error', data);
  }
  const status = httpStatusOf(err);
  if (status === 401 || status === 403)
    return unavailable(`refused the gateway's credentials (HTTP ${status})`, 502, 'mcp_upstream_auth', data);
  if (status !== null && status > 0)
    return unavailable(`answered HTTP ${status}`, 502, 'mcp_upstream_status', data);
  if (isAbort(err))
    return unavailable('was not waited for: the client went away', 499, 'client_disconnected', data);
  if (status === -1 || err instanceof SyntaxError || isZodError(err))
    return unavailable('answered something that is not an MCP message', 502, 'mcp_upstream_malformed', data);
  return unavailable('could not be reached', 502, 'mcp_upstream_unreachable', data);
}

function unavailable(what: string, status: number, reason: string, data: Record<string, unknown>) {
  return new McpFailure(MCP_CODES.unavailable, `MCP server '${data.server}' ${what}.`, status, reason, data);
}

/** The HTTP status a transport error carries (`code`; -1: a wrong content type); null for other errors. */
function httpStatusOf(err: unknown): number | null {
  if (err instanceof StreamableHTTPError || err instanceof SseError) return err.code ?? null;
  return null;
}

const isAbort = (err: unknown) =>
  err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
const isZodError = (err: unknown) =>
  err instanceof Error && (err.name === 'ZodError' || err.name === '$ZodError');
