/**
 * KeyStore: finds a gateway key by the hash of its secret, through three tiers:
 * isolate memory (ISOLATE_TTL_MS) → KV (KV_CACHE_TTL_S) → D1, the source of truth.
 * A known key therefore costs no D1 read on the hot path. Unknown hashes are
 * cached negatively too, so a flood of bad keys cannot hammer D1.
 *
 * Revocation bound: instant in the isolate that made the change (invalidate()
 * also deletes the KV entry); elsewhere within ISOLATE_TTL_MS plus KV's own
 * propagation (up to ~60 s for cached reads), i.e. about 70 seconds. A lookup
 * that read D1 just before a change can re-write the old record to KV; that
 * record expires after KV_RECORD_TTL_S (5 min), the worst case of the race.
 */
import { KeyRecord } from '../core/key-record';

export interface KeyStore {
  findByHash(hash: string): Promise<KeyRecord | null>;
  /** Forget a key everywhere this isolate can reach, after a change in D1. */
  invalidate(hash: string): Promise<void>;
}

/** Loads a key record from the source of truth. */
export type KeyLoader = (hash: string) => Promise<KeyRecord | null>;

export const ISOLATE_TTL_MS = 10_000;
export const KV_CACHE_TTL_S = 60;
export const KV_RECORD_TTL_S = 300;
const NEGATIVE = 'none';
const MAX_ISOLATE_ENTRIES = 10_000;

interface Cached {
  record: KeyRecord | null;
  until: number;
}

/** Isolate-wide: shared by every request this isolate serves. */
const isolateCache = new Map<string, Cached>();

export class TieredKeyStore implements KeyStore {
  constructor(
    private readonly kv: KVNamespace,
    private readonly load: KeyLoader,
    private readonly now: () => number = Date.now,
  ) {}

  async findByHash(hash: string): Promise<KeyRecord | null> {
    const hit = isolateCache.get(hash);
    if (hit && hit.until > this.now()) return hit.record;
    const record = (await this.fromKv(hash)) ?? (await this.fromSource(hash));
    remember(hash, record === NEGATIVE ? null : record, this.now());
    return record === NEGATIVE ? null : record;
  }

  async invalidate(hash: string): Promise<void> {
    isolateCache.delete(hash);
    await this.kv.delete(kvKey(hash));
  }

  private async fromKv(hash: string): Promise<KeyRecord | typeof NEGATIVE | null> {
    const raw = await this.kv.get(kvKey(hash), { cacheTtl: KV_CACHE_TTL_S });
    if (raw === null) return null;
    if (raw === NEGATIVE) return NEGATIVE;
    const parsed = KeyRecord.safeParse(safeJson(raw));
    return parsed.success ? parsed.data : null;
  }

  private async fromSource(hash: string): Promise<KeyRecord | typeof NEGATIVE> {
    const record = await this.load(hash);
    const value = record ? JSON.stringify(record) : NEGATIVE;
    // Positive entries live a few minutes only: a lookup racing an admin change can
    // write a stale record back after the admin's delete; the TTL bounds that window.
    await this.kv.put(kvKey(hash), value, { expirationTtl: record ? KV_RECORD_TTL_S : KV_CACHE_TTL_S });
    return record ?? NEGATIVE;
  }
}

function remember(hash: string, record: KeyRecord | null, now: number): void {
  if (isolateCache.size >= MAX_ISOLATE_ENTRIES) isolateCache.clear();
  isolateCache.set(hash, { record, until: now + ISOLATE_TTL_MS });
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

export const kvKey = (hash: string) => `key:${hash}`;
