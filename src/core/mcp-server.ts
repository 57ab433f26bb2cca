/**
 * A registered upstream MCP server as the /mcp endpoint sees it (src/storage/mcp-catalog.ts builds it
 * from D1; src/storage/mcp-servers.ts is the admin API's store): where it is, how to authenticate to it,
 * and the namespace its tools are listed under. A server is global (every tenant's, `tenantId` null) or
 * one tenant's. Secrets stay sealed
 * (src/util/provider-key-crypto.ts) until the moment of the upstream call.
 */
import * as z from 'zod';
import { MCP_NAMESPACE } from './mcp-settings';

export const McpTransport = z.enum(['streamable-http', 'sse']);
export type McpTransport = z.infer<typeof McpTransport>;

/**
 * How the gateway authenticates to the upstream: `none`; `bearer` (`Authorization: Bearer <secret>`);
 * `header` (`<header>: <secret>`); `tenant_token` (a global server where each tenant stores its own
 * token, sent as a bearer or in `header` when one is named).
 */
export const McpAuthType = z.enum(['none', 'bearer', 'header', 'tenant_token']);
export type McpAuthType = z.infer<typeof McpAuthType>;

export const McpNamespace = z
  .string()
  .regex(MCP_NAMESPACE, 'a namespace is 1–32 of a-z, 0-9 and -, starting with a letter');

/** Sealed at rest with PROVIDER_KEYS_SECRET; the associated data is sealSlots(server, tenant). */
export const SealedSecret = z.object({ ciphertext: z.string(), iv: z.string() });
export type SealedSecret = z.infer<typeof SealedSecret>;

export const McpServerRecord = z.object({
  id: z.string(),
  /** null: a global server, offered to every tenant. */
  tenantId: z.string().nullable(),
  namespace: McpNamespace,
  url: z.string(),
  transport: McpTransport,
  authType: McpAuthType,
  /** The header the secret is sent in (`header`, and `tenant_token` when not a bearer). */
  authHeader: z.string().nullable(),
  /** The server's own secret (`bearer`, `header`), or the calling tenant's token (`tenant_token`); null: none stored. */
  secret: SealedSecret.nullable(),
  /** Longest wait for one upstream answer, ms. */
  timeoutMs: z.number().int().positive(),
  enabled: z.boolean(),
});
export type McpServerRecord = z.infer<typeof McpServerRecord>;

/**
 * The associated data a server's secret is sealed under (the `tenant` and `provider` slots of
 * sealProviderKey): a sealed value copied to another server, or another tenant's token, does not open.
 */
export function sealSlots(serverId: string, tenantId: string | null): { tenant: string; provider: string } {
  return { tenant: tenantId ?? '*', provider: `mcp:${serverId}` };
}

/** Longest upstream timeout an admin may set, ms. */
export const MAX_MCP_TIMEOUT_MS = 120_000;
export const DEFAULT_MCP_TIMEOUT_MS = 30_000;
