/**
 * Tenants in D1: the admin API's repository. Tenants are disabled, never
 * deleted (keys reference them by foreign key, and logs by id).
 * An update replaces each given field as a whole; absent fields are kept. The scope fields
 * (TenantScopes: end_users, model_limits, tag_limits, tag_keys, downgrade, mcp) share one JSON column,
 * `scopes`, each replaced whole inside it by the same statement.
 */
import type { GuardrailPolicy } from '../core/guardrail-policy';
import type { TenantMcp } from '../core/mcp-settings';
import { type AlertSettings, type Budgets, type Limits, TenantScopes } from '../core/settings';
import type { OnUnsupported } from '../core/unsupported-policy';
import {
  ID_PREFIX,
  TENANT_SCOPE_FIELDS,
  Tenant,
  initialScopes,
  jsonColumn,
  scopesUpdate,
  type Metadata,
} from './entities';
import { PAGE_ORDER, afterCursor, toPage, type Page, type PageRequest } from './page';
import { randomToken } from '../util/crypto';

export interface TenantInput extends Partial<Omit<TenantScopes, 'mcp'>> {
  name: string;
  /** null: none (every tool, unmetered). */
  mcp?: TenantMcp | null;
  limits?: Limits;
  budgets?: Budgets;
  guardrails?: GuardrailPolicy;
  alerts?: AlertSettings;
  alert_webhook?: string | null;
  /** Days its stored responses are kept (0: none); null: the deployment's default. */
  responses_retention_days?: number | null;
  on_unsupported?: OnUnsupported;
  metadata?: Metadata;
}

export interface TenantPatch extends Partial<TenantInput> {
  status?: Tenant['status'];
}

export interface TenantFilter {
  status?: Tenant['status'];
  /** Only these tenants (a tenant_admin's scope); absent: all. */
  ids?: readonly string[];
}

export interface TenantStore {
  create(input: TenantInput, now: number): Promise<Tenant>;
  get(id: string): Promise<Tenant | null>;
  list(page: PageRequest, filter?: TenantFilter): Promise<Page<Tenant>>;
  /** Null when no such tenant. */
  update(id: string, patch: TenantPatch, now: number): Promise<Tenant | null>;
  /**
   * Turns end-user metering on (end_users `{limits: {}, budgets: {}}`: no default rule) when it is off;
   * the tenant when it changed it, null when it was already on or there is no such tenant.
   */
  meterEndUsers(id: string, now: number): Promise<Tenant | null>;
  /** Other tenants (not `exceptId`) with this name, ignoring case and outer spaces; at most `limit`. */
  sameName(name: string, exceptId: string | null, limit?: number): Promise<{ id: string; name: string }[]>;
}

interface TenantRow {
  id: string;
  name: string;
  status: string;
  limits: string;
  budgets: string;
  guardrails: string;
  alerts: string;
  alert_webhook: string | null;
  responses_retention_days: number | null;
  on_unsupported: string;
  scopes: string;
  metadata: string;
  created_at: number;
  updated_at: number;
}

function fromRow(row: TenantRow): Tenant {
  return Tenant.parse({
    ...row,
    limits: jsonColumn(row.limits),
    budgets: jsonColumn(row.budgets),
    guardrails: jsonColumn(row.guardrails),
    alerts: jsonColumn(row.alerts),
    ...(jsonColumn(row.scopes) as object),
    metadata: jsonColumn(row.metadata),
  });
}

export class D1TenantStore implements TenantStore {
  constructor(private readonly db: D1Database) {}

  async create(input: TenantInput, now: number): Promise<Tenant> {
    const row = await this.db
      .prepare(
        'INSERT INTO tenants (id, name, limits, budgets, guardrails, alerts, alert_webhook, responses_retention_days, on_unsupported, scopes, metadata, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *',
      )
      .bind(
        ID_PREFIX.tenant + randomToken(12),
        input.name,
        JSON.stringify(input.limits ?? {}),
        JSON.stringify(input.budgets ?? {}),
        JSON.stringify(input.guardrails ?? {}),
        JSON.stringify(input.alerts ?? {}),
        input.alert_webhook ?? null,
        input.responses_retention_days ?? null,
        input.on_unsupported ?? 'drop',
        initialScopes(TenantScopes, TENANT_SCOPE_FIELDS, input),
        JSON.stringify(input.metadata ?? {}),
        now,
        now,
      )
      .first<TenantRow>();
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    return fromRow(row);
  }

