/**
 * Named admins in D1 (the admins table, migration 0014). A token is generated
 * here, returned once and stored only as SHA-256 hex with a short hint; a
 * token is found by its hash, as gateway keys are. Writes go through the
 * audited database handle of the admin request, so the audit triggers record
 * who made them.
 */
import * as z from 'zod';
import { ADMIN_ROLES, type AdminPrincipal, type AdminRole } from '../core/admin-principal';
import { randomToken, sha256Hex } from '../util/crypto';
import { PAGE_ORDER, afterCursor, toPage, type Page, type PageRequest } from './page';

export const ADMIN_TOKEN_PREFIX = 'ewadm_';
export const ADMIN_ID_PREFIX = 'adm_';

export const Admin = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(ADMIN_ROLES),
  tenant_ids: z.array(z.string()),
  token_hint: z.string(),
  status: z.enum(['active', 'disabled']),
  created_by: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type Admin = z.infer<typeof Admin>;

export interface AdminInput {
  name: string;
  role: AdminRole;
  tenant_ids: string[];
}

export interface AdminPatch {
  name?: string;
  role?: AdminRole;
  tenant_ids?: string[];
  status?: 'active' | 'disabled';
}

interface AdminRow extends Omit<Admin, 'tenant_ids'> {
  tenant_ids: string;
  token_hash: string;
}

const toAdmin = ({ token_hash: _h, tenant_ids, ...row }: AdminRow): Admin => ({
  ...row,
  tenant_ids: JSON.parse(tenant_ids) as string[],
});

export const principalOf = (admin: Admin): AdminPrincipal => ({
  id: admin.id,
  name: admin.name,
  role: admin.role,
  tenantIds: admin.role === 'tenant_admin' ? admin.tenant_ids : [],
});

async function newToken(): Promise<{ token: string; hash: string; hint: string }> {
  const token = ADMIN_TOKEN_PREFIX + randomToken(32);
  return { token, hash: await sha256Hex(token), hint: `${ADMIN_TOKEN_PREFIX}…${token.slice(-4)}` };
}

/** A name another admin already has. */
export const NAME_TAKEN = Symbol('name taken');

async function orNameTaken<T>(write: Promise<T>): Promise<T | typeof NAME_TAKEN> {
  try {
    return await write;
  } catch (err) {
    if (err instanceof Error && /UNIQUE constraint failed: admins\.name/.test(err.message)) return NAME_TAKEN;
    throw err;
  }
}

export class D1AdminStore {
  constructor(private readonly db: D1Database) {}

  async create(
    input: AdminInput,
    createdBy: string,
    now: number,
  ): Promise<{ admin: Admin; token: string } | typeof NAME_TAKEN> {
    const id = ADMIN_ID_PREFIX + randomToken(12);
    const { token, hash, hint } = await newToken();
    const row = await orNameTaken(
      this.db
        .prepare(
          `INSERT INTO admins (id, name, role, tenant_ids, token_hash, token_hint, status, created_by, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?, ?) RETURNING *`,
        )
        .bind(id, input.name, input.role, JSON.stringify(input.tenant_ids), hash, hint, createdBy, now, now)
        .first<AdminRow>(),
    );
    if (row === NAME_TAKEN) return row;
    if (!row) throw new Error('admin insert returned no row');
    return { admin: toAdmin(row), token };
  }

  async get(id: string): Promise<Admin | null> {
    const row = await this.db.prepare('SELECT * FROM admins WHERE id = ?').bind(id).first<AdminRow>();
    return row ? toAdmin(row) : null;
  }

  /** The active admin a presented token belongs to, or null. */
  async byToken(token: string): Promise<Admin | null> {
    if (!token.startsWith(ADMIN_TOKEN_PREFIX)) return null;
    const row = await this.db
      .prepare("SELECT * FROM admins WHERE token_hash = ? AND status = 'active'")
      .bind(await sha256Hex(token))
      .first<AdminRow>();
    return row ? toAdmin(row) : null;
  }

  async list(page: PageRequest): Promise<Page<Admin>> {
    const after = afterCursor(page.cursor);
    const { results } = await this.db
      .prepare(`SELECT * FROM admins WHERE ${after.sql} ${PAGE_ORDER} LIMIT ?`)
      .bind(...after.binds, page.limit + 1)
      .all<AdminRow>();
    return toPage(results, page.limit, toAdmin);
  }

  async update(id: string, patch: AdminPatch, now: number): Promise<Admin | null | typeof NAME_TAKEN> {
    const columns: [string, string][] = [];
    if (patch.name !== undefined) columns.push(['name', patch.name]);
    if (patch.role !== undefined) columns.push(['role', patch.role]);
    if (patch.tenant_ids !== undefined) columns.push(['tenant_ids', JSON.stringify(patch.tenant_ids)]);
    if (patch.status !== undefined) columns.push(['status', patch.status]);
    const sets = [...columns.map(([c]) => `${c} = ?`), 'updated_at = ?'];
    const row = await orNameTaken(
      this.db
        .prepare(`UPDATE admins SET ${sets.join(', ')} WHERE id = ? RETURNING *`)
        .bind(...columns.map(([, v]) => v), now, id)
        .first<AdminRow>(),
    );
    if (row === NAME_TAKEN) return row;
    return row ? toAdmin(row) : null;
  }

  /** A new token; the old one stops working at once. */
  async rotate(id: string, now: number): Promise<{ admin: Admin; token: string } | null> {
    const { token, hash, hint } = await newToken();
    const row = await this.db
      .prepare('UPDATE admins SET token_hash = ?, token_hint = ?, updated_at = ? WHERE id = ? RETURNING *')
      .bind(hash, hint, now, id)
      .first<AdminRow>();
    return row ? { admin: toAdmin(row), token } : null;
  }

  async delete(id: string): Promise<Admin | null> {
    const row = await this.db
      .prepare('DELETE FROM admins WHERE id = ? RETURNING *')
      .bind(id)
      .first<AdminRow>();
    return row ? toAdmin(row) : null;
  }
}
