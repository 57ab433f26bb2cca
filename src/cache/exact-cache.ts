/**
 * The exact cache in KV, plus in-isolate coalescing: while one request for a
 * key is in flight, identical requests in the same isolate wait for its answer
 * instead of calling the provider again. (Across isolates a burst may still
 * make one call per isolate; coalescing globally would need a Durable Object
 * round trip on every miss, which costs more than it saves.) A waiter waits at
 * most `inflightWaitMs`: the request it waits on may be a slow stream read by a
 * slow client, and after that the waiter calls the provider itself.
 */
import { within } from '../util/within';
import { CachedEntry } from './entry';

/** KV refuses expirations shorter than 60 s. */
export const KV_MIN_TTL_S = 60;

/** How long an identical request waits for the one in flight before calling the provider itself. */
export const INFLIGHT_WAIT_MS = 15_000;

export class ExactCache {
  private readonly inflight = new Map<string, Promise<CachedEntry | null>>();
  private readonly inflightWaitMs: number;

  constructor(
    private readonly kv: KVNamespace,
    options: { readonly inflightWaitMs?: number } = {},
  ) {
    this.inflightWaitMs = options.inflightWaitMs ?? INFLIGHT_WAIT_MS;
  }

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

  /**
   * The answer of an identical request already in flight in this isolate, if
   * any; null when it ends without one, or when it takes longer than the wait.
   */
  joinInflight(key: string): Promise<CachedEntry | null> | null {
    const twin = this.inflight.get(key);
    if (!twin) return null;
    return within(this.inflightWaitMs, twin, () => null);
  }

  /**
   * Marks this request as the one the others wait for; call the returned
   * function exactly once. A waiter that gave up may lead in its turn: each
   * leader removes only its own mark.
   */
  lead(key: string): (entry: CachedEntry | null) => void {
    let resolve!: (entry: CachedEntry | null) => void;
    const mark = new Promise<CachedEntry | null>((r) => (resolve = r));
    this.inflight.set(key, mark);
    return (entry) => {
      if (this.inflight.get(key) === mark) this.inflight.delete(key);
      resolve(entry);
    };
  }
}
