/**
 * The names beside the ids a page shows: the tenants' and keys' names for the ids it holds, read in one
 * query however many rows or tables there are (never one read per row). Only ids already on the (scoped)
 * page are looked up, so a name is never shown to an admin who could not see its id. A tenant or key
 * deleted since, and a key without a name, read as no name; the id is still shown.
 */
import * as z from 'zod';

/** Id → name, for the tenants and keys a page shows (an analytics report). */
export const NameBook = z.object({
  tenants: z.record(z.string(), z.string()).describe('Tenant id → name, for the tenants in the report.'),
  keys: z
    .record(z.string(), z.string())
    .describe('Key id → name, for the keys in the report (unnamed keys left out).'),
});
export type NameBook = z.output<typeof NameBook>;

/** The names beside one row's tenant and key ids (a log entry). */
export const OwnerNames = z.object({
  tenant_name: z.string().nullable().describe("The tenant's name now (null when it no longer exists)."),
  key_name: z.string().nullable().describe("The key's name now (null when it has none or no longer exists)."),
});
export type OwnerNames = z.output<typeof OwnerNames>;

const Row = z.object({ kind: z.enum(['tenant', 'key']), id: z.string(), name: z.string() });

const NAMES_SQL = `SELECT 'tenant' AS kind, id, name FROM tenants WHERE id IN (SELECT value FROM json_each(?1))
  UNION ALL
  SELECT 'key' AS kind, id, name FROM api_keys WHERE id IN (SELECT value FROM json_each(?2)) AND name <> ''`;

/** The names of these tenants and keys, from one D1 read (none when there are no ids). */
export async function namesOf(
  db: D1Database,
  tenantIds: Iterable<string | null>,
  keyIds: Iterable<string | null>,
): Promise<NameBook> {
  const ids = (all: Iterable<string | null>) =>
    [...new Set(all)].filter((id): id is string => id !== null && id !== '');
  const tenants = ids(tenantIds);
  const keys = ids(keyIds);
  const names: NameBook = { tenants: {}, keys: {} };
  if (tenants.length === 0 && keys.length === 0) return names;
  const { results } = await db.prepare(NAMES_SQL).bind(JSON.stringify(tenants), JSON.stringify(keys)).all();
  for (const raw of results) {
    const r = Row.parse(raw);
    (r.kind === 'tenant' ? names.tenants : names.keys)[r.id] = r.name;
  }
  return names;
}

interface HasOwners {
  tenant_id: string | null;
  key_id: string | null;
}

/** Each row with its tenant's and key's names beside their ids, from one D1 read. */
export async function withNames<T extends HasOwners>(db: D1Database, rows: T[]): Promise<(T & OwnerNames)[]> {
  const book = await namesOf(
    db,
    rows.map((r) => r.tenant_id),
    rows.map((r) => r.key_id),
  );
  return rows.map((r) => ({
    ...r,
    tenant_name: r.tenant_id === null ? null : (book.tenants[r.tenant_id] ?? null),
    key_name: r.key_id === null ? null : (book.keys[r.key_id] ?? null),
  }));
}
