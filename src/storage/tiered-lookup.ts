/**
 * The read path shared by the key and route stores: one record type looked up
 * by key through isolate memory → KV → the source of truth (D1), validated
 * with its zod schema whenever it is read back from KV.
 *
 * Records found nowhere are remembered in the isolate only, in a map of their
 * own (a flood of random keys must cost no storage write and cannot evict
 * known records). What such a flood can still cost is source reads, bounded
 * per isolate by a MissBudget; once spent, uncached lookups throw the store's
 * own 503. Found records are written back to KV with a short TTL, which bounds
 * how long a lookup racing an admin change can keep an old record alive.
 */
import type * as z from 'zod';
import type { GatewayError } from '../core/errors';
import { MissBudget } from './miss-budget';

export interface TieredTimes {
  /** How long a found record is served from isolate memory. */
  readonly isolateMs: number;
  /** How long a key found nowhere is answered as missing from isolate memory. */
  readonly negativeMs: number;
  /** KV's edge cache for reads. */
  readonly kvCacheS: number;
  /** The TTL of a record written back to KV. */
  readonly kvRecordS: number;
}

/**
 * The numbers both stores use: 10 s in isolate memory, 60 s for a miss, KV's
 * 60 s edge cache, 5 min for a record written back to KV; 200 source misses at
 * once, then 100 a second. The stores' staleness bounds (about 70 s) follow.
 */
export const STORE_TIMES: TieredTimes = {
  isolateMs: 10_000,
  negativeMs: 60_000,
  kvCacheS: 60,
  kvRecordS: 300,
};
export const STORE_MISSES = { burst: 200, perSecond: 100 } as const;

/** Isolate-wide memory of one store: created once per module, so every request of the isolate shares it. */
export interface IsolateMemory<T> {
  readonly known: Map<string, { value: T; until: number }>;
  readonly unknown: Map<string, number>;
}

export function isolateMemory<T>(): IsolateMemory<T> {
  return { known: new Map(), unknown: new Map() };
}

const MAX_ISOLATE_ENTRIES = 10_000;

export interface TieredLookupOptions<T> {
  readonly kv: KVNamespace;
  readonly memory: IsolateMemory<T>;
  readonly schema: z.ZodType<T>;
  /** Reads the record from the source of truth, by the same key. */
  readonly load: (key: string) => Promise<T | null>;
  readonly times: TieredTimes;
  readonly misses: { readonly burst: number; readonly perSecond: number };
  /** The error thrown when the miss budget is spent. */
  readonly busy: () => GatewayError;
  readonly now?: () => number;
}

export class TieredLookup<T> {
  private readonly misses: MissBudget;
  private readonly now: () => number;

  constructor(private readonly options: TieredLookupOptions<T>) {
    this.now = options.now ?? Date.now;
    this.misses = new MissBudget(options.misses.burst, options.misses.perSecond, this.now());
  }

  async get(key: string): Promise<T | null> {
    const { known, unknown } = this.options.memory;
    const now = this.now();
    const hit = known.get(key);
    if (hit && hit.until > now) return hit.value;
    if ((unknown.get(key) ?? 0) > now) return null;
    const value = (await this.fromKv(key)) ?? (await this.fromSource(key));
    this.remember(key, value, this.now());
    return value;
  }

  /** Forgets the key everywhere this isolate can reach (memory and KV), after a change at the source. */
  async forget(key: string): Promise<void> {
    this.options.memory.known.delete(key);
    this.options.memory.unknown.delete(key);
    await this.options.kv.delete(key);
  }

  private async fromKv(key: string): Promise<T | null> {
    const raw = await this.options.kv.get(key, { cacheTtl: this.options.times.kvCacheS });
    if (raw === null) return null;
    const parsed = this.options.schema.safeParse(safeJson(raw));
    return parsed.success ? parsed.data : null;
  }

  private async fromSource(key: string): Promise<T | null> {
    if (!this.misses.available(this.now())) throw this.options.busy();
    const value = await this.options.load(key);
    if (!value) {
      this.misses.spend(this.now());
      return null;
    }
    await this.options.kv.put(key, JSON.stringify(value), { expirationTtl: this.options.times.kvRecordS });
    return value;
  }

  private remember(key: string, value: T | null, now: number): void {
    const { known, unknown } = this.options.memory;
    if (value) {
      if (known.size >= MAX_ISOLATE_ENTRIES) known.clear();
      known.set(key, { value, until: now + this.options.times.isolateMs });
    } else {
      if (unknown.size >= MAX_ISOLATE_ENTRIES) unknown.clear();
      unknown.set(key, now + this.options.times.negativeMs);
    }
  }
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
