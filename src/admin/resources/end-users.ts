/**
 * /admin/tenants/:id/end-users: a tenant's end users, one at a time (docs/limits.md, "Setting scopes").
 * - GET …/end-users/:user: the user's override (null: the tenant's `end_users` default applies), that
 *   default, the rule in force, and the user's counters beside it (a usage report with its status);
 * - PUT …/end-users/:user (a ScopeRule): the user's own limits and budgets instead of the default;
 * - DELETE …/end-users/:user: back to the default (idempotent);
 * - GET …/end-users/overrides: every override the tenant has set, by user id (a fan-out over its shards).
 * Overrides live in the shard object that counts the user (src/limits/shards.ts), so the next request
 * of that user meets the new rule at once, with no cache to wait for. Setting one on a tenant whose end
 * users are not metered (`end_users` null) turns metering on with no default (`{limits: {}, budgets: {}}`),
 * so the override is enforced; the tenant's key records are then invalidated like any tenant change.
 * Each change gets an audit row on the tenant (src/storage/end-user-audit.ts). A downgrade must name a
 * route the tenant can call. A tenant_admin may call these on its own tenants.
 */
import { Hono, type Context } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../context';
import { ScopeRule } from '../../core/settings';
import { USER_SHARDS, userShard, userShardName } from '../../limits/shards';
import { validEndUser } from '../../limits/end-user';
import type { UserShardRpc } from '../../limits/protocol';
import { UsageReport, usageReport } from '../../limits/report';
import type { Tenant } from '../../storage/entities';
import { recordOverrideChange } from '../../storage/end-user-audit';
import { checkDowngradeRoutes, downgradeRoutes } from '../downgrade-routes';
import type { Operation } from '../operation';
import { invalidateHashes } from './invalidate';
import { tenantNotFound } from './tenants';
import { readBody, readQuery } from '../validate';

export const EndUserView = z.object({
  tenant_id: z.string(),
  user: z.string(),
  metered: z.boolean().describe("Whether the tenant meters its end users (its end_users isn't null)."),
  override: ScopeRule.nullable().describe("This user's own rule; null: the tenant's default applies."),
  default: ScopeRule.nullable().describe("The tenant's end_users: every user's rule unless overridden."),
  effective: ScopeRule.nullable().describe('The rule in force for this user; null when not metered.'),
  usage: UsageReport,
});
export type EndUserView = z.output<typeof EndUserView>;

export const OverrideList = z.object({
  object: z.literal('list'),
  data: z.array(z.object({ user: z.string(), rule: ScopeRule })),
  has_more: z.boolean(),
});
export const OverrideListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('At most this many, by user id.'),
});

const viewDoc = { id: 'EndUser', schema: EndUserView };
const USER_PATH = '/admin/tenants/{id}/end-users/{user}';

export const endUserOperations: Operation[] = [
  {
    method: 'get',
    path: '/admin/tenants/{id}/end-users/overrides',
    access: { level: 'read', tenant: 'path' },
    summary: 'Every end user of the tenant with an override, by user id, and the override',
    query: OverrideListQuery,
    status: 200,
    response: { id: 'EndUserOverrideList', schema: OverrideList },
  },
  {
    method: 'get',
    path: USER_PATH,
    access: { level: 'read', tenant: 'path' },
    summary: "An end user's override, the tenant's default, the rule in force, and the user's usage",
    status: 200,
    response: viewDoc,
  },
  {
    method: 'put',
    path: USER_PATH,
    access: { level: 'write', tenant: 'path' },
    summary: "Set an end user's own limits and budgets (in place of the tenant's end_users default)",
    body: { id: 'EndUserRule', schema: ScopeRule },
    status: 200,
    response: viewDoc,
  },
  {
    method: 'delete',
    path: USER_PATH,
    access: { level: 'write', tenant: 'path' },
    summary: "Remove an end user's override: the tenant's default applies again (idempotent)",
    status: 200,
    response: viewDoc,
  },
];

