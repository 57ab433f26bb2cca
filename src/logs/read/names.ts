/**
 * The names beside the ids on a page of logs: the tenants' and keys' names for the ids the page holds, read
 * in one query however many rows there are (never one read per row). A tenant or key deleted since reads
 * as a null name; the id is still shown.
 */
import * as z from 'zod';

export const Names = z.object({
  tenant_name: z.string().nullable().describe("The tenant's name now (null when it no longer exists)."),
  key_name: z.string().nullable().describe("The key's name now (null when it has none or no longer exists)."),
});
export type Names = z.output<typeof Names>;

interface HasOwners {
  tenant_id: string | null;
  key_id: string | null;
}

/** The distinct ids among the rows, the first 100 of each (a page holds at most 100 rows). */
function idsOf<T extends HasOwners>(rows: T[], pick: (r: T) => string | null): string[] {
  const ids = new Set<string>();
  for (const r of rows) {
    const id = pick(r);
    if (id !== null) ids.add(id);
  }
  return [...ids].slice(0, 100);
}

/** Each row with its tenant's and key's names beside their ids, from one D1 read. */
export async function withNames<T extends HasOwners>(db: D1Database, rows: T[]): Promise<(T & Names)[]> {
  const tenantIds = idsOf(rows, (r) => r.tenant_id);
  const keyIds = idsOf(rows, (r) => r.key_id);
  const tenants = new Map<string, string>();
  const keys = new Map<string, string>();
  if (tenantIds.length || keyIds.length) {
    const marks = (n: number) => (n ? Array(n).fill('?').join(', ') : 'NULL');
    const { results } = await db
      .prepare(
        `SELECT 't' AS kind, id, name FROM tenants WHERE id IN (${marks(tenantIds.length)})
         UNION ALL SELECT 'k' AS kind, id, name FROM api_keys WHERE id IN (${marks(keyIds.length)})`,
      )
      .bind(...tenantIds, ...keyIds)
      .all<{ kind: 't' | 'k'; id: string; name: string }>();
    for (const r of results) (r.kind === 't' ? tenants : keys).set(r.id, r.name);
  }
  return rows.map((r) => ({
    ...r,
    tenant_name: r.tenant_id === null ? null : (tenants.get(r.tenant_id) ?? null),
    key_name: r.key_id === null ? null : keys.get(r.key_id) || null,
  }));
}
