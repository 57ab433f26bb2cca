/**
 * The servers one key may reach (its tenant's catalog narrowed by its allow-lists), and how the gateway
 * authenticates to each: the server's own secret, or for a global `tenant_token` server the calling
 * tenant's token, opened from its seal only for the call that sends it.
 */
import { type McpServerRecord, sealSlots } from '../core/mcp-server';
import type { Principal } from '../core/principal';
import { openProviderKey, secretProblem } from '../util/provider-key-crypto';
import { serverReachable } from './permissions';

export interface Reachable {
  readonly server: McpServerRecord;
  /** Why the server cannot be asked now (no token for this tenant, no credentials); null when it can. */
  readonly problem: string | null;
}

/** The tenant's enabled servers this key may reach, in catalog order (global first), each with its problem if any. */
export function reachableServers(principal: Principal, servers: readonly McpServerRecord[]): Reachable[] {
  return servers
    .filter((server) => server.enabled && serverReachable(principal, server.namespace))
    .map((server) => ({ server, problem: problemOf(server) }));
}

function problemOf(server: McpServerRecord): string | null {
  if (server.authType === 'tenant_token' && server.secret === null)
    return "needs the tenant's own token, and none is stored";
  if (server.authType !== 'none' && server.secret === null) return 'has no credentials stored';
  return null;
}

/** The headers that authenticate the gateway to `server` for `tenantId`'s call; rejects when a seal does not open. */
export async function authHeaders(
  server: McpServerRecord,
  tenantId: string,
  keysSecret: string | undefined,
): Promise<Record<string, string>> {
  if (server.authType === 'none' || server.secret === null) return {};
  if (secretProblem(keysSecret) !== null || keysSecret === undefined)
    throw new Error('PROVIDER_KEYS_SECRET is not usable: stored MCP credentials cannot be opened');
  const slots = sealSlots(server.id, server.authType === 'tenant_token' ? tenantId : server.tenantId);
  const value = await openProviderKey(keysSecret, slots.tenant, slots.provider, server.secret);
  // A named header carries the value as is (`header`, or a `tenant_token` server that names one); else a bearer.
  if (server.authType !== 'bearer' && server.authHeader) return { [server.authHeader]: value };
  return { authorization: `Bearer ${value}` };
}
