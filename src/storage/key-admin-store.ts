/**
 * Gateway keys in D1: the admin API's repository (the hot path reads through
 * d1-keys.ts and the KeyStore caches instead).
 *
 * Secrets are generated here, returned once to the caller and stored only as
 * SHA-256 hex. Every write returns the hashes whose cached records it made
 * stale, so the caller can invalidate them; hashes never leave the admin layer.
 * Rotation keeps the replaced hash in previous_hash until previous_expires_at
 * (the grace period); a second rotation ends the first one's grace at once.
 * The scope fields (KeyScopes: model_limits, downgrade, mcp) share the JSON column `scopes`.
 * (Some 200 lines: the port, the row shape and its one adapter belong together.)
 */
import {
  ApiKey,
  ID_PREFIX,
  KEY_SCOPE_FIELDS,
  initialScopes,
  jsonColumn,
  scopesUpdate,
  type Metadata,
} from './entities';
import { KEY_PREFIX } from '../core/key-record';
import { PAGE_ORDER, afterCursor, toPage, type Page, type PageRequest } from './page';
import type { GuardrailPolicy } from '../core/guardrail-policy';
import type { KeyMcp } from '../core/mcp-settings';
import {
  type AlertSettings,
  type Budgets,
  type CacheSettings,
  KeyScopes,
  type Limits,
} from '../core/settings';
import type { OnUnsupported } from '../core/unsupported-policy';
import { randomToken, sha256Hex } from '../util/crypto';

export interface KeyInput extends Partial<Omit<KeyScopes, 'mcp'>> {
  tenant_id: string;
  /** null: none (the tenant's settings alone). */
  mcp?: KeyMcp | null;
  name?: string;
  models?: string[] | null;
  limits?: Limits;
  budgets?: Budgets;
  cache?: CacheSettings;
  guardrails?: GuardrailPolicy;
  origins?: string[];
  alerts?: AlertSettings;
  on_unsupported?: OnUnsupported;
  log_payload?: boolean;
  metadata?: Metadata;
  expires_at?: number | null;
}

export type KeyPatch = Partial<Omit<KeyInput, 'tenant_id'>>;

/** Restricts a lookup to one tenant's keys; a key of another tenant is then "not found". */
export interface KeyScope {
  tenantId?: string;
}

export interface KeyFilter {
  status?: ApiKey['status'];
}

export interface StoredKey {
  key: ApiKey;
  /** Hashes whose cached lookups this write made stale. */
  staleHashes: string[];
}

export interface IssuedKey extends StoredKey {
  /** The secret: shown to the admin once, never stored. */
  secret: string;
}

export interface KeyAdminStore {
  create(input: KeyInput, now: number): Promise<IssuedKey>;
  get(id: string, scope?: KeyScope): Promise<ApiKey | null>;
  listByTenant(tenantId: string, page: PageRequest, filter?: KeyFilter): Promise<Page<ApiKey>>;
  update(id: string, patch: KeyPatch, now: number, scope?: KeyScope): Promise<StoredKey | null>;
  /** Null when no such active key (unknown, revoked, or changed concurrently). */
  rotate(id: string, graceMs: number, now: number, scope?: KeyScope): Promise<IssuedKey | null>;
  revoke(id: string, now: number, scope?: KeyScope): Promise<StoredKey | null>;
  /** Every hash (current and in grace) of a tenant's keys, to invalidate after a tenant change. */
  tenantHashes(tenantId: string): Promise<string[]>;
}

interface KeyRow {
  id: string;
  tenant_id: string;
  name: string;
  key_hash: string;
  hint: string;
  status: string;
  models: string | null;
  limits: string;
  budgets: string;
  cache: string;
  guardrails: string;
  origins: string;
  alerts: string;
  on_unsupported: string;
  scopes: string;
  log_payload: number;
  metadata: string;
  expires_at: number | null;
  created_at: number;
  updated_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  previous_hash: string | null;
  previous_expires_at: number | null;
}

