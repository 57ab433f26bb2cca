/** Reads key records from D1, the source of truth behind the KeyStore's caches. */
import { KeyRecord } from './key-record';
import type { KeyLoader } from './key-store';

interface KeyRow {
  id: string;
  tenant_id: string;
  status: string;
  models: string | null;
  expires_at: number | null;
}

export function d1KeyLoader(db: D1Database): KeyLoader {
  return async (hash) => {
    const row = await db
      .prepare('SELECT id, tenant_id, status, models, expires_at FROM api_keys WHERE key_hash = ?')
      .bind(hash)
      .first<KeyRow>();
    if (!row) return null;
    return KeyRecord.parse({
      id: row.id,
      tenantId: row.tenant_id,
      status: row.status,
      models: row.models === null ? null : JSON.parse(row.models),
      expiresAt: row.expires_at,
    });
  };
}
