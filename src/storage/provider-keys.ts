/**
 * Tenants' own provider keys (BYOK) in D1: the admin API's repository. Rows
 * hold only the sealed key (src/util/provider-key-crypto.ts) and its hint;
 * the hot path never reads this table directly, it gets the sealed keys with
 * the key record (src/storage/d1-keys.ts).
 */
import * as z from 'zod';
import type { SealedKey } from '../util/provider-key-crypto';
import { Timestamp } from './entities';

export const ProviderKeyInfo = z.object({
  provider: z.string(),
  hint: z
    .string()
    .describe('First 3 and last 4 characters of the key (last 2 for short keys); safe to show.'),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type ProviderKeyInfo = z.infer<typeof ProviderKeyInfo>;

export interface SavedProviderKey {
  info: ProviderKeyInfo;
  /** True when the tenant had no key for this provider before (201), false when it was replaced (200). */
  created: boolean;
}

export interface ProviderKeyStore {
  /** The tenant's keys, by provider id. */
  list(tenantId: string): Promise<ProviderKeyInfo[]>;
  /** Stores or replaces the tenant's key for a provider. */
  put(
    tenantId: string,
    provider: string,
    sealed: SealedKey,
    hint: string,
    now: number,
  ): Promise<SavedProviderKey>;
  /** False when the tenant had no key for that provider. */
  delete(tenantId: string, provider: string): Promise<boolean>;
  /** How many tenants hold a key of their own, by provider id. */
  tenantsByProvider(): Promise<Record<string, number>>;
}

interface InfoRow {
  provider: string;
  hint: string;
  created_at: number;
  updated_at: number;
}

const INFO_COLUMNS = 'provider, hint, created_at, updated_at';

export class D1ProviderKeyStore implements ProviderKeyStore {
  constructor(private readonly db: D1Database) {}

  async list(tenantId: string): Promise<ProviderKeyInfo[]> {
    const { results } = await this.db
      .prepare(`SELECT ${INFO_COLUMNS} FROM tenant_provider_keys WHERE tenant_id = ? ORDER BY provider`)
      .bind(tenantId)
      .all<InfoRow>();
    return results.map((row) => ProviderKeyInfo.parse(row));
  }

  async put(
    tenantId: string,
    provider: string,
    sealed: SealedKey,
    hint: string,
    now: number,
  ): Promise<SavedProviderKey> {
    // One batch is one transaction: whether a row existed is read in the same breath as the write.
    const [before, after] = await this.db.batch<{ n?: number } & Partial<InfoRow>>([
      this.db
        .prepare('SELECT COUNT(*) AS n FROM tenant_provider_keys WHERE tenant_id = ? AND provider = ?')
        .bind(tenantId, provider),
      this.db
        .prepare(
          `INSERT INTO tenant_provider_keys (tenant_id, provider, ciphertext, iv, hint, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (tenant_id, provider) DO UPDATE SET
             ciphertext = excluded.ciphertext, iv = excluded.iv, hint = excluded.hint, updated_at = excluded.updated_at
           RETURNING ${INFO_COLUMNS}`,
        )
        .bind(tenantId, provider, sealed.ciphertext, sealed.iv, hint, now, now),
    ]);
    const row = after?.results[0];
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    return { info: ProviderKeyInfo.parse(row), created: before?.results[0]?.n === 0 };
  }

  async tenantsByProvider(): Promise<Record<string, number>> {
    const { results } = await this.db
      .prepare('SELECT provider, COUNT(*) AS n FROM tenant_provider_keys GROUP BY provider')
      .all<{ provider: string; n: number }>();
    return Object.fromEntries(results.map((r) => [r.provider, r.n]));
  }

  async delete(tenantId: string, provider: string): Promise<boolean> {
    const result = await this.db
      .prepare('DELETE FROM tenant_provider_keys WHERE tenant_id = ? AND provider = ?')
      .bind(tenantId, provider)
      .run();
    return result.meta.changes > 0;
  }
}
