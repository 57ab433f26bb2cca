/**
 * Named routes in D1: the admin API's repository, and the loader the hot
 * path's RouteStore calls on a miss of its caches. Every spec read back is
 * validated again with the RouteSpec schema. A name taken in its scope (a
 * tenant, or the global routes) is an expected outcome, `name_taken`: the
 * unique index on (COALESCE(tenant_id, ''), name) decides it, so two admins
 * racing for one name cannot both win.
 */
import * as z from 'zod';
import { RouteSpec } from '../core/route-spec';
import { randomToken } from '../util/crypto';
import { Timestamp, jsonColumn } from './entities';
import { PAGE_ORDER, afterCursor, toPage, type Page, type PageRequest } from './page';
import type { RouteLoader, StoredRoute } from './route-store';

export const ROUTE_ID_PREFIX = 'rte_';

/** A route as the admin API shows it. */
export const Route = z.object({
  id: z.string(),
  name: z.string().describe('What clients put in `model` to call this route.'),
  tenant_id: z.string().nullable().describe("The tenant whose route this is; null: global, every tenant's."),
  spec: RouteSpec,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Route = z.infer<typeof Route>;

export interface RouteInput {
  name: string;
  tenantId: string | null;
  spec: RouteSpec;
}

export interface RoutePatch {
  name?: string;
  spec?: RouteSpec;
}

/** all: every route; global: global routes only; else one tenant's own routes. */
export type RouteScope = 'all' | 'global' | { tenantId: string };

export type RouteWrite = { ok: true; route: Route } | { ok: false; reason: 'name_taken' };

interface RouteRow {
  id: string;
  tenant_id: string | null;
  name: string;
  spec: string;
  created_at: number;
  updated_at: number;
}

function fromRow(row: RouteRow): Route {
  return Route.parse({ ...row, spec: jsonColumn(row.spec) });
}

export function toStored(route: Route): StoredRoute {
  return { id: route.id, name: route.name, tenantId: route.tenant_id, spec: route.spec };
}

const NAME_TAKEN = Symbol('name taken');
const TAKEN: RouteWrite = { ok: false, reason: 'name_taken' };

/** The unique index's refusal as a value; any other failure stays exceptional. */
async function orNameTaken<T>(write: Promise<T>): Promise<T | typeof NAME_TAKEN> {
  try {
    return await write;
  } catch (err) {
    if (err instanceof Error && /UNIQUE constraint failed/i.test(err.message)) return NAME_TAKEN;
    throw err;
  }
}

export class D1RouteAdminStore {
  constructor(private readonly db: D1Database) {}

  async create(input: RouteInput, now: number): Promise<RouteWrite> {
    const statement = this.db
      .prepare(
        'INSERT INTO routes (id, tenant_id, name, spec, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING *',
      )
      .bind(
        ROUTE_ID_PREFIX + randomToken(12),
        input.tenantId,
        input.name,
        JSON.stringify(input.spec),
        now,
        now,
      );
    const row = await orNameTaken(statement.first<RouteRow>());
    if (row === NAME_TAKEN) return TAKEN;
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    return { ok: true, route: fromRow(row) };
  }

  async get(id: string): Promise<Route | null> {
    const row = await this.db.prepare('SELECT * FROM routes WHERE id = ?').bind(id).first<RouteRow>();
    return row ? fromRow(row) : null;
  }

  async list(page: PageRequest, scope: RouteScope): Promise<Page<Route>> {
    const after = afterCursor(page.cursor);
    const where =
      scope === 'all'
        ? { sql: '', binds: [] }
        : scope === 'global'
          ? { sql: ' AND tenant_id IS NULL', binds: [] }
          : { sql: ' AND tenant_id = ?', binds: [scope.tenantId] };
    const { results } = await this.db
      .prepare(`SELECT * FROM routes WHERE ${after.sql}${where.sql} ${PAGE_ORDER} LIMIT ?`)
      .bind(...after.binds, ...where.binds, page.limit + 1)
      .all<RouteRow>();
    return toPage(results, page.limit, fromRow);
  }

  /** Null when no such route. */
  async update(id: string, patch: RoutePatch, now: number): Promise<RouteWrite | null> {
    const sets = ['updated_at = ?'];
    const binds: (string | number)[] = [now];
    const set = (column: string, value: string) => {
      sets.push(`${column} = ?`);
      binds.push(value);
    };
    if (patch.name !== undefined) set('name', patch.name);
    if (patch.spec !== undefined) set('spec', JSON.stringify(patch.spec));
    const statement = this.db
      .prepare(`UPDATE routes SET ${sets.join(', ')} WHERE id = ? RETURNING *`)
      .bind(...binds, id);
    const row = await orNameTaken(statement.first<RouteRow>());
    if (row === NAME_TAKEN) return TAKEN;
    return row ? { ok: true, route: fromRow(row) } : null;
  }

  /** False when no such route. */
  async delete(id: string): Promise<boolean> {
    const result = await this.db.prepare('DELETE FROM routes WHERE id = ?').bind(id).run();
    return result.meta.changes > 0;
  }

  /**
   * The routes a write's validation must see: a tenant's own and the global
   * ones for a tenant route; every route for a global one (it is seen from
   * every tenant, through their own routes of the same names).
   */
  async book(tenantId: string | null): Promise<StoredRoute[]> {
    const query =
      tenantId === null
        ? this.db.prepare('SELECT * FROM routes')
        : this.db.prepare('SELECT * FROM routes WHERE tenant_id = ? OR tenant_id IS NULL').bind(tenantId);
    const { results } = await query.all<RouteRow>();
    return results.map((row) => toStored(fromRow(row)));
  }
}

/** The hot path's read on a cache miss: one indexed lookup of one scope. */
export function d1RouteLoader(db: D1Database): RouteLoader {
  return async (tenantId, name) => {
    const row = await db
      .prepare("SELECT * FROM routes WHERE COALESCE(tenant_id, '') = ? AND name = ?")
      .bind(tenantId ?? '', name)
      .first<RouteRow>();
    return row ? toStored(fromRow(row)) : null;
  };
}
