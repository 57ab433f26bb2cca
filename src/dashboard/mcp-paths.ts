/**
 * Where the MCP servers pages live (pure): a server is global (tenant null) or one tenant's, and each
 * place has its dashboard page, its list, its admin API path and the admin API operations (as can.ts
 * names them) behind a change to it.
 */
import type { McpServer } from './schemas';

export const MCP_HOME = '/dashboard/mcp-servers';
export const GLOBAL_OP = '/admin/mcp-servers';
export const TENANT_OP = '/admin/tenants/{id}/mcp-servers';

/** Where a server lives: globally (tenant null) or in one tenant. */
export interface ServerPlace {
  tenantId: string | null;
  serverId: string;
}

/** The server's own page in the dashboard. */
export function serverHref(place: ServerPlace): string {
  const server = encodeURIComponent(place.serverId);
  return place.tenantId === null
    ? `${MCP_HOME}/global/${server}`
    : `${MCP_HOME}/tenants/${encodeURIComponent(place.tenantId)}/${server}`;
}

/** The list a server is shown in: the global list, or its tenant's view. */
export function listHref(tenantId: string | null): string {
  return tenantId === null ? MCP_HOME : `${MCP_HOME}?tenant_id=${encodeURIComponent(tenantId)}`;
}

export const placeOf = (s: McpServer): ServerPlace => ({ tenantId: s.tenant_id, serverId: s.id });

/** The admin API operation behind a change to a server of this place. */
export function serverOp(method: 'PATCH' | 'DELETE', tenantId: string | null): string {
  return tenantId === null ? `${method} ${GLOBAL_OP}/{server}` : `${method} ${TENANT_OP}/{server}`;
}

/** The admin API path of a place's servers, or of one server. */
export function apiPath(tenantId: string | null, serverId?: string): string {
  const list = tenantId === null ? '/mcp-servers' : `/tenants/${encodeURIComponent(tenantId)}/mcp-servers`;
  return serverId === undefined ? list : `${list}/${encodeURIComponent(serverId)}`;
}
