/**
 * McpSession: one small Durable Object per MCP session on /mcp (src/core/mcp-session.ts), named by the
 * session id. It holds the session's one record — its key, negotiated protocol version and the gateway's
 * sessions with upstream servers — so every isolate serves the session alike. Activity is written at most
 * once a minute; an alarm deletes the record once the session has been idle MCP_SESSION_IDLE_MS.
 */
import { DurableObject } from 'cloudflare:workers';
import {
  MCP_SESSION_IDLE_MS,
  type McpSessionRpc,
  type McpSessionState,
  type UpstreamSession,
} from '../core/mcp-session';
import type { Bindings } from '../env';

const STATE = 'state';
const SEEN = 'seen';
/** Activity newer than this is not written again. */
const SEEN_GRAIN_MS = 60_000;

/** Session id → its object. */
export function mcpSessionObjects(ns: DurableObjectNamespace<McpSession>): (id: string) => McpSessionRpc {
  return (id) => ns.get(ns.idFromName(id));
}

export class McpSession extends DurableObject<Bindings> implements McpSessionRpc {
  /** The clock; tests replace it through runInDurableObject. */
  now: () => number = () => Date.now();

  async open(state: McpSessionState): Promise<void> {
    const now = this.now();
    await this.ctx.storage.put({ [STATE]: state, [SEEN]: now });
    await this.ctx.storage.setAlarm(now + MCP_SESSION_IDLE_MS);
  }

  async read(keyId: string): Promise<McpSessionState | null> {
    const state = await this.owned(keyId);
    if (!state) return null;
    const now = this.now();
    const seen = (await this.ctx.storage.get<number>(SEEN)) ?? 0;
    if (now - seen >= SEEN_GRAIN_MS) await this.ctx.storage.put(SEEN, now);
    return state;
  }

  async setUpstream(keyId: string, serverId: string, upstream: UpstreamSession | null): Promise<void> {
    const state = await this.owned(keyId);
    if (!state) return;
    const upstreams = { ...state.upstreams };
    if (upstream) upstreams[serverId] = upstream;
    else delete upstreams[serverId];
    await this.ctx.storage.put(STATE, { ...state, upstreams });
  }

  async close(keyId: string): Promise<boolean> {
    if (!(await this.owned(keyId))) return false;
    await this.ctx.storage.deleteAll();
    await this.ctx.storage.deleteAlarm();
    return true;
  }

  override async alarm(): Promise<void> {
    const seen = await this.ctx.storage.get<number>(SEEN);
    if (seen === undefined) return;
    const idleUntil = seen + MCP_SESSION_IDLE_MS;
    if (this.now() >= idleUntil) await this.ctx.storage.deleteAll();
    else await this.ctx.storage.setAlarm(idleUntil);
  }

  private async owned(keyId: string): Promise<McpSessionState | null> {
    const state = await this.ctx.storage.get<McpSessionState>(STATE);
    return state && state.keyId === keyId ? state : null;
  }
}