  async get(id: string): Promise<Tenant | null> {
    const row = await this.db.prepare('SELECT * FROM tenants WHERE id = ?').bind(id).first<TenantRow>();
    return row ? fromRow(row) : null;
  }

  async list(page: PageRequest, filter: TenantFilter = {}): Promise<Page<Tenant>> {
    const after = afterCursor(page.cursor);
    const status = filter.status ? ' AND status = ?' : '';
    const ids = filter.ids ? ' AND id IN (SELECT value FROM json_each(?))' : '';
    const { results } = await this.db
      .prepare(`SELECT * FROM tenants WHERE ${after.sql}${status}${ids} ${PAGE_ORDER} LIMIT ?`)
      .bind(
        ...after.binds,
        ...(filter.status ? [filter.status] : []),
        ...(filter.ids ? [JSON.stringify(filter.ids)] : []),
        page.limit + 1,
      )
      .all<TenantRow>();
    return toPage(results, page.limit, fromRow);
  }

  async update(id: string, patch: TenantPatch, now: number): Promise<Tenant | null> {
    const sets: string[] = ['updated_at = ?'];
    const binds: (string | number | null)[] = [now];
    const set = (column: string, value: string | number | null) => {
      sets.push(`${column} = ?`);
      binds.push(value);
    };
    if (patch.name !== undefined) set('name', patch.name);
    if (patch.status !== undefined) set('status', patch.status);
    if (patch.limits !== undefined) set('limits', JSON.stringify(patch.limits));
    if (patch.budgets !== undefined) set('budgets', JSON.stringify(patch.budgets));
    if (patch.guardrails !== undefined) set('guardrails', JSON.stringify(patch.guardrails));
    if (patch.alerts !== undefined) set('alerts', JSON.stringify(patch.alerts));
    if (patch.alert_webhook !== undefined) set('alert_webhook', patch.alert_webhook);
    if (patch.responses_retention_days !== undefined)
      set('responses_retention_days', patch.responses_retention_days);
    if (patch.on_unsupported !== undefined) set('on_unsupported', patch.on_unsupported);
    if (patch.metadata !== undefined) set('metadata', JSON.stringify(patch.metadata));
    const scopes = scopesUpdate(TenantScopes, TENANT_SCOPE_FIELDS, patch);
    if (scopes) {
      sets.push(scopes.sql);
      binds.push(...scopes.binds);
    }
    const row = await this.db
      .prepare(`UPDATE tenants SET ${sets.join(', ')} WHERE id = ? RETURNING *`)
      .bind(...binds, id)
      .first<TenantRow>();
    return row ? fromRow(row) : null;
  }

  async sameName(name: string, exceptId: string | null, limit = 5): Promise<{ id: string; name: string }[]> {
    const { results } = await this.db
      .prepare(
        'SELECT id, name FROM tenants WHERE lower(trim(name)) = lower(trim(?)) AND id <> ? ORDER BY created_at LIMIT ?',
      )
      .bind(name, exceptId ?? '', limit)
      .all<{ id: string; name: string }>();
    return results;
  }

  async meterEndUsers(id: string, now: number): Promise<Tenant | null> {
    const row = await this.db
      .prepare(
        `UPDATE tenants SET scopes = json_set(scopes, '$.end_users', json('{"limits":{},"budgets":{}}')), updated_at = ?
         WHERE id = ? AND COALESCE(json_type(scopes, '$.end_users'), 'null') = 'null' RETURNING *`,
      )
      .bind(now, id)
      .first<TenantRow>();
    return row ? fromRow(row) : null;
  }
}
