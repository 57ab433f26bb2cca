/**
 * Lists across servers (tools, prompts, resources, resource templates): each reachable server is asked in
 * parallel, within its timeout, every page of its list; its items are renamed into the gateway's names and
 * filtered by the key's allow-lists. A server that is down, slow or broken does not break the list: it is
 * named in the result's `_meta` (`edgeway/unavailable`) with what went wrong, and the others are listed.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { McpContext } from './context';
import { upstreamFailure } from './failure';
import type { Reachable } from './servers';
import { exchange } from './upstream';

/** Pages read from one server per list, at most (a server that pages forever is cut off there). */
const MAX_PAGES = 20;
export const UNAVAILABLE_META = 'edgeway/unavailable';

export interface Unavailable {
  readonly server: string;
  readonly error: string;
}

export interface Gathered<T> {
  readonly items: T[];
  readonly unavailable: Unavailable[];
}

type Page<T> = { items: T[]; nextCursor?: string };

/**
 * Every item of every usable server, renamed by `rename` (null drops it). `method` reads one page; a server
 * that does not offer the list at all (method not found) simply has none.
 */
export async function gather<T>(
  ctx: McpContext,
  servers: readonly Reachable[],
  page: (client: Client, cursor: string | undefined, options: object) => Promise<Page<T>>,
  rename: (namespace: string, item: T) => T | null,
  signal: AbortSignal,
): Promise<Gathered<T>> {
  const unavailable: Unavailable[] = [];
  const lists = await Promise.all(
    servers.map(async ({ server, problem }): Promise<T[]> => {
      if (problem !== null) {
        unavailable.push({ server: server.namespace, error: `MCP server '${server.namespace}' ${problem}.` });
        return [];
      }
      try {
        const target = await ctx.target(server);
        const done = await exchange(target, signal, async (client, options) => {
          const items: T[] = [];
          let cursor: string | undefined;
          for (let n = 0; n < MAX_PAGES; n++) {
            const result = await page(client, cursor, options);
            items.push(...result.items);
            cursor = result.nextCursor;
            if (!cursor) break;
          }
          return items;
        });
        if (done.session) ctx.remember(server.id, done.session);
        return done.value.flatMap((item) => rename(server.namespace, item) ?? []);
      } catch (err) {
        const failure = upstreamFailure(err, server.namespace, server.timeoutMs);
        if (failure.code === ErrorCode.MethodNotFound) return [];
        unavailable.push({ server: server.namespace, error: failure.message });
        return [];
      }
    }),
  );
  return { items: lists.flat(), unavailable };
}

/** The `_meta` naming unavailable servers, or nothing when all answered. */
export function unavailableMeta(unavailable: readonly Unavailable[]): { _meta?: Record<string, unknown> } {
  return unavailable.length === 0 ? {} : { _meta: { [UNAVAILABLE_META]: unavailable } };
}