function userParam(c: Context<AppEnv>): string {
  return validEndUser(c.req.param('user') ?? '', 'user');
}

const shardOf = (c: Context<AppEnv>, tenantId: string, user: string): UserShardRpc =>
  userShard(c.env.LIMITER, tenantId, user);

async function tenantOf(c: Context<AppEnv>): Promise<Tenant> {
  const id = c.req.param('id') ?? '';
  const tenant = await c.var.deps.tenants.get(id);
  if (!tenant) throw tenantNotFound(id);
  return tenant;
}

const NO_RULE: ScopeRule = { limits: {}, budgets: {} };

async function view(c: Context<AppEnv>, tenant: Tenant, user: string, now: number): Promise<EndUserView> {
  const { override, dump } = await shardOf(c, tenant.id, user).userState(user);
  const metered = tenant.end_users !== null;
  const effective = metered ? (override ?? tenant.end_users) : null;
  const rule = effective ?? NO_RULE;
  const settings = { limits: rule.limits, budgets: rule.budgets, downgrade: rule.downgrade ?? null };
  return {
    tenant_id: tenant.id,
    user,
    metered,
    override,
    default: tenant.end_users,
    effective,
    usage: usageReport({ scope: 'user', id: user, tenantId: tenant.id, settings }, dump, now),
  };
}

/** Sets or removes the override, turns metering on if it must, and records the change. */
async function change(c: Context<AppEnv>, tenant: Tenant, user: string, rule: ScopeRule | null, now: number) {
  const shard = shardOf(c, tenant.id, user);
  const { override: before } = await shard.userState(user);
  await shard.setOverride(user, rule);
  let current = tenant;
  if (rule !== null && tenant.end_users === null) {
    const metered = await c.var.deps.tenants.meterEndUsers(tenant.id, now);
    if (metered) {
      current = metered;
      await invalidateHashes(c.var.deps.keys, await c.var.deps.apiKeys.tenantHashes(tenant.id));
    }
  }
  if (JSON.stringify(before) !== JSON.stringify(rule))
    await recordOverrideChange(c.var.adminDb, tenant.id, user, before, rule);
  return current;
}

export function endUsersRouter(now: () => number = Date.now) {
  const router = new Hono<AppEnv>();

  router.get('/:id/end-users/overrides', async (c) => {
    const { limit } = readQuery(c, OverrideListQuery);
    const tenant = await tenantOf(c);
    const ns = c.env.LIMITER;
    const shards = Array.from(
      { length: USER_SHARDS },
      (_, n): UserShardRpc => ns.get(ns.idFromName(userShardName(tenant.id, n))),
    );
    const lists = await Promise.all(shards.map((shard) => shard.listOverrides(limit + 1)));
    const all = lists.flat().sort((a, b) => (a.user < b.user ? -1 : a.user > b.user ? 1 : 0));
    return c.json({ object: 'list' as const, data: all.slice(0, limit), has_more: all.length > limit });
  });

  router.get('/:id/end-users/:user{.+}', async (c) => {
    const tenant = await tenantOf(c);
    return c.json(await view(c, tenant, userParam(c), now()));
  });

  router.put('/:id/end-users/:user{.+}', async (c) => {
    const user = userParam(c);
    const rule = await readBody(c, ScopeRule);
    const tenant = await tenantOf(c);
    await checkDowngradeRoutes(c.env.DB, tenant.id, downgradeRoutes({ downgrade: rule.downgrade }));
    const at = now();
    return c.json(await view(c, await change(c, tenant, user, rule, at), user, at));
  });

  router.delete('/:id/end-users/:user{.+}', async (c) => {
    const user = userParam(c);
    const tenant = await tenantOf(c);
    const at = now();
    return c.json(await view(c, await change(c, tenant, user, null, at), user, at));
  });

  return router;
}
