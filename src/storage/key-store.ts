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
import { isolateMemory, STORE_MISSES, STORE_TIMES, TieredLookup } from './tiered-lookup';

export interface KeyStore {
  findByHash(hash: string): Promise<KeyRecord | null>;
  /** Forget a key everywhere this isolate can reach, after a change in D1. */
  invalidate(hash: string): Promise<void>;
}

/** Loads a key record from the source of truth. */
export type KeyLoader = (hash: string) => Promise<KeyRecord | null>;

export const ISOLATE_TTL_MS = STORE_TIMES.isolateMs;
export const NEGATIVE_TTL_MS = STORE_TIMES.negativeMs;
export const KV_CACHE_TTL_S = STORE_TIMES.kvCacheS;
export const KV_RECORD_TTL_S = STORE_TIMES.kvRecordS;
export const MISS_BURST = STORE_MISSES.burst;
export const MISS_PER_S = STORE_MISSES.perSecond;

export const kvKey = (hash: string) => `key:${hash}`;

/** Isolate-wide: shared by every request this isolate serves. */
const memory = isolateMemory<KeyRecord>();

export class TieredKeyStore implements KeyStore {
  private readonly lookup: TieredLookup<KeyRecord>;

  constructor(kv: KVNamespace, load: KeyLoader, now: () => number = Date.now) {
    this.lookup = new TieredLookup({
      kv,
      memory,
      schema: KeyRecord,
      load: (key) => load(key.slice('key:'.length)),
      times: STORE_TIMES,
      misses: STORE_MISSES,
      busy: () =>
        new GatewayError(503, 'Too many unknown API keys are being tried; try again shortly.', {
          code: 'key_lookup_busy',
          headers: { 'retry-after': '1' },
        }),
      now,
    });
  }

  findByHash(hash: string): Promise<KeyRecord | null> {
    return this.lookup.get(kvKey(hash));
  }

  invalidate(hash: string): Promise<void> {
    return this.lookup.forget(kvKey(hash));
  }
}
