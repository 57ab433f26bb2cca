/**
 * /admin/keys: create, list by tenant, get, update, rotate and revoke.
 *
 * The secret appears in exactly two responses, create and rotate, both sent
 * with `cache-control: no-store`; nothing else (lists, gets, updates, errors,
 * logs) ever carries it or its hash. Every write invalidates the affected
 * hashes' cached lookups before answering, so it is in force on the very next
 * request here. Single-key routes take an optional `?tenant_id=` that scopes
 * them: another tenant's key is then a 404, as if it did not exist.
 * A key's downgrades (its own, its model rules') must name a route its tenant can call.
 */
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { GatewayError, badRequest } from '../../core/errors';
import type { ApiKey } from '../../storage/entities';
import type { IssuedKey, KeyScope } from '../../storage/key-admin-store';
import { checkDowngradeRoutes, downgradeRoutes } from '../downgrade-routes';
import { invalidateHashes } from './invalidate';
import type { Operation } from '../operation';
import { listBody } from '../pagination';
import {
  ApiKey as ApiKeySchema,
  KeyCreate,
  KeyList,
  KeyListQuery,
  KeyRotate,
  KeyScopeQuery,
  KeyUpdate,
  KeyWithSecret,
} from '../schemas';
import { tenantNotFound } from './tenants';
import { readBody, readQuery } from '../validate';

const keyDoc = { id: 'ApiKey', schema: ApiKeySchema };
const withSecretDoc = { id: 'ApiKeyWithSecret', schema: KeyWithSecret };

export const keyOperations: Operation[] = [
  {
    method: 'post',
    path: '/admin/keys',

    access: { level: 'write', tenant: 'body' },
    summary: 'Create a key; the secret is in this response only',
    body: { id: 'KeyCreate', schema: KeyCreate },
    status: 201,
    response: withSecretDoc,
  },
  {
    method: 'get',
    path: '/admin/keys',

    access: { level: 'read', tenant: 'query' },
    summary: "List a tenant's keys, newest first (never secrets)",
    query: KeyListQuery,
    status: 200,
    response: { id: 'KeyList', schema: KeyList },
  },
  {
    method: 'get',
    path: '/admin/keys/{id}',

    access: { level: 'read', tenant: 'key' },
    summary: 'Get a key',
    query: KeyScopeQuery,
    status: 200,
    response: keyDoc,
  },
  {
    method: 'patch',
    path: '/admin/keys/{id}',

    access: { level: 'write', tenant: 'key' },
    summary: 'Update a key (each given field is replaced whole)',
    query: KeyScopeQuery,
    body: { id: 'KeyUpdate', schema: KeyUpdate },
    status: 200,
    response: keyDoc,
  },
  {
    method: 'post',
    path: '/admin/keys/{id}/rotate',

    access: { level: 'write', tenant: 'key' },
    summary: 'Issue a new secret; the old one keeps working for grace_seconds',
    query: KeyScopeQuery,
    body: { id: 'KeyRotate', schema: KeyRotate },
    optionalBody: true,
    status: 200,
    response: withSecretDoc,
  },
  {
    method: 'delete',
    path: '/admin/keys/{id}',

    access: { level: 'write', tenant: 'key' },
    summary: 'Revoke a key (idempotent)',
    query: KeyScopeQuery,
    status: 200,
    response: keyDoc,
  },
];

function keyNotFound(id: string): GatewayError {
  return new GatewayError(404, `No API key with id '${id}'.`, { code: 'key_not_found' });
}

/** A past expiry is almost always seconds sent where milliseconds are expected; revoke to end a key now. */
function checkExpiry(expiresAt: number | null | undefined, now: number): void {
  if (expiresAt != null && expiresAt <= now) {
    throw badRequest(
      'expires_at must be in the future, in epoch milliseconds.',
      'expires_at',
      'invalid_expiry',
    );
  }
}

