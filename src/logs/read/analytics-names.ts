/**
 * The names of the tenants and keys an analytics report shows, looked up by the ids in it: one D1 query,
 * whatever the number of tables. Only ids already in the (scoped) report are looked up, so a name is
 * never shown to an admin who could not see its id.
 */
import * as z from 'zod';

export const Names = z.object({
  tenants: z.record(z.string(), z.string()).describe('Tenant id → name, for the tenants in the report.'),
  keys: z
    .record(z.string(), z.string())
    .describe('Key id → name, for the keys in the report (unnamed keys left out).'),
});
export type Names = z.output<typeof Names>;

const Row = z.object({ kind: z.enum(['tenant', 'key']), id: z.string(), name: z.string() });

const NAMES_SQL = `SELECT 'tenant' AS kind, id, name FROM tenants WHERE id IN (SELECT value FROM json_each(?1))
  UNION ALL
  SELECT 'key' AS kind, id, name FROM api_keys WHERE id IN (SELECT value FROM json_each(?2)) AND name <> ''`;

export async function namesOf(
  db: D1Database,
  tenantIds: Iterable<string>,
  keyIds: Iterable<string>,
): Promise<Names> {
  const tenants = [...new Set(tenantIds)].filter((id) => id !== '');
  const keys = [...new Set(keyIds)].filter((id) => id !== '');
  const names: Names = { tenants: {}, keys: {} };
  if (tenants.length === 0 && keys.length === 0) return names;
  const { results } = await db.prepare(NAMES_SQL).bind(JSON.stringify(tenants), JSON.stringify(keys)).all();
  for (const raw of results) {
    const r = Row.parse(raw);
    (r.kind === 'tenant' ? names.tenants : names.keys)[r.id] = r.name;
  }
  return names;
}
