/**
 * /admin/usage: the daily rollups, per day or per model, for everything, a
 * tenant or a key (with both, a key of another tenant reads as zero usage).
 * Days are UTC and inclusive; the default range is the last 30 days, the
 * longest 400.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../context';
import { utcDay } from '../../logs/rows';
import { GuardrailDay, guardrailUsage } from '../../logs/read/guardrails';
import { UsageReader, UsageTotals } from '../../logs/read/usage';
import { badRequest } from '../../core/errors';
import { TimeParam } from './logs';
import type { Operation } from '../operation';
import { readQuery } from '../validate';

const Id = z.string().min(1).max(64);
const MAX_DAYS = 400;
const DAY_MS = 86_400_000;

const Day = TimeParam.transform((t) => utcDay(t)).describe('A UTC day (YYYY-MM-DD), or any time within it.');

export const UsageQuery = z.strictObject({
  tenant_id: Id.optional(),
  key_id: Id.optional(),
  from: Day.optional().describe('First day, inclusive; default 29 days before `to`.'),
  to: Day.optional().describe('Last day, inclusive; default today (UTC).'),
  group_by: z.enum(['day', 'model']).default('day'),
});

export const UsageReport = z.object({
  object: z.literal('usage'),
  group_by: z.enum(['day', 'model']),
  from: z.string(),
  to: z.string(),
  tenant_id: z.string().nullable(),
  key_id: z.string().nullable(),
  data: z.array(UsageTotals.extend({ day: z.string().optional(), model: z.string().nullable().optional() })),
  totals: UsageTotals,
  guardrails: z
    .array(GuardrailDay)
    .describe(
      'Per day and guardrail in the same range and scope: requests fired on, blocked, values redacted.',
    ),
});

export const usageOperations: Operation[] = [
  {
    method: 'get',
    path: '/admin/usage',

    access: { level: 'read', tenant: 'query' },
    summary: 'Usage rollups per day or per model, for everything, a tenant or a key',
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
    const [report, guardrails] = await Promise.all([
      new UsageReader(c.env.DB).query({ ...scope, groupBy: q.group_by }),
      guardrailUsage(c.env.DB, scope),
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
    });
  });

  return router;
}
