/**
 * /admin/tenants: create, list, get, update, disable and enable. A tenant_admin's
 * list holds only the tenants in its scope.
 * A change to a tenant's status, limits, budgets, guardrails, alert thresholds, stored-response retention,
 * on_unsupported policy or scopes (end users, model and tag rules, tag keys, downgrade) is part of every one
 * of its keys' records, so those keys' cached lookups are invalidated before answering. A downgrade must
 * name a route the tenant can call (its own or a global one), else the write is a 400 naming the field.
 * Creating or renaming a tenant to a name another tenant has is done, with a `duplicate_name` warning
 * in the answer's `warnings` (names need not be unique, but two alike are easy to mistake).
 */
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { GatewayError } from '../../core/errors';
import { TENANT_SCOPE_FIELDS, type Tenant } from '../../storage/entities';
import type { TenantPatch } from '../../storage/tenant-store';
import { checkDowngradeRoutes, downgradeRoutes } from '../downgrade-routes';
import { invalidateHashes } from './invalidate';
import type { Operation } from '../operation';
import { listBody } from '../pagination';
import {
  Tenant as TenantSchema,
  TenantCreate,
  TenantList,
  TenantListQuery,
  TenantUpdate,
  TenantWritten,
  type Warning,
} from '../schemas';
import { readBody, readQuery } from '../validate';

const tenantDoc = { id: 'Tenant', schema: TenantSchema };
const writtenDoc = { id: 'TenantWritten', schema: TenantWritten };

export const tenantOperations: Operation[] = [
  {
    method: 'post',
    path: '/admin/tenants',

    access: { level: 'write' },
    summary: 'Create a tenant',
    body: { id: 'TenantCreate', schema: TenantCreate },
    status: 201,
    response: writtenDoc,
  },
  {
    method: 'get',
    path: '/admin/tenants',

    access: { level: 'read', tenant: 'list' },
    summary: 'List tenants, newest first',
    query: TenantListQuery,
    status: 200,
    response: { id: 'TenantList', schema: TenantList },
  },
  {
    method: 'get',
    path: '/admin/tenants/{id}',
    access: { level: 'read', tenant: 'path' },
    summary: 'Get a tenant',
    status: 200,
    response: tenantDoc,
  },
  {
    method: 'patch',
    path: '/admin/tenants/{id}',

    access: { level: 'write' },
    summary: 'Update a tenant (each given field is replaced whole)',
    body: { id: 'TenantUpdate', schema: TenantUpdate },
    status: 200,
    response: writtenDoc,
  },
  {
    method: 'post',
    path: '/admin/tenants/{id}/disable',

    access: { level: 'write' },
    summary: 'Disable a tenant: all its keys are refused',
    status: 200,
    response: tenantDoc,
  },
  {
    method: 'post',
    path: '/admin/tenants/{id}/enable',

    access: { level: 'write' },
    summary: 'Enable a disabled tenant',
    status: 200,
    response: tenantDoc,
  },
];

export function tenantNotFound(id: string): GatewayError {
  return new GatewayError(404, `No tenant with id '${id}'.`, {
    code: 'tenant_not_found',
    param: 'tenant_id',
  });
}

/** Applies a patch and invalidates the keys whose records it changes. */
async function updateTenant(
  c: Context<AppEnv>,
  id: string,
  patch: TenantPatch,
  now: number,
): Promise<Tenant> {
  const { tenants, apiKeys, keys } = c.var.deps;
  await checkDowngradeRoutes(c.env.DB, id, downgradeRoutes(patch));
  const tenant = await tenants.update(id, patch, now);
  if (!tenant) throw tenantNotFound(id);
  const { status, limits, budgets, guardrails, alerts, responses_retention_days, on_unsupported } = patch;
  const inRecords = [status, limits, budgets, guardrails, alerts, responses_retention_days, on_unsupported];
  const scopes = TENANT_SCOPE_FIELDS.map((field) => patch[field]);
  if ([...inRecords, ...scopes].some((field) => field !== undefined)) {
    await invalidateHashes(keys, await apiKeys.tenantHashes(id));
  }
  return tenant;
}

/** The warnings of naming tenant `id` (null: a new one) `name`: other tenants already called so. */
async function nameWarnings(
  c: Context<AppEnv>,
  name: string | undefined,
  id: string | null,
): Promise<Warning[]> {
  if (name === undefined) return [];
  const same = await c.var.deps.tenants.sameName(name, id);
  if (same.length === 0) return [];
  const ids = same.map((t) => t.id);
  const message = `Another tenant is already named '${same[0]!.name}' (${ids.join(', ')}); names need not be unique, so this one was saved.`;
  return [{ code: 'duplicate_name', message, tenant_ids: ids }];
}

export function tenantsRouter(now: () => number = Date.now) {
  const router = new Hono<AppEnv>();

  router.post('/', async (c) => {
    const input = await readBody(c, TenantCreate);
    // A new tenant has no routes of its own yet: its downgrades may name global routes only.
    await checkDowngradeRoutes(c.env.DB, '', downgradeRoutes(input));
    const tenant = await c.var.deps.tenants.create(input, now());
    return c.json({ ...tenant, warnings: await nameWarnings(c, input.name, tenant.id) }, 201);
  });

  router.get('/', async (c) => {
    const query = readQuery(c, TenantListQuery);
    const who = c.var.adminPrincipal;
    const page = await c.var.deps.tenants.list(
      { limit: query.limit, cursor: query.cursor ?? null },
      { status: query.status, ...(who.role === 'tenant_admin' ? { ids: who.tenantIds } : {}) },
    );
    return c.json(listBody(page));
  });

  router.get('/:id', async (c) => {
    const id = c.req.param('id');
    const tenant = await c.var.deps.tenants.get(id);
    if (!tenant) throw tenantNotFound(id);
    return c.json(tenant);
  });

  router.patch('/:id', async (c) => {
    const patch = await readBody(c, TenantUpdate);
    const tenant = await updateTenant(c, c.req.param('id'), patch, now());
    return c.json({ ...tenant, warnings: await nameWarnings(c, patch.name, tenant.id) });
  });

  router.post('/:id/disable', async (c) =>
    c.json(await updateTenant(c, c.req.param('id'), { status: 'disabled' }, now())),
  );
  router.post('/:id/enable', async (c) =>
    c.json(await updateTenant(c, c.req.param('id'), { status: 'active' }, now())),
  );

  return router;
}
