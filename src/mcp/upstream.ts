/**
 * One exchange with an upstream MCP server, through the SDK's client (src/mcp/failure.ts says what its
 * faults become). Streamable HTTP servers are asked within the gateway session's own upstream session when
 * it has one (no initialize round trips); a server that has forgotten it (404) is initialized afresh, once,
 * and the new session is handed back to be remembered. Legacy SSE servers get a connection per exchange.
 * Each exchange has the server's timeout (reset by progress, bounded in total) and ends with the client's
 * request: nothing is left running upstream for a caller that went away.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerRecord } from '../core/mcp-server';
import type { UpstreamSession } from '../core/mcp-session';
import type { HttpFetch } from '../providers/adapter';
import { upstreamFailure } from './failure';
import { passThroughValidator } from './pass-through-validator';

/** The longest an exchange may run when progress keeps resetting its timeout, as a multiple of it. */
const MAX_TOTAL_TIMEOUTS = 5;

export interface UpstreamTarget {
  readonly server: McpServerRecord;
  /** The headers that authenticate the gateway to it (the opened secret); never logged. */
  readonly headers: Readonly<Record<string, string>>;
  readonly fetch: HttpFetch;
  /** The gateway session's upstream session with this server, if it has one. */
  readonly session: UpstreamSession | null;
}

export interface Exchanged<T> {
  readonly value: T;
  /** A new upstream session to remember (a fresh initialize); undefined when it did not change. */
  readonly session?: UpstreamSession;
}

export async function exchange<T>(
  target: UpstreamTarget,
  signal: AbortSignal | undefined,
  run: (client: Client, options: RequestOptions) => Promise<T>,
): Promise<Exchanged<T>> {
  const { server } = target;
  const options: RequestOptions = {
    timeout: server.timeoutMs,
    resetTimeoutOnProgress: true,
    maxTotalTimeout: server.timeoutMs * MAX_TOTAL_TIMEOUTS,
    signal,
  };
  try {
    if (server.transport === 'streamable-http' && target.session) {
      try {
        return { value: await once(target, target.session, options, run) };
      } catch (err) {
        // The server forgot the session (restarted, expired): start a new one.
        if (!(err instanceof StreamableHTTPError && err.code === 404)) throw err;
      }
    }
    let fresh: UpstreamSession | undefined;
    const value = await once(target, null, options, run, (s) => {
      fresh = s;
    });
    return fresh ? { value, session: fresh } : { value };
  } catch (err) {
    throw upstreamFailure(err, server.namespace, server.timeoutMs);
  }
}

async function once<T>(
  target: UpstreamTarget,
  session: UpstreamSession | null,
  options: RequestOptions,
  run: (client: Client, options: RequestOptions) => Promise<T>,
  opened?: (session: UpstreamSession) => void,
): Promise<T> {
  const transport = transportFor(target, session);
  const client = new Client(
    { name: 'edgeway', version: '1.0.0' },
    { capabilities: {}, jsonSchemaValidator: passThroughValidator },
  );
  try {
    await client.connect(transport, options);
    if (!session && transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
      opened?.({ sessionId: transport.sessionId, protocolVersion: transport.protocolVersion ?? '' });
    }
    return await run(client, options);
  } finally {
    // Ends the exchange's streams (the standalone GET a fresh session opens) without ending the session.
    await transport.close().catch(() => {});
  }
}

function transportFor(target: UpstreamTarget, session: UpstreamSession | null): Transport {
  const url = new URL(target.server.url);
  const requestInit: RequestInit = { headers: { ...target.headers } };
  const fetch = (input: string | URL, init?: RequestInit) => target.fetch(String(input), init ?? {});
  if (target.server.transport === 'sse') return new SSEClientTransport(url, { requestInit, fetch });
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit,
    fetch,
    sessionId: session?.sessionId,
    // A dropped stream is a failed call, answered as one: not retried behind the client's back.
    reconnectionOptions: {
      maxRetries: 0,
      initialReconnectionDelay: 0,
      maxReconnectionDelay: 0,
      reconnectionDelayGrowFactor: 1,
    },
  });
  if (session?.protocolVersion) transport.setProtocolVersion(session.protocolVersion);
  return transport;
}
