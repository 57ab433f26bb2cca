/**
 * /admin/usage: the daily rollups, per day or per model, for everything, a
 * tenant or a key (with both, a key of another tenant reads as zero usage);
 * or, for one tenant, its top end users or tag values by spend
 * (`group_by=end_user|tag`, `limit`, `search`; src/logs/read/top-usage.ts). Every report also carries
 * the guardrail counts and the MCP tool calls (per server and tool) of the same range and scope: tool
 * calls are not model requests, so they are never in `data` or `totals`.
 * Days are UTC and inclusive; the default range is the last 30 days, the
 * longest 400.
 */
import { type Context, Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../context';
import { utcDay } from '../../logs/rows';
import { GuardrailDay, guardrailUsage } from '../../logs/read/guardrails';
import { MCP_USAGE_MAX, McpUsage, mcpUsage } from '../../logs/read/mcp-usage';
import { tagKeys, type TopUsage, topUsage } from '../../logs/read/top-usage';
import { UsageReader, UsageTotals } from '../../logs/read/usage';
import { badRequest } from '../../core/errors';
import { TagKey } from '../../core/settings';
import { TimeParam } from './logs';
import type { Operation } from '../operation';
import { readQuery } from '../validate';

const Id = z.string().min(1).max(64);
const GROUPS = ['day', 'model', 'end_user', 'tag'] as const;
const DEFAULT_TOP = 20;
const MAX_TOP = 500;
const MAX_DAYS = 400;
const DAY_MS = 86_400_000;

const Day = TimeParam.transform((t) => utcDay(t)).describe('A UTC day (YYYY-MM-DD), or any time within it.');

export const UsageQuery = z.strictObject({
  tenant_id: Id.optional(),
  key_id: Id.optional(),
  from: Day.optional().describe('First day, inclusive; default 29 days before `to`.'),
  to: Day.optional().describe('Last day, inclusive; default today (UTC).'),
  group_by: z
    .enum(GROUPS)
    .default('day')
    .describe('day or model; end_user or tag (one tenant: tenant_id required, key_id not accepted).'),
  tag: TagKey.optional().describe(
    'group_by=tag: the cf-aig-metadata key; without it, every tag=value pair is a group (a request with two tags counts in both).',
  ),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_TOP)
    .optional()
    .describe(
      `group_by=end_user|tag: the top N groups by cost (default ${DEFAULT_TOP}, at most ${MAX_TOP}).`,
    ),
  search: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .describe('group_by=end_user|tag: only end users (or tag values) whose id starts with this.'),
});

export const UsageReport = z.object({
  object: z.literal('usage'),
  group_by: z.enum(GROUPS),
  from: z.string(),
  to: z.string(),
  tenant_id: z.string().nullable(),
  key_id: z.string().nullable(),
  data: z.array(
    UsageTotals.extend({
      day: z.string().optional(),
      model: z.string().nullable().optional(),
      end_user: z.string().optional(),
      tag: z.string().optional(),
      value: z.string().optional(),
    }),
  ),
  totals: UsageTotals.describe(
    'The sum over every group that matched; for end_user and tag, not only the top ones returned.',
  ),
  groups: z
    .number()
    .optional()
    .describe(
      'group_by=end_user|tag: how many end users (or tag values) matched; data holds the top `limit`.',
    ),
  has_more: z.boolean().optional().describe('group_by=end_user|tag: more groups matched than were returned.'),
  tag: z
    .string()
    .nullable()
    .optional()
    .describe('group_by=tag: the tag key asked for, or null for every key.'),
  tag_keys: z
    .array(z.string())
    .optional()
    .describe(
      "group_by=tag: the tag keys the tenant's usage was rolled up by in the range, and those it is set to roll up by (tag_keys and its tag rules' keys).",
    ),
  search: z.string().nullable().optional(),
  guardrails: z
    .array(GuardrailDay)
    .describe(
      'Per day and guardrail in the same range and scope: requests fired on, blocked, values redacted.',
    ),
  mcp_calls: z
    .array(McpUsage)
    .describe(
      `MCP calls in the same range and scope (for end_user and tag, the whole tenant's), per server, method and tool, most-called first (at most ${MCP_USAGE_MAX}); not counted in data or totals.`,
    ),
});

