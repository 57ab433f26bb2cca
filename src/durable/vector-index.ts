/**
 * The local vector index: one SQLite-backed Durable Object per tenant (named
 * by tenant id), so one tenant's vectors are not even in the same database as
 * another's. Stands in for Vectorize where it is absent (dev, tests, offline
 * deployments) and is exact where Vectorize is approximate.
 *
 * - Vectors are unit float32, stored as BLOBs; a query is brute-force cosine
 *   (a dot product) over the rows of one params hash. Rows of another length
 *   (another embedder) are skipped, never compared.
 * - Bounds: at most MAX_ROWS_PER_SCOPE rows per params hash and
 *   MAX_ROWS_PER_TENANT in all; past either, the oldest written rows are
 *   evicted. A lookup therefore reads at most MAX_ROWS_PER_SCOPE vectors.
 * - Expiry: queries ignore rows whose expires_at <= the caller's `now`;
 *   writes prune expired rows lazily, and an alarm prunes idle objects, so
 *   storage shrinks back to nothing when a tenant stops using the cache.
 */
import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../env';
import {
  type IndexMatch,
  MAX_ROWS_PER_SCOPE,
  MAX_ROWS_PER_TENANT,
  MAX_TOP_K,
  MAX_UPSERT_BATCH,
  type StoredVector,
  type VectorIndexRpc,
} from '../storage/vector-index-protocol';
import { dot } from '../util/vectors';

const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
/** Expired rows deleted per write; the alarm sweeps the rest. */
const PRUNE_ON_WRITE = 100;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS vectors (
    id TEXT PRIMARY KEY,
    params_hash TEXT NOT NULL,
    cache_key TEXT NOT NULL,
    vector BLOB NOT NULL,
    expires_at INTEGER NOT NULL,
    written_at INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS vectors_by_scope ON vectors (params_hash, written_at);
  CREATE INDEX IF NOT EXISTS vectors_by_expiry ON vectors (expires_at);
`;

/** Its calls are the protocol's (src/storage/vector-index-protocol.ts); the adapter is src/storage/durable-vector-index.ts. */
export class VectorIndexDO extends DurableObject<Bindings> implements VectorIndexRpc {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(SCHEMA);
  }

  /** The topK best live rows of one params hash, best first. */
  query(vector: Float32Array, paramsHash: string, topK: number, now: number): IndexMatch[] {
    const k = Math.max(1, Math.min(MAX_TOP_K, Math.floor(topK)));
    const best: IndexMatch[] = [];
    const rows = this.sql.exec<{ id: string; cache_key: string; vector: ArrayBuffer }>(
      'SELECT id, cache_key, vector FROM vectors WHERE params_hash = ? AND expires_at > ?',
      paramsHash,
      now,
    );
    for (const row of rows) {
      const stored = new Float32Array(row.vector);
      if (stored.length !== vector.length) continue;
      const score = dot(vector, stored);
      if (best.length === k && score <= (best[k - 1] as IndexMatch).score) continue;
      best.push({ id: row.id, score, cacheKey: row.cache_key });
      best.sort((a, b) => b.score - a.score);
      if (best.length > k) best.pop();
    }
    return best;
  }

  /** Inserts or replaces rows by id, then enforces the bounds. */
  async upsert(items: readonly StoredVector[]): Promise<{ evicted: number }> {
    if (items.length > MAX_UPSERT_BATCH)
      throw new RangeError(`at most ${MAX_UPSERT_BATCH} vectors per upsert`);
    const now = Date.now();
    const scopes = new Set<string>();
    for (const item of items) {
      const blob = item.vector.buffer.slice(
        item.vector.byteOffset,
        item.vector.byteOffset + item.vector.byteLength,
      );
      this.sql.exec(
        'INSERT OR REPLACE INTO vectors (id, params_hash, cache_key, vector, expires_at, written_at) VALUES (?, ?, ?, ?, ?, ?)',
        item.id,
        item.paramsHash,
        item.cacheKey,
        blob,
        item.expiresAt,
        now,
      );
      scopes.add(item.paramsHash);
    }
    this.sql.exec(
      'DELETE FROM vectors WHERE id IN (SELECT id FROM vectors WHERE expires_at <= ? LIMIT ?)',
      now,
      PRUNE_ON_WRITE,
    );
    let evicted = 0;
    for (const scope of scopes) {
      evicted += this.evictOldest('WHERE params_hash = ?', [scope], MAX_ROWS_PER_SCOPE);
    }
    evicted += this.evictOldest('', [], MAX_ROWS_PER_TENANT);
    if ((await this.ctx.storage.getAlarm()) === null)
      await this.ctx.storage.setAlarm(now + PRUNE_INTERVAL_MS);
    return { evicted };
  }

  /** Row count (for the tests and the dashboard). */
  count(): number {
    return this.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM vectors').one().n;
  }

  override async alarm(): Promise<void> {
    this.sql.exec('DELETE FROM vectors WHERE expires_at <= ?', Date.now());
    if (this.count() > 0) await this.ctx.storage.setAlarm(Date.now() + PRUNE_INTERVAL_MS);
  }

  /** Deletes the oldest-written rows (ties: oldest rowid) beyond `limit` among those `where` selects. */
  private evictOldest(where: string, params: string[], limit: number): number {
    const n = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM vectors ${where}`, ...params).one().n;
    if (n <= limit) return 0;
    this.sql.exec(
      `DELETE FROM vectors WHERE rowid IN (SELECT rowid FROM vectors ${where} ORDER BY written_at, rowid LIMIT ?)`,
      ...params,
      n - limit,
    );
    return n - limit;
  }
}
