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
import { z } from 'zod';
import { GatewayError } from '../core/errors';
import { RouteSpec } from '../core/route-spec';
import { MissBudget } from './miss-budget';

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

export const ISOLATE_TTL_MS = 10_000;
export const NEGATIVE_TTL_MS = 60_000;
export const KV_CACHE_TTL_S = 60;
export const KV_RECORD_TTL_S = 300;
export const MISS_BURST = 200;
export const MISS_PER_S = 100;
const MAX_ISOLATE_ENTRIES = 10_000;

export const routeKvKey = (tenantId: string | null, name: string) =>
  tenantId === null ? `route:g:${name}` : `route:t:${tenantId}:${name}`;

/** Isolate-wide, keyed like KV: shared by every request (and admin write) this isolate serves. */
const known = new Map<string, { route: StoredRoute; until: number }>();
const unknown = new Map<string, number>();

export class TieredRouteStore implements RouteStore {
  private readonly misses: MissBudget;

  constructor(
    private readonly kv: KVNamespace,
    private readonly load: RouteLoader,
    private readonly now: () => number = Date.now,
  ) {
    this.misses = new MissBudget(MISS_BURST, MISS_PER_S, now());
  }

  async find(tenantId: string, name: string): Promise<StoredRoute | null> {
    return (await this.inScope(tenantId, name)) ?? (await this.inScope(null, name));
  }

  async invalidate(tenantId: string | null, name: string): Promise<void> {
    const key = routeKvKey(tenantId, name);
    known.delete(key);
    unknown.delete(key);
    await this.kv.delete(key);
  }

  private async inScope(tenantId: string | null, name: string): Promise<StoredRoute | null> {
    const key = routeKvKey(tenantId, name);
    const now = this.now();
    const hit = known.get(key);
    if (hit && hit.until > now) return hit.route;
    if ((unknown.get(key) ?? 0) > now) return null;
    const route = (await this.fromKv(key)) ?? (await this.fromSource(key, tenantId, name));
    remember(key, route, this.now());
    return route;
  }

  private async fromKv(key: string): Promise<StoredRoute | null> {
    const raw = await this.kv.get(key, { cacheTtl: KV_CACHE_TTL_S });
    if (raw === null) return null;
    const parsed = StoredRoute.safeParse(safeJson(raw));
    return parsed.success ? parsed.data : null;
  }

  private async fromSource(key: string, tenantId: string | null, name: string): Promise<StoredRoute | null> {
    if (!this.misses.available(this.now())) {
      throw new GatewayError(503, 'Too many unknown route names are being tried; try again shortly.', {
        code: 'route_lookup_busy',
        headers: { 'retry-after': '1' },
      });
    }
    const route = await this.load(tenantId, name);
    if (!route) {
      this.misses.spend(this.now());
      return null;
    }
    await this.kv.put(key, JSON.stringify(route), { expirationTtl: KV_RECORD_TTL_S });
    return route;
  }
}

function remember(key: string, route: StoredRoute | null, now: number): void {
  if (route) {
    if (known.size >= MAX_ISOLATE_ENTRIES) known.clear();
    known.set(key, { route, until: now + ISOLATE_TTL_MS });
  } else {
    if (unknown.size >= MAX_ISOLATE_ENTRIES) unknown.clear();
    unknown.set(key, now + NEGATIVE_TTL_MS);
  }
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
