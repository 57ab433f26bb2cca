/**
 * The healthy MCP server's sessions: one transport (with its server) per `mcp-session-id`, kept in the
 * isolate's memory like the mock's stored responses. The store is capped so a long bench run cannot
 * grow it without bound; the oldest session goes first and its id then answers 404, which is what a
 * real server that forgot a session does (a client re-initializes on it).
 */
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

export const MAX_SESSIONS = 1000;

export class SessionStore {
  /** Insertion-ordered, so the first key is the oldest session. */
  private readonly sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();

  constructor(private readonly capacity = MAX_SESSIONS) {}

  get(id: string): WebStandardStreamableHTTPServerTransport | undefined {
    return this.sessions.get(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Keeps a new session, closing the oldest ones beyond the capacity. */
  add(id: string, transport: WebStandardStreamableHTTPServerTransport): void {
    this.sessions.set(id, transport);
    for (const [oldest, evicted] of this.sessions) {
      if (this.sessions.size <= this.capacity) break;
      this.sessions.delete(oldest);
      void evicted.close();
    }
  }

  /** Forgets a session (the client deleted it, or its transport closed). */
  delete(id: string): void {
    this.sessions.delete(id);
  }
}
