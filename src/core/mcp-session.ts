/**
 * An MCP session on /mcp (docs/mcp.md, "Sessions"): what `initialize` opened, kept in its McpSession
 * Durable Object (src/durable/mcp-session.ts) so any isolate can serve the session's next request. It
 * belongs to the key that opened it: another key naming its id is told it does not exist.
 */

/** The session an upstream server gave the gateway for one of its clients' sessions. */
export interface UpstreamSession {
  readonly sessionId: string;
  readonly protocolVersion: string;
}

export interface McpSessionState {
  readonly tenantId: string;
  readonly keyId: string;
  /** The protocol version negotiated at initialize. */
  readonly protocolVersion: string;
  readonly clientName: string | null;
  readonly clientVersion: string | null;
  readonly createdAt: number;
  /** The gateway's own sessions with the upstream servers, by server id. */
  readonly upstreams: Readonly<Record<string, UpstreamSession>>;
}

/** The session's object, as the /mcp endpoint calls it (a DurableObjectStub<McpSession> has these). */
export interface McpSessionRpc {
  open(state: McpSessionState): Promise<void>;
  /** The state, if the session exists and belongs to `keyId`; null otherwise. Counts as activity. */
  read(keyId: string): Promise<McpSessionState | null>;
  /** Records (or with null forgets) the gateway's session with one upstream server. */
  setUpstream(keyId: string, serverId: string, upstream: UpstreamSession | null): Promise<void>;
  /** Ends the session; false when it did not exist for `keyId`. */
  close(keyId: string): Promise<boolean>;
}

/** A session idle this long is deleted by its object's alarm. */
export const MCP_SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
