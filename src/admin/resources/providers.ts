/**
 * /admin/providers: the providers this deployment knows, whether its own
 * configuration makes each usable (a key, a binding, or none needed), whether
 * tenants may bring their own key for it, and how many do. Never a key, never
 * the name of the secret holding one.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../context';
import type { ProviderEntry } from '../../providers/types';
import { D1ProviderKeyStore } from '../../storage/provider-keys';
import type { Operation } from '../operation';

export const ProviderInfo = z.object({
  id: z.string().describe('The provider id, as in provider/model.'),
  configured: z
    .boolean()
    .describe("Usable with the deployment's own configuration: its key or binding is set, or it needs none."),
  keyless: z.boolean().describe('Works without any key (a self-hosted server, a binding).'),
  accepts_tenant_keys: z.boolean().describe('A tenant may store its own key for it (BYOK).'),
  tenants_with_own_key: z.number().int().nonnegative(),
  models: z.array(z.string()).describe('Model ids it offers beyond the priced catalogue.'),
});
export type ProviderInfo = z.infer<typeof ProviderInfo>;

export const ProviderList = z.object({
  object: z.literal('list'),
  data: z.array(ProviderInfo),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});

export const providerOperations: Operation[] = [
  {
    method: 'get',
    path: '/admin/providers',

    access: { level: 'read' },
    summary: 'List the providers, whether each is configured, and which take tenants’ own keys',
    status: 200,
    response: { id: 'ProviderList', schema: ProviderList },
  },
];

/** One entry as the API shows it (pure). */
export function providerInfo(entry: ProviderEntry, tenants: Readonly<Record<string, number>>): ProviderInfo {
  return {
    id: entry.id,
    configured: entry.deploymentKey !== null || entry.keyless,
    keyless: entry.keyless,
    accepts_tenant_keys: entry.acceptsTenantKeys,
    tenants_with_own_key: tenants[entry.id] ?? 0,
    models: entry.models.map((m) => `${entry.id}/${m}`),
  };
}

export function providersRouter() {
  const router = new Hono<AppEnv>();
  router.get('/', async (c) => {
    const tenants = await new D1ProviderKeyStore(c.env.DB).tenantsByProvider();
    const data = c.var.deps.providers.entries().map((e) => providerInfo(e, tenants));
    return c.json({ object: 'list', data, has_more: false, next_cursor: null });
  });
  return router;
}
