/**
 * KeyStore: finds a gateway key by the hash of its secret, through three tiers:
 * isolate memory (ISOLATE_TTL_MS) → KV (KV_CACHE_TTL_S) → D1, the source of truth.
 * A known key therefore costs no D1 read on the hot path.
 *
 * Unknown hashes are remembered in the isolate only (NEGATIVE_TTL_MS, in a map
 * of their own so a flood cannot evict known keys): a random bearer value must
 * cost no storage write, or anyone could turn bad keys into KV writes. What a
 * flood of distinct unknown values can still cost is one D1 read each, and that
 * is bounded per isolate by a budget of MISS_BURST misses refilled at
 * MISS_PER_S; once spent, lookups that are not cached answer 503 with
 * `retry-after` until it refills. Known keys never spend it.
 *
 * Revocation bound: instant in the isolate that made the change (invalidate()
 * also deletes the KV entry); elsewhere within ISOLATE_TTL_MS plus KV's own
 * propagation (up to ~60 s for cached reads), i.e. about 70 seconds. A lookup
 * that read D1 just before a change can re-write the old record to KV; that
 * record expires after KV_RECORD_TTL_S (5 min), the worst case of the race.
 */
import { GatewayError } from '../core/errors';
import { KeyRecord } from '../core/key-record';
import { MissBudget } from './miss-budget';

export interface KeyStore {
  findByHash(hash: string): Promise<KeyRecord | null>;
  /** Forget a key everywhere this isolate can reach, after a change in D1. */
  invalidate(hash: string): Promise<void>;
}

/** Loads a key record from the source of truth. */
export type KeyLoader = (hash: string) => Promise<KeyRecord | null>;

export const ISOLATE_TTL_MS = 10_000;
export const NEGATIVE_TTL_MS = 60_000;
export const KV_CACHE_TTL_S = 60;
export const KV_RECORD_TTL_S = 300;
export const MISS_BURST = 200;
export const MISS_PER_S = 100;
const MAX_ISOLATE_ENTRIES = 10_000;

interface Cached {
  record: KeyRecord;
  until: number;
}

/** Isolate-wide: shared by every request this isolate serves. */
const known = new Map<string, Cached>();
/** Hash → until when it is known to be unknown. */
const unknown = new Map<string, number>();

export class TieredKeyStore implements KeyStore {
  private readonly misses: MissBudget;

  constructor(
    private readonly kv: KVNamespace,
    private readonly load: KeyLoader,
    private readonly now: () => number = Date.now,
  ) {
    this.misses = new MissBudget(MISS_BURST, MISS_PER_S, now());
  }

  async findByHash(hash: string): Promise<KeyRecord | null> {
    const now = this.now();
    const hit = known.get(hash);
    if (hit && hit.until > now) return hit.record;
    if ((unknown.get(hash) ?? 0) > now) return null;
    const record = (await this.fromKv(hash)) ?? (await this.fromSource(hash));
    remember(hash, record, this.now());
    return record;
  }

  async invalidate(hash: string): Promise<void> {
    known.delete(hash);
    unknown.delete(hash);
    await this.kv.delete(kvKey(hash));
  }

  private async fromKv(hash: string): Promise<KeyRecord | null> {
    const raw = await this.kv.get(kvKey(hash), { cacheTtl: KV_CACHE_TTL_S });
    if (raw === null) return null;
    const parsed = KeyRecord.safeParse(safeJson(raw));
    return parsed.success ? parsed.data : null;
  }

  private async fromSource(hash: string): Promise<KeyRecord | null> {
    if (!this.misses.available(this.now())) {
      throw new GatewayError(503, 'Too many unknown API keys are being tried; try again shortly.', {
        code: 'key_lookup_busy',
        headers: { 'retry-after': '1' },
      });
    }
    const record = await this.load(hash);
    if (!record) {
      this.misses.spend(this.now());
      return null;
    }
    // Positive entries live a few minutes only: a lookup racing an admin change can
    // write a stale record back after the admin's delete; the TTL bounds that window.
    await this.kv.put(kvKey(hash), JSON.stringify(record), { expirationTtl: KV_RECORD_TTL_S });
    return record;
  }
}

function remember(hash: string, record: KeyRecord | null, now: number): void {
  if (record) {
    if (known.size >= MAX_ISOLATE_ENTRIES) known.clear();
    known.set(hash, { record, until: now + ISOLATE_TTL_MS });
  } else {
    if (unknown.size >= MAX_ISOLATE_ENTRIES) unknown.clear();
    unknown.set(hash, now + NEGATIVE_TTL_MS);
  }
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

export const kvKey = (hash: string) => `key:${hash}`;
