/**
 * The named routes a tenant can call, by name, for /v1/models: its own and the
 * global ones, the tenant's own winning a name both have (as RouteStore.find
 * resolves it). One indexed D1 read per listing: /v1/models is not the hot
 * path, and the list must show a route the moment an admin creates it.
 */
import * as z from 'zod';

export interface RouteName {
  readonly name: string;
  /** When the route (the one in force for this tenant) was created, epoch ms. */
  readonly createdAt: number;
}

const Row = z.object({
  name: z.string(),
  created_at: z.number(),
});

/** At most this many routes are listed (a tenant with more has a listing problem of its own). */
export const MAX_LISTED_ROUTES = 1000;

export async function routeNames(db: D1Database, tenantId: string): Promise<RouteName[]> {
  const { results } = await db
    .prepare(
      'SELECT name, created_at FROM routes WHERE tenant_id = ? OR tenant_id IS NULL ORDER BY name, tenant_id IS NULL LIMIT ?',
    )
    .bind(tenantId, MAX_LISTED_ROUTES * 2)
    .all();
  const byName = new Map<string, RouteName>();
  for (const raw of results) {
    const row = Row.parse(raw);
    // The tenant's own route of a name (ordered first) hides the global one.
    if (byName.has(row.name)) continue;
    byName.set(row.name, { name: row.name, createdAt: row.created_at });
  }
  return [...byName.values()].slice(0, MAX_LISTED_ROUTES);
}
