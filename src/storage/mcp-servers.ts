/**
 * Registered upstream MCP servers and tenants' tokens for them, in D1: the admin API's repository
 * (the /mcp endpoint reads through src/storage/mcp-catalog.ts instead). Secrets arrive sealed
 * (src/util/provider-key-crypto.ts, under sealSlots of src/core/mcp-server.ts) with their hint; no
 * answer built here carries more than the hint. A namespace is unique within each tenant's view (its own
 * servers and the global ones): the check sits in the writing statement itself, so two racing writes
 * cannot both take one. Audit rows come from the triggers of migration 0021.
 * (Some 290 lines: the answer's shape, the row and its one adapter belong together.)
 */
import * as z from 'zod';
import { McpAuthType, McpTransport, type SealedSecret } from '../core/mcp-server';
import { Timestamp } from './entities';

export const McpServerTokenInfo = z.object({
  server_id: z.string(),
  tenant_id: z.string(),
  hint: z
    .string()
    .describe('First 3 and last 4 characters of the token (last 2 for short ones); safe to show.'),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type McpServerTokenInfo = z.infer<typeof McpServerTokenInfo>;

/** A server as the admin API answers it: never a secret, only its hint. */
export const McpServer = z.object({
  id: z.string(),
  object: z.literal('mcp_server'),
  scope: z
    .enum(['global', 'tenant'])
    .describe("global: offered to every tenant; tenant: the tenant_id's own."),
  tenant_id: z.string().nullable(),
  namespace: z.string().describe('Its tools are listed as <namespace>__<tool>.'),
  url: z.string(),
  transport: McpTransport,
  description: z.string(),
  auth: z.object({
    type: McpAuthType,
    header: z.string().nullable().describe('The header the secret is sent in; null: a bearer.'),
    hint: z.string().nullable().describe("The stored secret's hint; null: none stored."),
  }),
  timeout_ms: z.number().int(),
  enabled: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
  token: z
    .object({ hint: z.string(), updated_at: Timestamp })
    .nullable()
    .optional()
    .describe(
      "In a tenant's listing: the tenant's own token for a global tenant_token server (null: none set, or not such a server).",
    ),
});
export type McpServer = z.infer<typeof McpServer>;

/** Every stored field of a server but its id, tenant and times: what a create or update writes. */
export interface McpServerFields {
  namespace: string;
  url: string;
  transport: McpTransport;
  description: string;
  authType: McpAuthType;
  authHeader: string | null;
  /** The sealed secret and its hint (`bearer`, `header`); null for the others. */
  secret: { sealed: SealedSecret; hint: string } | null;
  timeoutMs: number;
  enabled: boolean;
}

/** A stored server: its answer and what an update needs to keep (the sealed secret). */
export interface StoredMcpServer {
  view: McpServer;
  fields: McpServerFields;
}

interface Row {
  id: string;
  tenant_id: string | null;
  namespace: string;
  url: string;
  transport: string;
  description: string;
  auth_type: string;
  auth_header: string | null;
  ciphertext: string | null;
  iv: string | null;
  hint: string | null;
  timeout_ms: number;
  enabled: number;
  created_at: number;
  updated_at: number;
  token_hint?: string | null;
  token_updated_at?: number | null;
}

function fromRow(row: Row, tenantView: boolean): StoredMcpServer {
  const transport = McpTransport.parse(row.transport);
  const authType = McpAuthType.parse(row.auth_type);
  const secret =
    row.ciphertext !== null && row.iv !== null && row.hint !== null
      ? { sealed: { ciphertext: row.ciphertext, iv: row.iv }, hint: row.hint }
      : null;
  const token =
    row.token_hint != null && row.token_updated_at != null
      ? { hint: row.token_hint, updated_at: row.token_updated_at }
      : null;
  const view: McpServer = {
    id: row.id,
    object: 'mcp_server',
    scope: row.tenant_id === null ? 'global' : 'tenant',
    tenant_id: row.tenant_id,
    namespace: row.namespace,
    url: row.url,
    transport,
    description: row.description,
    auth: { type: authType, header: row.auth_header, hint: secret?.hint ?? null },
    timeout_ms: row.timeout_ms,
    enabled: row.enabled === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(tenantView ? { token } : {}),
  };
  const fields: McpServerFields = {
    namespace: row.namespace,
    url: row.url,
    transport,
    description: row.description,
    authType,
    authHeader: row.auth_header,
    secret,
    timeoutMs: row.timeout_ms,
    enabled: row.enabled === 1,
  };
  return { view, fields };
}

/** Another server in the same view already uses the namespace: the write did not happen. */
export const NAMESPACE_TAKEN = 'namespace_taken' as const;

/**
 * A server that would share a namespace with `?ns` in some tenant's view: any server when the one
 * written (`?tenant`) is global, else a global one or one of the same tenant. `?self` is excluded.
 */
const CONFLICT = `EXISTS (SELECT 1 FROM mcp_servers o WHERE o.namespace = ?3 AND o.id <> ?1
  AND (?2 IS NULL OR o.tenant_id IS NULL OR o.tenant_id = ?2))`;

const TOKEN_COLUMNS = 'server_id, tenant_id, hint, created_at, updated_at';

export class D1McpServerStore {
  constructor(private readonly db: D1Database) {}

  /** The global servers (tenantId null), or a tenant's view: the global ones with its token, then its own. */
  async list(tenantId: string | null): Promise<McpServer[]> {
    const statement =
      tenantId === null
        ? this.db.prepare('SELECT * FROM mcp_servers WHERE tenant_id IS NULL ORDER BY namespace')
        : this.db
            .prepare(
              `SELECT s.*, t.hint AS token_hint, t.updated_at AS token_updated_at FROM mcp_servers s
               LEFT JOIN mcp_server_tokens t ON t.server_id = s.id AND t.tenant_id = ?1
               WHERE s.tenant_id IS NULL OR s.tenant_id = ?1
               ORDER BY s.tenant_id IS NOT NULL, s.namespace`,
            )
            .bind(tenantId);
    const { results } = await statement.all<Row>();
    return results.map((row) => fromRow(row, tenantId !== null).view);
  }

  /** One server as seen globally (viewer null) or in a tenant's view (with that tenant's token). */
  async get(id: string, viewer: string | null): Promise<StoredMcpServer | null> {
    const row = await this.db
      .prepare(
        `SELECT s.*, t.hint AS token_hint, t.updated_at AS token_updated_at FROM mcp_servers s
         LEFT JOIN mcp_server_tokens t ON t.server_id = s.id AND t.tenant_id = ?2
         WHERE s.id = ?1`,
      )
      .bind(id, viewer)
      .first<Row>();
    return row ? fromRow(row, viewer !== null) : null;
  }

  async create(
    id: string,
    tenantId: string | null,
    fields: McpServerFields,
    now: number,
  ): Promise<McpServer | typeof NAMESPACE_TAKEN> {
    const row = await this.db
      .prepare(
        `INSERT INTO mcp_servers (id, tenant_id, namespace, url, transport, description, auth_type, auth_header,
           ciphertext, iv, hint, timeout_ms, enabled, created_at, updated_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?14
         WHERE NOT ${CONFLICT}
         RETURNING *`,
      )
      .bind(id, tenantId, ...columns(fields), now)
      .first<Row>();
    return row ? fromRow(row, false).view : NAMESPACE_TAKEN;
  }

  /**
   * Writes every field (the caller merged its patch into the stored ones); null when there is no such
   * server. A server that stops being `tenant_token` loses the tenants' tokens in the same transaction.
   */
  async update(
    id: string,
    tenantId: string | null,
    fields: McpServerFields,
    now: number,
  ): Promise<McpServer | typeof NAMESPACE_TAKEN | null> {
    const [updated] = await this.db.batch<Row>([
      this.db
        .prepare(
          `UPDATE mcp_servers SET namespace = ?3, url = ?4, transport = ?5, description = ?6, auth_type = ?7,
             auth_header = ?8, ciphertext = ?9, iv = ?10, hint = ?11, timeout_ms = ?12, enabled = ?13, updated_at = ?14
           WHERE id = ?1 AND tenant_id IS ?2 AND NOT ${CONFLICT}
           RETURNING *`,
        )
        .bind(id, tenantId, ...columns(fields), now),
      this.db
        .prepare(
          `DELETE FROM mcp_server_tokens WHERE server_id = ?1
           AND (SELECT auth_type FROM mcp_servers WHERE id = ?1) <> 'tenant_token'`,
        )
        .bind(id),
    ]);
    const row = updated?.results[0];
    if (row) return fromRow(row, false).view;
    return (await this.get(id, null)) ? NAMESPACE_TAKEN : null;
  }

  /** False when there was no such server (of that tenant; null: global). */
  async delete(id: string, tenantId: string | null): Promise<boolean> {
    const result = await this.db
      .prepare('DELETE FROM mcp_servers WHERE id = ? AND tenant_id IS ?')
      .bind(id, tenantId)
      .run();
    return result.meta.changes > 0;
  }

  /** Stores or replaces a tenant's token for a server; created is true when it had none (201). */
  async putToken(
    serverId: string,
    tenantId: string,
    sealed: SealedSecret,
    hint: string,
    now: number,
  ): Promise<{ info: McpServerTokenInfo; created: boolean }> {
    const [before, after] = await this.db.batch<{ n?: number } & Partial<McpServerTokenInfo>>([
      this.db
        .prepare('SELECT COUNT(*) AS n FROM mcp_server_tokens WHERE server_id = ? AND tenant_id = ?')
        .bind(serverId, tenantId),
      this.db
        .prepare(
          `INSERT INTO mcp_server_tokens (server_id, tenant_id, ciphertext, iv, hint, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (server_id, tenant_id) DO UPDATE SET
             ciphertext = excluded.ciphertext, iv = excluded.iv, hint = excluded.hint, updated_at = excluded.updated_at
           RETURNING ${TOKEN_COLUMNS}`,
        )
        .bind(serverId, tenantId, sealed.ciphertext, sealed.iv, hint, now, now),
    ]);
    const row = after?.results[0];
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    return { info: McpServerTokenInfo.parse(row), created: before?.results[0]?.n === 0 };
  }

  /** False when the tenant had no token for the server. */
  async deleteToken(serverId: string, tenantId: string): Promise<boolean> {
    const result = await this.db
      .prepare('DELETE FROM mcp_server_tokens WHERE server_id = ? AND tenant_id = ?')
      .bind(serverId, tenantId)
      .run();
    return result.meta.changes > 0;
  }
}

/** The bind values ?3 … ?13 of the writing statements. */
function columns(f: McpServerFields): (string | number | null)[] {
  return [
    f.namespace,
    f.url,
    f.transport,
    f.description,
    f.authType,
    f.authHeader,
    f.secret?.sealed.ciphertext ?? null,
    f.secret?.sealed.iv ?? null,
    f.secret?.hint ?? null,
    f.timeoutMs,
    f.enabled ? 1 : 0,
  ];
}
