/**
 * Admin routes of the limits stage:
 * - GET /admin/limits/tenants/:id and /admin/limits/keys/:id: configured
 *   limits and budgets (D1, set through PATCH /admin/tenants|keys/:id) beside
 *   current usage and what remains (the tenant's Limiter object), and its
 *   status for a badge (src/limits/report.ts scopeState).
 * - /admin/pricing: per-model price overrides (USD per 1M tokens) over the
 *   built-in table. Model ids contain slashes, so `:model` takes the rest of
 *   the path (`PUT /admin/pricing/openai/gpt-4o`).
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../context';
import { GatewayError } from '../../core/errors';
import { listOverrides, setOverride } from '../../limits/price-overrides';
import type { ScopeRule } from '../../core/settings';
import type { LimiterReads } from '../../limits/protocol';
import { type ScopeReport, UsageReport, usageReport } from '../../limits/report';
import { modelScopeId, tagScopeId } from '../../limits/scopes';
import { PRICING, type Price, priceWithDefaults } from '../../core/pricing';
import type { Operation } from '../operation';
import { tenantNotFound } from './tenants';
import { readBody } from '../validate';

const rate = z.number().nonnegative().max(1_000_000).describe('USD per 1M tokens');

export const PriceInput = z.strictObject({
  input: rate.describe('Uncached prompt tokens, USD per 1M'),
  output: rate.describe('Output tokens, reasoning included, USD per 1M'),
  cached: rate.optional().describe('Prompt-cache reads; defaults to the input price'),
  cache_write: rate
    .optional()
    .describe('Prompt-cache writes with the 5-minute TTL; defaults to the input price'),
  cache_write_1h: rate
    .optional()
    .describe('Prompt-cache writes with the 1-hour TTL; defaults to cache_write'),
});

const PriceFields = {
  input: z.number(),
  output: z.number(),
  cached: z.number(),
  cache_write: z.number(),
  cache_write_1h: z.number(),
};

export const EffectivePrice = z.object({
  model: z.string(),
  ...PriceFields,
  source: z.enum(['override', 'catalog', 'default']),
});
export type EffectivePrice = z.infer<typeof EffectivePrice>;

export const PriceList = z.object({
  default: z.object(PriceFields),
  overrides: z.record(z.string(), z.object(PriceFields)),
});

const usageDoc = { id: 'UsageReport', schema: UsageReport };
const priceDoc = { id: 'EffectivePrice', schema: EffectivePrice };

export const limitsOperations: Operation[] = [
  {
    method: 'get',
    path: '/admin/limits/tenants/{id}',

    access: { level: 'read', tenant: 'path' },
    summary: "A tenant's limits and budgets, current usage and what remains",
    status: 200,
    response: usageDoc,
  },
  {
    method: 'get',
    path: '/admin/limits/keys/{id}',

    access: { level: 'read', tenant: 'key' },
    summary: "A key's limits and budgets, current usage and what remains",
    status: 200,
    response: usageDoc,
  },
  {
    method: 'get',
    path: '/admin/pricing',

    access: { level: 'read' },
    summary: 'The default price and every per-model override',
    status: 200,
    response: { id: 'PriceList', schema: PriceList },
  },
  {
    method: 'get',
    path: '/admin/pricing/{model}',

    access: { level: 'read' },
    summary: 'The price in force for a model (the id may contain slashes)',
    status: 200,
    response: priceDoc,
  },
  {
    method: 'put',
    path: '/admin/pricing/{model}',

    access: { level: 'write' },
    summary: "Override a model's price, USD per 1M tokens",
    body: { id: 'PriceInput', schema: PriceInput },
    status: 200,
    response: priceDoc,
  },
  {
    method: 'delete',
    path: '/admin/pricing/{model}',

    access: { level: 'write' },
    summary: "Remove a model's override; answers the price now in force",
    status: 200,
    response: priceDoc,
  },
];

function effective(model: string, overrides: Readonly<Record<string, Price>>): EffectivePrice {
  const override = overrides[model];
  if (override) return { model, ...override, source: 'override' };
  const listed = PRICING.models[model];
  return listed ? { model, ...listed, source: 'catalog' } : { model, ...PRICING.default, source: 'default' };
}

/** Each model or tag rule's report, read from the tenant's object in parallel. */
function ruleReportsOf(
  reads: LimiterReads,
  rules: readonly { scope: 'model' | 'tag'; id: string; scopeId: string; rule: ScopeRule }[],
  tenantId: string,
  changedAt: number,
  at: number,
): Promise<ScopeReport[]> {
  return Promise.all(
    rules.map(async ({ scope, id, scopeId, rule }) =>
      usageReport(
        {
          scope,
          id,
          tenantId,
          settings: { limits: rule.limits, budgets: rule.budgets },
          settingsChangedAt: changedAt,
        },
        await reads.dumpScope(scopeId),
        at,
      ),
    ),
  );
}