export const usageOperations: Operation[] = [
  {
    method: 'get',
    path: '/admin/usage',

    access: { level: 'read', tenant: 'query' },
    summary:
      "Usage rollups per day or per model (everything, a tenant or a key), or a tenant's top end users or tag values by spend",
    query: UsageQuery,
    status: 200,
    response: { id: 'UsageRollupReport', schema: UsageReport },
  },
];

export function usageRouter(now: () => number = Date.now) {
  const router = new Hono<AppEnv>();

  router.get('/', async (c) => {
    const q = readQuery(c, UsageQuery);
    const to = q.to ?? utcDay(now());
    const from = q.from ?? utcDay(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS);
    const span = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
    if (span < 1) throw badRequest('`from` must not be after `to`.', 'from', 'invalid_range');
    if (span > MAX_DAYS)
      throw badRequest(`The range spans ${span} days; the most is ${MAX_DAYS}.`, 'from', 'invalid_range');
    const scope = { tenantId: q.tenant_id, keyId: q.key_id, from, to };
    if (q.group_by === 'end_user' || q.group_by === 'tag') {
      const tenantId = topScope(q);
      const group =
        q.group_by === 'tag' ? { kind: 'tag' as const, tag: q.tag } : { kind: 'end_user' as const };
      const top = { tenantId, from, to, limit: q.limit ?? DEFAULT_TOP, search: q.search };
      const [report, guardrails, mcpCalls, keys] = await Promise.all([
        topUsage(c.env.DB, group, top),
        guardrailUsage(c.env.DB, scope),
        mcpUsage(c.env.DB, scope),
        q.group_by === 'tag' ? tagKeysOf(c, tenantId, from, to) : null,
      ]);
      return c.json({
        object: 'usage',
        group_by: q.group_by,
        from,
        to,
        tenant_id: tenantId,
        key_id: null,
        ...topBody(report),
        ...(keys ? { tag: q.tag ?? null, tag_keys: keys } : {}),
        search: q.search ?? null,
        guardrails,
        mcp_calls: mcpCalls,
      });
    }
    for (const param of ['tag', 'limit', 'search'] as const) {
      if (q[param] === undefined) continue;
      const groups = param === 'tag' ? 'group_by=tag' : 'group_by=end_user or tag';
      throw badRequest(`\`${param}\` applies to ${groups}.`, param, 'invalid_parameter');
    }
    const [report, guardrails, mcpCalls] = await Promise.all([
      new UsageReader(c.env.DB).query({ ...scope, groupBy: q.group_by }),
      guardrailUsage(c.env.DB, scope),
      mcpUsage(c.env.DB, scope),
    ]);
    return c.json({
      object: 'usage',
      group_by: q.group_by,
      from,
      to,
      tenant_id: q.tenant_id ?? null,
      key_id: q.key_id ?? null,
      ...report,
      guardrails,
      mcp_calls: mcpCalls,
    });
  });

  return router;
}

/** End users and tags are a tenant's own: the tenant is required, and a key filter does not apply. */
function topScope(q: z.output<typeof UsageQuery>): string {
  const what = q.group_by === 'tag' ? 'tag' : 'end user';
  if (q.key_id !== undefined)
    throw badRequest(
      `Usage per ${what} is kept per tenant, not per key: drop key_id.`,
      'key_id',
      'invalid_parameter',
    );
  if (q.tenant_id === undefined)
    throw badRequest(`Usage per ${what} needs tenant_id.`, 'tenant_id', 'missing_parameter');
  if (q.group_by === 'end_user' && q.tag !== undefined)
    throw badRequest('`tag` applies to group_by=tag.', 'tag', 'invalid_parameter');
  return q.tenant_id;
}

function topBody(r: TopUsage) {
  return { data: r.data, totals: r.totals, groups: r.groups, has_more: r.groups > r.data.length };
}

/** The tag keys with usage in the range and those the tenant names (its tag_keys and tag rules), sorted. */
async function tagKeysOf(c: Context<AppEnv>, tenantId: string, from: string, to: string): Promise<string[]> {
  const [used, tenant] = await Promise.all([
    tagKeys(c.env.DB, tenantId, from, to),
    c.var.deps.tenants.get(tenantId),
  ]);
  const named = tenant ? [...tenant.tag_keys, ...tenant.tag_limits.map((r) => r.tag)] : [];
  return [...new Set([...used, ...named])].sort();
}
