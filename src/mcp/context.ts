/**
 * What every handler of one /mcp request is given (built by src/mcp/endpoint.ts): the caller, the servers
 * its key may reach, how to reach one (its credentials and the session's upstream session), how to count
 * a tool call against the limits, and where its log goes. Handlers stay free of bindings.
 */
import type { McpServerRecord } from '../core/mcp-server';
import type { UpstreamSession } from '../core/mcp-session';
import type { LogEvent } from '../core/log-event';
import type { Principal } from '../core/principal';
import type { EndUser } from '../limits/end-user';
import type { Held } from './limits';
import type { Reachable } from './servers';
import type { UpstreamTarget } from './upstream';

export interface McpContext {
  readonly principal: Principal;
  readonly endUser: EndUser | null;
  /** The servers the key may reach (read once per request, on first use). */
  servers(): Promise<readonly Reachable[]>;
  /** How to reach `server` for this session. */
  target(server: McpServerRecord): Promise<UpstreamTarget>;
  /** Remembers the session's new upstream session with a server (off the response path). */
  remember(serverId: string, session: UpstreamSession): void;
  /** Counts one tool call against the limits, or throws the McpFailure that refuses it. */
  hold(): Promise<Held>;
  /** Sends one call's log event (off the response path). */
  log(event: LogEvent): void;
  /** Keeps work alive after the response. */
  keep(work: Promise<unknown>): void;
  /** Aborted when the client's HTTP request goes away: its upstream calls end with it. */
  readonly clientGone: AbortSignal;
  readonly payloadMaxBytes: number;
  readonly now: () => number;
}
