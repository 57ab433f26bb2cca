/**
 * /admin/tenants/:id/provider-keys: a tenant's own provider keys (BYOK), so
 * the tenant's requests to that provider are billed to the tenant.
 *
 * A key is written (PUT: create or rotate) and deleted, never read back: it is
 * sealed with PROVIDER_KEYS_SECRET before it is stored, and every answer,
 * error and log carries at most its hint. Without a usable secret the write
 * answers 503 and nothing is stored. The sealed keys ride in the tenant's key
 * records, so each write invalidates all the tenant's keys before answering,
 * as a tenant change does.
 */
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { GatewayError, badRequest } from '../../core/errors';
import type { ProviderEntry } from '../../providers/types';
import { D1ProviderKeyStore, ProviderKeyInfo } from '../../storage/provider-keys';
import { providerKeyHint, sealProviderKey, secretProblem } from '../../util/provider-key-crypto';
import { invalidateHashes } from './invalidate';
import type { Operation } from '../operation';
import { ProviderKeyList, ProviderKeyPut } from '../schemas';
import { tenantNotFound } from './tenants';
import { readBody } from '../validate';

const BASE = '/admin/tenants/{id}/provider-keys';
const infoDoc = { id: 'ProviderKey', schema: ProviderKeyInfo };

export const providerKeyOperations: Operation[] = [
  {
    method: 'get',
    path: BASE,

    access: { level: 'read' },
    summary: "List a tenant's own provider keys (hints only, never the keys)",
    status: 200,
    response: { id: 'ProviderKeyList', schema: ProviderKeyList },
  },
  {
    method: 'put',
    path: `${BASE}/{provider}`,

    access: { level: 'write' },
    summary: "Store or rotate the tenant's own key for a provider; its requests there then use it",
    body: { id: 'ProviderKeyPut', schema: ProviderKeyPut },
    status: 200,
    mayCreate: true,
    response: infoDoc,
  },
  {
    method: 'delete',
    path: `${BASE}/{provider}`,

    access: { level: 'write' },
    summary: "Delete the tenant's own key for a provider; its requests there use the deployment's key again",
    status: 204,
  },
];

/** The tenant must exist; its keys' hashes are what a write makes stale. */
async function requireTenant(c: Context<AppEnv>, id: string): Promise<void> {
  if (!(await c.var.deps.tenants.get(id))) throw tenantNotFound(id);
}

/** Only a provider this deployment knows, and one that takes a tenant's key, may have one stored. */
function requireByokProvider(c: Context<AppEnv>, provider: string): ProviderEntry {
  const entry = c.var.deps.providers.entries().find((e) => e.id === provider);
  if (!entry) throw badRequest(`No provider '${provider}' on this gateway.`, 'provider', 'unknown_provider');
  if (!entry.acceptsTenantKeys) {
    throw badRequest(
      `Provider '${provider}' does not take a tenant's own key.`,
      'provider',
      'provider_key_not_supported',
    );
  }
  return entry;
}

/** A key the provider cannot even be set up with (e.g. Bedrock's `ID:SECRET` form) is refused now, not per request. */
function checkKeyShape(entry: ProviderEntry, key: string): void {
  try {
    entry.build(key);
  } catch (err) {
    if (!(err instanceof GatewayError) || err.status !== 400) throw err;
    throw badRequest(err.message, 'key', 'invalid_provider_key');
  }
}

async function invalidateTenant(c: Context<AppEnv>, tenantId: string): Promise<void> {
  const { apiKeys, keys } = c.var.deps;
  await invalidateHashes(keys, await apiKeys.tenantHashes(tenantId));
}

export function providerKeysRouter(now: () => number = Date.now) {
  const router = new Hono<AppEnv>();

  router.get('/:id/provider-keys', async (c) => {
    const id = c.req.param('id');
    await requireTenant(c, id);
    const data = await new D1ProviderKeyStore(c.var.adminDb).list(id);
    return c.json({ object: 'list', data, has_more: false, next_cursor: null });
  });

  router.put('/:id/provider-keys/:provider', async (c) => {
    const id = c.req.param('id');
    const provider = c.req.param('provider');
    const secret = c.env.PROVIDER_KEYS_SECRET;
    const problem = secretProblem(secret);
    if (problem !== null || secret === undefined) {
      throw new GatewayError(503, `Tenants' provider keys are disabled: ${problem ?? 'no secret'}.`, {
        code: 'provider_keys_unavailable',
      });
    }
    const { key } = await readBody(c, ProviderKeyPut);
    await requireTenant(c, id);
    checkKeyShape(requireByokProvider(c, provider), key);
    const sealed = await sealProviderKey(secret, id, provider, key);
    const saved = await new D1ProviderKeyStore(c.var.adminDb).put(
      id,
      provider,
      sealed,
      providerKeyHint(key),
      now(),
    );
    await invalidateTenant(c, id);
    return c.json(saved.info, saved.created ? 201 : 200);
  });

  router.delete('/:id/provider-keys/:provider', async (c) => {
    const id = c.req.param('id');
    const provider = c.req.param('provider');
    await requireTenant(c, id);
    // Not checked against the providers: a key for a provider since removed can still be deleted.
    if (!(await new D1ProviderKeyStore(c.var.adminDb).delete(id, provider))) {
      throw new GatewayError(404, `Tenant '${id}' has no key of its own for provider '${provider}'.`, {
        code: 'provider_key_not_found',
        param: 'provider',
      });
    }
    await invalidateTenant(c, id);
    return c.body(null, 204);
  });

  return router;
}
