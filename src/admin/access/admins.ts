/**
 * /admin/admins (owners only) and /admin/me (everyone): named admins, each
 * with a role and a token of their own. A token is in exactly two responses,
 * create and rotate (no-store); it is stored as a hash. A tenant_admin names
 * its tenants (at least one, each existing); other roles name none.
 */
import { Hono, type Context } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../context';
import { ADMIN_ROLES, type AdminRole } from '../../core/admin-principal';
import { GatewayError, badRequest } from '../../core/errors';
import { Admin, D1AdminStore, NAME_TAKEN } from '../../storage/admin-store';
import type { Operation } from '../operation';
import { listBody } from '../pagination';
import { Id, listOf, Name, PageQuery } from '../schemas';
import { tenantNotFound } from '../resources/tenants';
import { readBody, readQuery } from '../validate';

const Role = z.enum(ADMIN_ROLES).describe('owner, admin, viewer or tenant_admin (docs/admins.md).');
const TenantIds = z
  .array(Id)
  .max(100)
  .describe('The tenants a tenant_admin manages; empty for every other role.');

export const AdminCreate = z.strictObject({ name: Name, role: Role, tenant_ids: TenantIds.optional() });
export const AdminUpdate = z
  .strictObject({
    name: Name.optional(),
    role: Role.optional(),
    tenant_ids: TenantIds.optional(),
    status: z.enum(['active', 'disabled']).optional(),
  })
  .refine((o) => Object.keys(o).length > 0, 'give at least one field to change');
export const AdminListQuery = z.strictObject({ ...PageQuery });
export const AdminWithToken = Admin.extend({
  token: z.string().describe('The admin token. Returned only by create and rotate; hand it over now.'),
});
export const Me = z.object({
  id: z.string(),
  name: z.string(),
  role: Role,
  tenant_ids: z.array(z.string()),
});

const adminDoc = { id: 'Admin', schema: Admin };
const withTokenDoc = { id: 'AdminWithToken', schema: AdminWithToken };

export const adminOperations: Operation[] = [
  {
    method: 'get',
    path: '/admin/me',
    access: { level: 'read', tenant: 'any' },
    summary: 'The calling admin: name, role and tenants',
    status: 200,
    response: { id: 'Me', schema: Me },
  },
  {
    method: 'post',
    path: '/admin/admins',
    access: { level: 'owner' },
    summary: 'Create an admin; its token is in this response only',
    body: { id: 'AdminCreate', schema: AdminCreate },
    status: 201,
    response: withTokenDoc,
  },
  {
    method: 'get',
    path: '/admin/admins',
    access: { level: 'owner' },
    summary: 'List admins, newest first (never tokens)',
    query: AdminListQuery,
    status: 200,
    response: { id: 'AdminList', schema: listOf(Admin) },
  },
  {
    method: 'get',
    path: '/admin/admins/{id}',
    access: { level: 'owner' },
    summary: 'Get an admin',
    status: 200,
    response: adminDoc,
  },
  {
    method: 'patch',
    path: '/admin/admins/{id}',
    access: { level: 'owner' },
    summary: 'Rename, change role or tenants, disable or enable an admin',
    body: { id: 'AdminUpdate', schema: AdminUpdate },
    status: 200,
    response: adminDoc,
  },
  {
    method: 'post',
    path: '/admin/admins/{id}/rotate',
    access: { level: 'owner' },
    summary: 'Issue a new token; the old one stops working at once',
    status: 200,
    response: withTokenDoc,
  },
  {
    method: 'delete',
    path: '/admin/admins/{id}',
    access: { level: 'owner' },
    summary: 'Delete an admin (its audit rows stay)',
    status: 200,
    response: adminDoc,
  },
];

const adminNotFound = (id: string) =>
  new GatewayError(404, `No admin with id '${id}'.`, { code: 'admin_not_found' });

const nameTaken = (name: string | undefined) =>
  new GatewayError(409, `An admin named '${name ?? ''}' already exists.`, {
    code: 'admin_name_taken',
    param: 'name',
  });

/** A tenant_admin needs existing tenants; no other role may have any. */
async function checkScope(c: Context<AppEnv>, role: AdminRole, tenantIds: readonly string[]): Promise<void> {
  if (role !== 'tenant_admin') {
    if (tenantIds.length > 0)
      throw badRequest('Only a tenant_admin has tenant_ids.', 'tenant_ids', 'invalid_request');
    return;
  }
  if (tenantIds.length === 0)
    throw badRequest(
      'A tenant_admin needs at least one tenant in tenant_ids.',
      'tenant_ids',
      'invalid_request',
    );
  for (const id of tenantIds) if (!(await c.var.deps.tenants.get(id))) throw tenantNotFound(id);
}

function withToken(c: Context<AppEnv>, issued: { admin: Admin; token: string }, status: 200 | 201) {
  c.header('cache-control', 'no-store');
  return c.json({ ...issued.admin, token: issued.token }, status);
}

export function adminsRouter(now: () => number = Date.now) {
  const router = new Hono<AppEnv>();
  const store = (c: Context<AppEnv>) => new D1AdminStore(c.var.adminDb);

  router.get('/me', (c) => {
    const who = c.var.adminPrincipal;
    return c.json({ id: who.id, name: who.name, role: who.role, tenant_ids: [...who.tenantIds] });
  });

  router.post('/admins', async (c) => {
    const input = await readBody(c, AdminCreate);
    const tenantIds = [...new Set(input.tenant_ids ?? [])];
    await checkScope(c, input.role, tenantIds);
    const made = await store(c).create(
      { name: input.name, role: input.role, tenant_ids: tenantIds },
      c.var.adminPrincipal.id,
      now(),
    );
    if (made === NAME_TAKEN) throw nameTaken(input.name);
    return withToken(c, made, 201);
  });

  router.get('/admins', async (c) => {
    const q = readQuery(c, AdminListQuery);
    return c.json(listBody(await store(c).list({ limit: q.limit, cursor: q.cursor ?? null })));
  });

  router.get('/admins/:id', async (c) => {
    const admin = await store(c).get(c.req.param('id'));
    if (!admin) throw adminNotFound(c.req.param('id'));
    return c.json(admin);
  });

  router.patch('/admins/:id', async (c) => {
    const id = c.req.param('id');
    const patch = await readBody(c, AdminUpdate);
    const current = await store(c).get(id);
    if (!current) throw adminNotFound(id);
    const role = patch.role ?? current.role;
    const tenantIds = patch.tenant_ids
      ? [...new Set(patch.tenant_ids)]
      : role === 'tenant_admin'
        ? current.tenant_ids
        : [];
    await checkScope(c, role, tenantIds);
    const updated = await store(c).update(id, { ...patch, tenant_ids: tenantIds }, now());
    if (updated === NAME_TAKEN) throw nameTaken(patch.name);
    if (!updated) throw adminNotFound(id);
    return c.json(updated);
  });

  router.post('/admins/:id/rotate', async (c) => {
    const rotated = await store(c).rotate(c.req.param('id'), now());
    if (!rotated) throw adminNotFound(c.req.param('id'));
    return withToken(c, rotated, 200);
  });

  router.delete('/admins/:id', async (c) => {
    const deleted = await store(c).delete(c.req.param('id'));
    if (!deleted) throw adminNotFound(c.req.param('id'));
    return c.json(deleted);
  });

  return router;
}