function fromRow(row: KeyRow): ApiKey {
  return ApiKey.parse({
    id: row.id,
    tenant_id: row.tenant_id,
    name: row.name,
    hint: row.hint,
    status: row.status,
    models: jsonColumn(row.models),
    limits: jsonColumn(row.limits),
    budgets: jsonColumn(row.budgets),
    cache: jsonColumn(row.cache),
    guardrails: jsonColumn(row.guardrails),
    origins: jsonColumn(row.origins),
    alerts: jsonColumn(row.alerts),
    on_unsupported: row.on_unsupported,
    ...(jsonColumn(row.scopes) as object),
    log_payload: row.log_payload === 1,
    metadata: jsonColumn(row.metadata),
    expires_at: row.expires_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
    grace_expires_at: row.previous_hash === null ? null : row.previous_expires_at,
  });
}

const hashesOf = (row: KeyRow) => [row.key_hash, ...(row.previous_hash ? [row.previous_hash] : [])];

async function newSecret(): Promise<{ secret: string; hash: string; hint: string }> {
  const secret = KEY_PREFIX + randomToken(32);
  return { secret, hash: await sha256Hex(secret), hint: `${KEY_PREFIX}…${secret.slice(-4)}` };
}

/** The columns an update sets, each value encoded as stored; absent fields are kept. */
function patchColumns(patch: KeyPatch): [string, string | number | null][] {
  const json = (v: unknown) => JSON.stringify(v);
  const columns: [string, string | number | null | undefined][] = [
    ['name', patch.name],
    ['models', patch.models === undefined ? undefined : patch.models === null ? null : json(patch.models)],
    ['limits', patch.limits && json(patch.limits)],
    ['budgets', patch.budgets && json(patch.budgets)],
    ['cache', patch.cache && json(patch.cache)],
    ['guardrails', patch.guardrails && json(patch.guardrails)],
    ['origins', patch.origins && json(patch.origins)],
    ['alerts', patch.alerts && json(patch.alerts)],
    ['on_unsupported', patch.on_unsupported],
    ['log_payload', patch.log_payload === undefined ? undefined : patch.log_payload ? 1 : 0],
    ['metadata', patch.metadata && json(patch.metadata)],
    ['expires_at', patch.expires_at],
  ];
  return columns.filter((c): c is [string, string | number | null] => c[1] !== undefined);
}

export class D1KeyAdminStore implements KeyAdminStore {
  constructor(private readonly db: D1Database) {}

  async create(input: KeyInput, now: number): Promise<IssuedKey> {
    const { secret, hash, hint } = await newSecret();
    const row = await this.db
      .prepare(`INSERT INTO api_keys (id, tenant_id, name, key_hash, hint, models, limits, budgets, cache, guardrails, origins, alerts, on_unsupported, scopes, log_payload, metadata, expires_at, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`)
      .bind(
        ID_PREFIX.key + randomToken(12),
        input.tenant_id,
        input.name ?? '',
        hash,
        hint,
        input.models ? JSON.stringify(input.models) : null,
        JSON.stringify(input.limits ?? {}),
        JSON.stringify(input.budgets ?? {}),
        JSON.stringify(input.cache ?? {}),
        JSON.stringify(input.guardrails ?? {}),
        JSON.stringify(input.origins ?? []),
        JSON.stringify(input.alerts ?? {}),
        input.on_unsupported ?? 'drop',
        initialScopes(KeyScopes, KEY_SCOPE_FIELDS, input),
        input.log_payload ? 1 : 0,
        JSON.stringify(input.metadata ?? {}),
        input.expires_at ?? null,
        now,
        now,
      )
      .first<KeyRow>();
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    // The new hash may sit in a negative cache if someone guessed it; harmless to clear.
    return { key: fromRow(row), secret, staleHashes: [hash] };
  }

  async get(id: string, scope: KeyScope = {}): Promise<ApiKey | null> {
    const row = await this.row(id, scope);
    return row ? fromRow(row) : null;
  }