function scopeOf(c: Context<AppEnv>): KeyScope {
  return { tenantId: readQuery(c, KeyScopeQuery).tenant_id };
}

function withSecret(c: Context<AppEnv>, issued: IssuedKey, status: 200 | 201): Response {
  c.header('cache-control', 'no-store');
  const body: ApiKey & { key: string } = { ...issued.key, key: issued.secret };
  return c.json(body, status);
}

export function keysRouter(now: () => number = Date.now) {
  const router = new Hono<AppEnv>();

  router.post('/', async (c) => {
    const input = await readBody(c, KeyCreate);
    const at = now();
    checkExpiry(input.expires_at, at);
    const { tenants, apiKeys, keys } = c.var.deps;
    const tenant = await tenants.get(input.tenant_id);
    if (!tenant) throw tenantNotFound(input.tenant_id);
    await checkDowngradeRoutes(c.env.DB, tenant.id, downgradeRoutes(input));
    if (tenant.status !== 'active') {
      throw new GatewayError(409, `Tenant '${tenant.id}' is disabled; enable it before creating keys.`, {
        code: 'tenant_disabled',
        param: 'tenant_id',
      });
    }
    const issued = await apiKeys.create(input, at);
    await invalidateHashes(keys, issued.staleHashes);
    return withSecret(c, issued, 201);
  });

  router.get('/', async (c) => {
    const query = readQuery(c, KeyListQuery);
    const { tenants, apiKeys } = c.var.deps;
    if (!(await tenants.get(query.tenant_id))) throw tenantNotFound(query.tenant_id);
    const page = await apiKeys.listByTenant(
      query.tenant_id,
      { limit: query.limit, cursor: query.cursor ?? null },
      { status: query.status },
    );
    return c.json(listBody(page));
  });

  router.get('/:id', async (c) => {
    const id = c.req.param('id');
    const key = await c.var.deps.apiKeys.get(id, scopeOf(c));
    if (!key) throw keyNotFound(id);
    return c.json(key);
  });

  router.patch('/:id', async (c) => {
    const id = c.req.param('id');
    const scope = scopeOf(c);
    const patch = await readBody(c, KeyUpdate);
    const at = now();
    checkExpiry(patch.expires_at, at);
    const named = downgradeRoutes(patch);
    if (named.length > 0) {
      const current = await c.var.deps.apiKeys.get(id, scope);
      if (!current) throw keyNotFound(id);
      await checkDowngradeRoutes(c.env.DB, current.tenant_id, named);
    }
    const stored = await c.var.deps.apiKeys.update(id, patch, at, scope);
    if (!stored) throw keyNotFound(id);
    await invalidateHashes(c.var.deps.keys, stored.staleHashes);
    return c.json(stored.key);
  });

  router.post('/:id/rotate', async (c) => {
    const id = c.req.param('id');
    const scope = scopeOf(c);
    const { grace_seconds: graceSeconds = 0 } = await readBody(c, KeyRotate, true);
    const { apiKeys, keys } = c.var.deps;
    const current = await apiKeys.get(id, scope);
    if (!current) throw keyNotFound(id);
    if (current.status !== 'active')
      throw new GatewayError(409, 'A revoked key cannot be rotated; create a new one.', {
        code: 'key_revoked',
      });
    const issued = await apiKeys.rotate(id, graceSeconds * 1000, now(), scope);
    if (!issued)
      throw new GatewayError(409, 'The key changed while rotating it; try again.', { code: 'conflict' });
    await invalidateHashes(keys, issued.staleHashes);
    return withSecret(c, issued, 200);
  });

  router.delete('/:id', async (c) => {
    const id = c.req.param('id');
    const stored = await c.var.deps.apiKeys.revoke(id, now(), scopeOf(c));
    if (!stored) throw keyNotFound(id);
    await invalidateHashes(c.var.deps.keys, stored.staleHashes);
    return c.json(stored.key);
  });

  return router;
}
