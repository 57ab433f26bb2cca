/**
 * Reads key records from D1, the source of truth behind the KeyStore's caches:
 * the key joined with its tenant, every JSON column validated into a KeyRecord.
 *
 * Rotation grace: a hash that matches a key's previous_hash yields the same key
 * with its expiry clamped to the end of the grace period, so the record stays
 * correct however long the caches keep it, and checkKey refuses it on time
 * without this loader needing a clock. A key whose tenant row is missing cannot
 * exist (foreign key), and would be refused as unknown.
 *
 * The key's and the tenant's scopes (end users, model and tag rules, downgrades) are one JSON column
 * each, parsed by KeyScopes / TenantScopes like every other column.
 *
 * The tenant's own provider keys (BYOK) come in the same query, still sealed,
 * as one JSON object built by SQLite: the record and its caches carry them, so
 * no request reads D1 for them (src/providers/tenant-key.ts opens them).
 */
import { jsonColumn } from './entities';
import { KeyRecord } from '../core/key-record';
import type { KeyLoader } from './key-store';

interface KeyRow {
  id: string;
  tenant_id: string;
  key_hash: string;
  status: string;
  models: string | null;
  expires_at: number | null;
  limits: string;
  budgets: string;
  cache: string;
  guardrails: string;
  origins: string;
  log_payload: number;
  previous_expires_at: number | null;
  tenant_status: string;
  tenant_limits: string;
  tenant_budgets: string;
  tenant_guardrails: string;
  alerts: string;
  tenant_alerts: string;
  on_unsupported: string;
  tenant_on_unsupported: string;
  scopes: string;
  tenant_scopes: string;
  provider_keys: string;
  tenant_responses_retention_days: number | null;
}

const SELECT = `
  SELECT k.id, k.tenant_id, k.key_hash, k.status, k.models, k.expires_at, k.limits, k.budgets, k.cache, k.guardrails,
         k.origins, k.log_payload, k.previous_expires_at, t.status AS tenant_status, t.limits AS tenant_limits,
         t.budgets AS tenant_budgets, t.guardrails AS tenant_guardrails, k.alerts, t.alerts AS tenant_alerts,
         t.responses_retention_days AS tenant_responses_retention_days,
         k.on_unsupported, t.on_unsupported AS tenant_on_unsupported, k.scopes, t.scopes AS tenant_scopes,
         (SELECT json_group_object(p.provider, json_object('ciphertext', p.ciphertext, 'iv', p.iv))
            FROM tenant_provider_keys p WHERE p.tenant_id = k.tenant_id) AS provider_keys
  FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
  WHERE k.key_hash = ?1 OR k.previous_hash = ?1
  LIMIT 1`;

export function d1KeyLoader(db: D1Database): KeyLoader {
  return async (hash) => {
    const row = await db.prepare(SELECT).bind(hash).first<KeyRow>();
    if (!row) return null;
    const inGrace = row.key_hash !== hash;
    return KeyRecord.parse({
      id: row.id,
      tenantId: row.tenant_id,
      status: row.status,
      models: jsonColumn(row.models),
      expiresAt: inGrace ? earliest(row.expires_at, row.previous_expires_at ?? 0) : row.expires_at,
      tenantStatus: row.tenant_status,
      limits: jsonColumn(row.limits),
      budgets: jsonColumn(row.budgets),
      tenantLimits: jsonColumn(row.tenant_limits),
      tenantBudgets: jsonColumn(row.tenant_budgets),
      cache: jsonColumn(row.cache),
      guardrails: jsonColumn(row.guardrails),
      tenantGuardrails: jsonColumn(row.tenant_guardrails),
      origins: jsonColumn(row.origins),
      alerts: jsonColumn(row.alerts),
      tenantAlerts: jsonColumn(row.tenant_alerts),
      tenantResponsesRetentionDays: row.tenant_responses_retention_days,
      onUnsupported: row.on_unsupported,
      tenantOnUnsupported: row.tenant_on_unsupported,
      scopes: jsonColumn(row.scopes),
      tenantScopes: jsonColumn(row.tenant_scopes),
      logPayload: row.log_payload === 1,
      providerKeys: jsonColumn(row.provider_keys),
    });
  };
}

function earliest(a: number | null, b: number): number {
  return a === null ? b : Math.min(a, b);
}