  async listByTenant(tenantId: string, page: PageRequest, filter: KeyFilter = {}): Promise<Page<ApiKey>> {
    const after = afterCursor(page.cursor);
    const status = filter.status ? ' AND status = ?' : '';
    const { results } = await this.db
      .prepare(`SELECT * FROM api_keys WHERE tenant_id = ? AND ${after.sql}${status} ${PAGE_ORDER} LIMIT ?`)
      .bind(tenantId, ...after.binds, ...(filter.status ? [filter.status] : []), page.limit + 1)
      .all<KeyRow>();
    return toPage(results, page.limit, fromRow);
  }

  async update(id: string, patch: KeyPatch, now: number, scope: KeyScope = {}): Promise<StoredKey | null> {
    const columns = patchColumns(patch);
    const scopes = scopesUpdate(KeyScopes, KEY_SCOPE_FIELDS, patch);
    const sets = [
      'updated_at = ?',
      ...columns.map(([column]) => `${column} = ?`),
      ...(scopes ? [scopes.sql] : []),
    ];
    const binds = [now, ...columns.map(([, value]) => value), ...(scopes?.binds ?? [])];
    const where = scoped(id, scope);
    const row = await this.db
      .prepare(`UPDATE api_keys SET ${sets.join(', ')} WHERE ${where.sql} RETURNING *`)
      .bind(...binds, ...where.binds)
      .first<KeyRow>();
    return row ? { key: fromRow(row), staleHashes: hashesOf(row) } : null;
  }

  async rotate(id: string, graceMs: number, now: number, scope: KeyScope = {}): Promise<IssuedKey | null> {
    const old = await this.row(id, scope);
    if (old?.status !== 'active') return null;
    const { secret, hash, hint } = await newSecret();
    const grace = graceMs > 0;
    // Matching on the old hash makes two concurrent rotations fail one of them instead of losing a secret.
    const row = await this.db
      .prepare(`UPDATE api_keys SET key_hash = ?, hint = ?, previous_hash = ?, previous_expires_at = ?, updated_at = ?
        WHERE id = ? AND key_hash = ? AND status = 'active' RETURNING *`)
      .bind(hash, hint, grace ? old.key_hash : null, grace ? now + graceMs : null, now, id, old.key_hash)
      .first<KeyRow>();
    return row ? { key: fromRow(row), secret, staleHashes: [...hashesOf(old), hash] } : null;
  }

  async revoke(id: string, now: number, scope: KeyScope = {}): Promise<StoredKey | null> {
    const where = scoped(id, scope);
    const row = await this.db
      .prepare(
        `UPDATE api_keys SET status = 'revoked', revoked_at = COALESCE(revoked_at, ?), updated_at = ? WHERE ${where.sql} RETURNING *`,
      )
      .bind(now, now, ...where.binds)
      .first<KeyRow>();
    return row ? { key: fromRow(row), staleHashes: hashesOf(row) } : null;
  }

  async tenantHashes(tenantId: string): Promise<string[]> {
    const { results } = await this.db
      .prepare('SELECT key_hash, previous_hash FROM api_keys WHERE tenant_id = ?')
      .bind(tenantId)
      .all<Pick<KeyRow, 'key_hash' | 'previous_hash'>>();
    return results.flatMap((r) => [r.key_hash, ...(r.previous_hash ? [r.previous_hash] : [])]);
  }

  private row(id: string, scope: KeyScope): Promise<KeyRow | null> {
    const where = scoped(id, scope);
    return this.db
      .prepare(`SELECT * FROM api_keys WHERE ${where.sql}`)
      .bind(...where.binds)
      .first<KeyRow>();
  }
}

function scoped(id: string, scope: KeyScope): { sql: string; binds: string[] } {
  return scope.tenantId === undefined
    ? { sql: 'id = ?', binds: [id] }
    : { sql: 'id = ? AND tenant_id = ?', binds: [id, scope.tenantId] };
}