export function limitsRouter(now: () => number = Date.now) {
  const router = new Hono<AppEnv>();

  router.get('/limits/tenants/:id', async (c) => {
    const id = c.req.param('id');
    const tenant = await c.var.deps.tenants.get(id);
    if (!tenant) throw tenantNotFound(id);
    const reads = c.var.deps.limiterReads(id);
    const settings = { limits: tenant.limits, budgets: tenant.budgets };
    const subject = {
      scope: 'tenant',
      id,
      tenantId: id,
      settings,
      settingsChangedAt: tenant.updated_at,
    } as const;
    const rules = [
      ...tenant.model_limits.map((r) => ({
        scope: 'model' as const,
        id: r.match,
        scopeId: modelScopeId(r.match, null),
        rule: r,
      })),
      ...tenant.tag_limits.flatMap((r) =>
        r.value === undefined
          ? []
          : [
              {
                scope: 'tag' as const,
                id: `${r.tag}=${r.value}`,
                scopeId: tagScopeId(r.tag, r.value),
                rule: r,
              },
            ],
      ),
    ];
    const [dump, ruleReports] = await Promise.all([
      reads.dump(null),
      ruleReportsOf(reads, rules, id, tenant.updated_at, now()),
    ]);
    return c.json({ ...usageReport(subject, dump, now()), rules: ruleReports });
  });

  router.get('/limits/keys/:id', async (c) => {
    const id = c.req.param('id');
    const key = await c.var.deps.apiKeys.get(id);
    if (!key) throw new GatewayError(404, `No key with id '${id}'.`, { code: 'key_not_found', param: 'id' });
    const reads = c.var.deps.limiterReads(key.tenant_id);
    const settings = { limits: key.limits, budgets: key.budgets };
    const subject = {
      scope: 'key',
      id,
      tenantId: key.tenant_id,
      settings,
      settingsChangedAt: key.updated_at,
    } as const;
    const rules = key.model_limits.map((r) => ({
      scope: 'model' as const,
      id: r.match,
      scopeId: modelScopeId(r.match, id),
      rule: r,
    }));
    const [dump, ruleReports] = await Promise.all([
      reads.dump(id),
      ruleReportsOf(reads, rules, key.tenant_id, key.updated_at, now()),
    ]);
    return c.json({ ...usageReport(subject, dump, now()), rules: ruleReports });
  });

  router.get('/pricing', async (c) =>
    c.json({ default: PRICING.default, overrides: await listOverrides(c.var.adminDb) }),
  );

  router.get('/pricing/:model{.+}', async (c) =>
    c.json(effective(c.req.param('model'), await listOverrides(c.var.adminDb))),
  );

  router.put('/pricing/:model{.+}', async (c) => {
    const model = c.req.param('model');
    const input = await readBody(c, PriceInput);
    await setOverride(c.var.adminDb, c.env.KV_KEYS, model, priceWithDefaults(input));
    return c.json(effective(model, await listOverrides(c.var.adminDb)));
  });

  router.delete('/pricing/:model{.+}', async (c) => {
    const model = c.req.param('model');
    if (!(await setOverride(c.var.adminDb, c.env.KV_KEYS, model, null))) {
      throw new GatewayError(404, `No price override for '${model}'.`, {
        code: 'price_override_not_found',
        param: 'model',
      });
    }
    return c.json(effective(model, await listOverrides(c.var.adminDb)));
  });

  return router;
}
