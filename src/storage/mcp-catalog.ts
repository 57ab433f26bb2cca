/**
 * The servers a tenant's /mcp requests may reach, read from D1 (src/core/mcp-server.ts): the global
 * ones and the tenant's own, each with the secret to send it (a global `tenant_token` server carries the
 * calling tenant's token, or none). Cached per isolate for CATALOG_TTL_MS, so /mcp reads D1 at most once
 * per tenant and isolate in that time; an admin write clears the isolate's copy at once (forget), other
 * isolates see it within the TTL. Only /mcp reads this: the /v1 path never does.
 */
import { McpServerRecord } from '../core/mcp-server';

/** How long an isolate trusts its copy of a tenant's servers. */
export const CATALOG_TTL_MS = 10_000;
/** Tenants whose servers one isolate keeps at once. */
const MAX_TENANTS = 1_000;

export interface McpCatalog {
  /** Every server the tenant may be offered, enabled or not, global ones first. */
  serversFor(tenantId: string): Promise<readonly McpServerRecord[]>;
}

interface Row {
  id: string;
  tenant_id: string | null;
  namespace: string;
  url: string;
  transport: string;
  auth_type: string;
  auth_header: string | null;
  ciphertext: string | null;
  iv: string | null;
  token_ciphertext: string | null;
  token_iv: string | null;
  timeout_ms: number;
  enabled: number;
}

const SELECT = `
  SELECT s.id, s.tenant_id, s.namespace, s.url, s.transport, s.auth_type, s.auth_header, s.ciphertext, s.iv,
         t.ciphertext AS token_ciphertext, t.iv AS token_iv, s.timeout_ms, s.enabled
  FROM mcp_servers s
  LEFT JOIN mcp_server_tokens t ON t.server_id = s.id AND t.tenant_id = ?1
  WHERE s.tenant_id IS NULL OR s.tenant_id = ?1
  ORDER BY s.tenant_id IS NOT NULL, s.namespace`;

export function toRecord(row: Row): McpServerRecord {
  const own = row.ciphertext !== null && row.iv !== null ? { ciphertext: row.ciphertext, iv: row.iv } : null;
  const token =
    row.token_ciphertext !== null && row.token_iv !== null
      ? { ciphertext: row.token_ciphertext, iv: row.token_iv }
      : null;
  return McpServerRecord.parse({
    id: row.id,
    tenantId: row.tenant_id,
    namespace: row.namespace,
    url: row.url,
    transport: row.transport,
    authType: row.auth_type,
    authHeader: row.auth_header,
    secret: row.auth_type === 'tenant_token' ? token : own,
    timeoutMs: row.timeout_ms,
    enabled: row.enabled === 1,
  });
}

const cached = new Map<string, { at: number; servers: Promise<readonly McpServerRecord[]> }>();

/** Drops the isolate's copies (one tenant's, or all for a global server's change). */
export function forgetMcpServers(tenantId: string | null): void {
  if (tenantId === null) cached.clear();
  else cached.delete(tenantId);
}

export function d1McpCatalog(db: D1Database, now: () => number = Date.now): McpCatalog {
  return {
    serversFor(tenantId) {
      const at = now();
      const hit = cached.get(tenantId);
      if (hit && at - hit.at < CATALOG_TTL_MS) return hit.servers;
      const servers = db
        .prepare(SELECT)
        .bind(tenantId)
        .all<Row>()
        .then(({ results }) => results.map(toRecord));
      if (cached.size >= MAX_TENANTS) cached.delete(cached.keys().next().value as string);
      cached.set(tenantId, { at, servers });
      // A failed read is not kept: the next request asks D1 again.
      servers.catch(() => {
        if (cached.get(tenantId)?.servers === servers) cached.delete(tenantId);
      });
      return servers;
    },
  };
}
