/**
 * The exact cache in KV, plus in-isolate coalescing: while one request for a
 * key is in flight, identical requests in the same isolate wait for its answer
 * instead of calling the provider again. (Across isolates a burst may still
 * make one call per isolate; coalescing globally would need a Durable Object
 * round trip on every miss, which costs more than it saves.)
 */
import { CachedEntry } from './entry';

/** KV refuses expirations shorter than 60 s. */
export const KV_MIN_TTL_S = 60;

export class ExactCache {
  private readonly inflight = new Map<string, Promise<CachedEntry | null>>();

  constructor(private readonly kv: KVNamespace) {}

  async get(key: string): Promise<CachedEntry | null> {
    const raw = await this.kv.get(key, 'text');
    if (raw === null) return null;
    try {
      const parsed = CachedEntry.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  async put(key: string, entry: CachedEntry, ttlSeconds: number): Promise<void> {
    await this.kv.put(key, JSON.stringify(entry), {
      expirationTtl: Math.max(KV_MIN_TTL_S, Math.floor(ttlSeconds)),
    });
  }

  /** The answer of an identical request already in flight in this isolate, if any. */
  joinInflight(key: string): Promise<CachedEntry | null> | null {
    return this.inflight.get(key) ?? null;
  }

  /** Marks this request as the one the others wait for; call the returned function exactly once. */
  lead(key: string): (entry: CachedEntry | null) => void {
    let resolve!: (entry: CachedEntry | null) => void;
    this.inflight.set(key, new Promise((r) => (resolve = r)));
    return (entry) => {
      this.inflight.delete(key);
      resolve(entry);
    };
  }
}
