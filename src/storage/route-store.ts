/**
 * RouteStore: finds the route a client named in `model`, for its tenant: the
 * tenant's own route of that name wins, else the global one. Each scope is
 * cached on its own, through three tiers: isolate memory (ISOLATE_TTL_MS) →
 * KV (KV_CACHE_TTL_S; `route:t:<tenant>:<name>`, `route:g:<name>`) → D1, the
 * source of truth. A known route therefore costs no D1 read on the hot path,
 * and a write to a global route invalidates one entry, not one per tenant.
 *
 * Names found nowhere are remembered in the isolate only (NEGATIVE_TTL_MS, in
 * a map of their own so a flood cannot evict known routes): a random name must
 * cost no storage write. What a flood of distinct unknown names can still cost
 * is D1 reads, bounded per isolate by a MissBudget of MISS_BURST refilled at
 * MISS_PER_S; once spent, uncached lookups answer 503 with `retry-after`.
 *
 * Staleness bound: an admin write is in force at once in the isolate that made
 * it (invalidate() also deletes the KV entry); elsewhere within ISOLATE_TTL_MS
 * plus KV's own propagation (up to ~60 s for cached reads), or NEGATIVE_TTL_MS
 * for a name an isolate had found missing: about 70 seconds. A lookup that read
 * D1 just before a change can write the old route back to KV; it expires after
 * KV_RECORD_TTL_S (5 min), the worst case of that race.
 */
import * as z from 'zod';
import { GatewayError } from '../core/errors';
import { RouteSpec } from '../core/route-spec';
import { isolateMemory, STORE_MISSES, STORE_TIMES, TieredLookup } from './tiered-lookup';

/** A route as the hot path reads it; `tenantId` null is a global route. */
export const StoredRoute = z.object({
  id: z.string(),
  name: z.string(),
  tenantId: z.string().nullable(),
  spec: RouteSpec,
});
export type StoredRoute = z.infer<typeof StoredRoute>;

export interface RouteStore {
  /** The tenant's own route named `name`, else the global one, else null. */
  find(tenantId: string, name: string): Promise<StoredRoute | null>;
  /** Forget one scope's entry everywhere this isolate can reach, after a change in D1 (null: global). */
  invalidate(tenantId: string | null, name: string): Promise<void>;
}

/** Loads one scope's route from the source of truth (tenantId null: the global route). */
export type RouteLoader = (tenantId: string | null, name: string) => Promise<StoredRoute | null>;

export const ISOLATE_TTL_MS = STORE_TIMES.isolateMs;
export const NEGATIVE_TTL_MS = STORE_TIMES.negativeMs;
export const KV_CACHE_TTL_S = STORE_TIMES.kvCacheS;
export const KV_RECORD_TTL_S = STORE_TIMES.kvRecordS;
export const MISS_BURST = STORE_MISSES.burst;
export const MISS_PER_S = STORE_MISSES.perSecond;

export const routeKvKey = (tenantId: string | null, name: string) =>
  tenantId === null ? `route:g:${name}` : `route:t:${tenantId}:${name}`;

/** Isolate-wide, keyed like KV: shared by every request (and admin write) this isolate serves. */
const memory = isolateMemory<StoredRoute>();

export class TieredRouteStore implements RouteStore {
  private readonly lookup: TieredLookup<StoredRoute>;

  constructor(kv: KVNamespace, load: RouteLoader, now: () => number = Date.now) {
    this.lookup = new TieredLookup({
      kv,
      memory,
      schema: StoredRoute,
      load: (key) => {
        const [tenantId, name] = scopeOf(key);
        return load(tenantId, name);
      },
      times: STORE_TIMES,
      misses: STORE_MISSES,
      busy: () =>
        new GatewayError(503, 'Too many unknown route names are being tried; try again shortly.', {
          code: 'route_lookup_busy',
          headers: { 'retry-after': '1' },
        }),
      now,
    });
  }

  async find(tenantId: string, name: string): Promise<StoredRoute | null> {
    return (await this.inScope(tenantId, name)) ?? (await this.inScope(null, name));
  }

  invalidate(tenantId: string | null, name: string): Promise<void> {
    return this.lookup.forget(routeKvKey(tenantId, name));
  }

  private inScope(tenantId: string | null, name: string): Promise<StoredRoute | null> {
    return this.lookup.get(routeKvKey(tenantId, name));
  }
}

/** The scope and name a KV key stands for (route names hold no ':', so the last one ends the tenant id). */
function scopeOf(key: string): readonly [string | null, string] {
  if (key.startsWith('route:g:')) return [null, key.slice('route:g:'.length)];
  const rest = key.slice('route:t:'.length);
  const at = rest.lastIndexOf(':');
  return [rest.slice(0, at), rest.slice(at + 1)];
}
