/**
 * The /mcp endpoint's view of its sessions: each in its McpSession object (src/durable/mcp-session.ts),
 * read through an isolate copy kept SESSION_TTL_MS, so a busy session costs one object round trip per
 * isolate in that time, not one per request. A session closed in one isolate is refused there at once and
 * everywhere else within the TTL. Upstream sessions learned by one isolate are written through.
 */
import type { McpSessionRpc, McpSessionState, UpstreamSession } from '../core/mcp-session';
import { setCapped } from '../util/capped-map';

export const SESSION_TTL_MS = 5_000;
const MAX_CACHED = 10_000;

export interface Sessions {
  open(id: string, state: McpSessionState): Promise<void>;
  /** The session, when it exists and belongs to `keyId`. */
  read(id: string, keyId: string): Promise<McpSessionState | null>;
  setUpstream(id: string, keyId: string, serverId: string, upstream: UpstreamSession | null): Promise<void>;
  close(id: string, keyId: string): Promise<boolean>;
}

const cached = new Map<string, { at: number; state: McpSessionState }>();

/** Drops the isolate's copies of every session (what a new isolate starts with). */
export function forgetMcpSessions(): void {
  cached.clear();
}

export function mcpSessions(
  objectFor: (id: string) => McpSessionRpc,
  now: () => number = Date.now,
): Sessions {
  return {
    async open(id, state) {
      await objectFor(id).open(state);
      setCapped(cached, id, { at: now(), state }, MAX_CACHED);
    },
    async read(id, keyId) {
      const hit = cached.get(id);
      if (hit && now() - hit.at < SESSION_TTL_MS) return hit.state.keyId === keyId ? hit.state : null;
      const state = await objectFor(id).read(keyId);
      if (state) setCapped(cached, id, { at: now(), state }, MAX_CACHED);
      else cached.delete(id);
      return state;
    },
    async setUpstream(id, keyId, serverId, upstream) {
      const hit = cached.get(id);
      if (hit && hit.state.keyId === keyId) {
        const upstreams = { ...hit.state.upstreams };
        if (upstream) upstreams[serverId] = upstream;
        else delete upstreams[serverId];
        hit.state = { ...hit.state, upstreams };
      }
      await objectFor(id).setUpstream(keyId, serverId, upstream);
    },
    async close(id, keyId) {
      cached.delete(id);
      return objectFor(id).close(keyId);
    },
  };
}
