/**
 * Upstream MCP servers behind /mcp (docs/mcp.md), registered by admins:
 * - /admin/mcp-servers[/{server}]: the global servers, offered to every tenant (owner and admin write,
 *   viewer reads; a tenant_admin is refused);
 * - /admin/tenants/{id}/mcp-servers[/{server}]: one tenant's own servers (its tenant_admin too). Its
 *   listing and GET also show the global servers the tenant is offered (`scope: 'global'`), with the
 *   tenant's own token for a `tenant_token` one; those are changed only at /admin/mcp-servers (403 here);
 * - PUT/DELETE /admin/tenants/{id}/mcp-servers/{server}/token: the tenant's token for a global
 *   `tenant_token` server.
 * Secrets (a server's bearer or header value, a tenant's token) are sealed with PROVIDER_KEYS_SECRET
 * under sealSlots (src/core/mcp-server.ts) before they are stored (503 without a usable secret); every
 * answer carries at most their hint. Each write clears this isolate's copy of the catalog the /mcp
 * endpoint reads (forgetMcpServers); other isolates see it within the catalog's TTL.
 * (Some 330 lines: twelve documented operations, one set of handlers shared by the global and tenant paths.)
 */
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { GatewayError, badRequest } from '../../core/errors';
import { sealSlots } from '../../core/mcp-server';
import { forgetMcpServers } from '../../storage/mcp-catalog';
import {
  D1McpServerStore,
  NAMESPACE_TAKEN,
  type McpServerFields,
  type StoredMcpServer,
} from '../../storage/mcp-servers';
import { randomToken } from '../../util/crypto';
import { providerKeyHint, sealProviderKey, secretProblem } from '../../util/provider-key-crypto';
import type { Operation } from '../operation';
import { readBody } from '../validate';
import { resolveAuth } from './mcp-server-auth';
import {
  McpServer,
  McpServerCreate,
  McpServerList,
  McpServerTokenInfo,
  McpServerUpdate,
  McpTokenPut,
} from './mcp-server-schemas';
import { tenantNotFound } from './tenants';

const GLOBAL = '/admin/mcp-servers';
const TENANT = '/admin/tenants/{id}/mcp-servers';
const serverDoc = { id: 'McpServer', schema: McpServer };
const listDoc = { id: 'McpServerList', schema: McpServerList };
const createDoc = { id: 'McpServerCreate', schema: McpServerCreate };
const updateDoc = { id: 'McpServerUpdate', schema: McpServerUpdate };

export const mcpServerOperations: Operation[] = [
  {
    method: 'get',
    path: GLOBAL,
    access: { level: 'read' },
    summary: 'List the global MCP servers (offered to every tenant)',
    status: 200,
    response: listDoc,
  },
  {
    method: 'post',
    path: GLOBAL,
    access: { level: 'write' },
    summary: 'Register a global MCP server; its secret is stored encrypted, never returned',
    body: createDoc,
    status: 201,
    response: serverDoc,
  },
  {
    method: 'get',
    path: `${GLOBAL}/{server}`,
    access: { level: 'read' },
    summary: 'One global MCP server',
    status: 200,
    response: serverDoc,
  },
  {
    method: 'patch',
    path: `${GLOBAL}/{server}`,
    access: { level: 'write' },
    summary: 'Change a global MCP server (fields given are replaced; an absent secret is kept)',
    body: updateDoc,
    status: 200,
    response: serverDoc,
  },
  {
    method: 'delete',
    path: `${GLOBAL}/{server}`,
    access: { level: 'write' },
    summary: "Remove a global MCP server, and the tenants' tokens for it",
    status: 204,
  },
  {
    method: 'get',
    path: TENANT,
    access: { level: 'read', tenant: 'path' },
    summary: "The MCP servers a tenant is offered: the global ones (with the tenant's token), then its own",
    status: 200,
    response: listDoc,
  },
  {
    method: 'post',
    path: TENANT,
    access: { level: 'write', tenant: 'path' },
    summary: "Register an MCP server of the tenant's own",
    body: createDoc,
    status: 201,
    response: serverDoc,
  },
  {
    method: 'get',
    path: `${TENANT}/{server}`,
    access: { level: 'read', tenant: 'path' },
    summary: 'One MCP server the tenant is offered (its own or a global one)',
    status: 200,
    response: serverDoc,
  },
  {
    method: 'patch',
    path: `${TENANT}/{server}`,
    access: { level: 'write', tenant: 'path' },
    summary: "Change one of the tenant's own MCP servers",
    body: updateDoc,
    status: 200,
    response: serverDoc,
  },
  {
    method: 'delete',
    path: `${TENANT}/{server}`,
    access: { level: 'write', tenant: 'path' },
    summary: "Remove one of the tenant's own MCP servers",
    status: 204,
  },
  {
    method: 'put',
    path: `${TENANT}/{server}/token`,
    access: { level: 'write', tenant: 'path' },
    summary: "Store or replace the tenant's token for a global tenant_token server",
    body: { id: 'McpTokenPut', schema: McpTokenPut },
    status: 200,
    mayCreate: true,
    response: { id: 'McpServerToken', schema: McpServerTokenInfo },
  },
  {
    method: 'delete',
    path: `${TENANT}/{server}/token`,
    access: { level: 'write', tenant: 'path' },
    summary: "Delete the tenant's token for a global tenant_token server",
    status: 204,
  },
];

const notFound = (id: string) =>
  new GatewayError(404, `No MCP server '${id}' here.`, { code: 'mcp_server_not_found', param: 'server' });

/** The secret to seal with, or a 503 when the deployment has none usable: nothing is stored then. */
function sealingSecret(c: Context<AppEnv>): string {
  const secret = c.env.PROVIDER_KEYS_SECRET;
  const problem = secretProblem(secret);
  if (problem !== null || secret === undefined) {
    throw new GatewayError(503, `MCP server secrets are disabled: ${problem ?? 'no secret'}.`, {
      code: 'mcp_secrets_unavailable',
    });
  }
  return secret;
}

async function requireTenant(c: Context<AppEnv>, id: string): Promise<void> {
  if (!(await c.var.deps.tenants.get(id))) throw tenantNotFound(id);
}

/**
 * The server as `owner` (a tenant, or null: global) may change it. A global server seen through a
 * tenant's path is that tenant's to read, not to change (403); anything else is not there (404).
 */
async function owned(store: D1McpServerStore, id: string, owner: string | null): Promise<StoredMcpServer> {
  const stored = await store.get(id, owner);
  if (stored && stored.view.tenant_id === owner) return stored;
  if (stored && owner !== null && stored.view.tenant_id === null) {
    throw new GatewayError(403, `MCP server '${id}' is global: it is changed at /admin/mcp-servers/${id}.`, {
      code: 'global_mcp_server',
      type: 'permission_error',
      param: 'server',
    });
  }
  throw notFound(id);
}

/** The fields to store: the resolved auth, its secret sealed now or kept as stored. */
async function withAuth(
  c: Context<AppEnv>,
  id: string,
  owner: string | null,
  base: Omit<McpServerFields, 'authType' | 'authHeader' | 'secret'>,
  auth: ReturnType<typeof resolveAuth>,
  stored: McpServerFields | null,
): Promise<McpServerFields> {
  const { authType, authHeader } = auth;
  if (auth.secret === null) return { ...base, authType, authHeader, secret: null };
  if (auth.secret === 'keep') return { ...base, authType, authHeader, secret: stored?.secret ?? null };
  const slots = sealSlots(id, owner);
  const sealed = await sealProviderKey(sealingSecret(c), slots.tenant, slots.provider, auth.secret);
  return { ...base, authType, authHeader, secret: { sealed, hint: providerKeyHint(auth.secret) } };
}

function namespaceTaken(namespace: string): GatewayError {
  return new GatewayError(
    409,
    `The namespace '${namespace}' is already used by a server in this view (a global server's, or this tenant's).`,
    { code: 'namespace_taken', param: 'namespace' },
  );
}

export function mcpServersRouter(now: () => number = Date.now) {
  const router = new Hono<AppEnv>();
  const store = (c: Context<AppEnv>) => new D1McpServerStore(c.var.adminDb);

  const list = async (c: Context<AppEnv>, owner: string | null) => {
    if (owner !== null) await requireTenant(c, owner);
    const data = await store(c).list(owner);
    return c.json({ object: 'list', data, has_more: false, next_cursor: null });
  };

  const create = async (c: Context<AppEnv>, owner: string | null) => {
    const input = await readBody(c, McpServerCreate);
    if (owner !== null) await requireTenant(c, owner);
    const auth = resolveAuth(input.auth, null, owner === null);
    const id = `mcp_${randomToken(12)}`;
    const { namespace, url, transport, description, timeout_ms: timeoutMs, enabled } = input;
    const base = { namespace, url, transport, description, timeoutMs, enabled };
    const fields = await withAuth(c, id, owner, base, auth, null);
    const created = await store(c).create(id, owner, fields, now());
    if (created === NAMESPACE_TAKEN) throw namespaceTaken(namespace);
    forgetMcpServers(owner);
    return c.json(created, 201);
  };

  const get = async (c: Context<AppEnv>, owner: string | null, id: string) => {
    if (owner !== null) await requireTenant(c, owner);
    const stored = await store(c).get(id, owner);
    const visible = stored && (stored.view.tenant_id === owner || stored.view.tenant_id === null);
    if (!stored || !visible) throw notFound(id);
    return c.json(stored.view);
  };

  const update = async (c: Context<AppEnv>, owner: string | null, id: string) => {
    const patch = await readBody(c, McpServerUpdate);
    if (owner !== null) await requireTenant(c, owner);
    const { fields: was } = await owned(store(c), id, owner);
    const base = {
      namespace: patch.namespace ?? was.namespace,
      url: patch.url ?? was.url,
      transport: patch.transport ?? was.transport,
      description: patch.description ?? was.description,
      timeoutMs: patch.timeout_ms ?? was.timeoutMs,
      enabled: patch.enabled ?? was.enabled,
    };
    const auth = patch.auth
      ? resolveAuth(patch.auth, was, owner === null)
      : { authType: was.authType, authHeader: was.authHeader, secret: 'keep' as const };
    const fields = await withAuth(c, id, owner, base, auth, was);
    const updated = await store(c).update(id, owner, fields, now());
    if (updated === NAMESPACE_TAKEN) throw namespaceTaken(base.namespace);
    if (updated === null) throw notFound(id);
    forgetMcpServers(owner);
    return c.json(updated);
  };

  const remove = async (c: Context<AppEnv>, owner: string | null, id: string) => {
    if (owner !== null) await requireTenant(c, owner);
    await owned(store(c), id, owner);
    if (!(await store(c).delete(id, owner))) throw notFound(id);
    forgetMcpServers(owner);
    return c.body(null, 204);
  };

  /** The global tenant_token server a tenant may hold a token for. */
  const tokenServer = async (c: Context<AppEnv>, tenantId: string, id: string) => {
    await requireTenant(c, tenantId);
    const stored = await store(c).get(id, tenantId);
    if (!stored || (stored.view.tenant_id !== null && stored.view.tenant_id !== tenantId)) throw notFound(id);
    if (stored.view.tenant_id !== null || stored.fields.authType !== 'tenant_token') {
      throw badRequest(
        `MCP server '${id}' takes no tenant token: only a global server with auth 'tenant_token' does.`,
        'server',
        'not_tenant_token',
      );
    }
  };

  router.get('/mcp-servers', (c) => list(c, null));
  router.post('/mcp-servers', (c) => create(c, null));
  router.get('/mcp-servers/:server', (c) => get(c, null, c.req.param('server')));
  router.patch('/mcp-servers/:server', (c) => update(c, null, c.req.param('server')));
  router.delete('/mcp-servers/:server', (c) => remove(c, null, c.req.param('server')));

  router.get('/tenants/:id/mcp-servers', (c) => list(c, c.req.param('id')));
  router.post('/tenants/:id/mcp-servers', (c) => create(c, c.req.param('id')));
  router.get('/tenants/:id/mcp-servers/:server', (c) => get(c, c.req.param('id'), c.req.param('server')));
  router.patch('/tenants/:id/mcp-servers/:server', (c) =>
    update(c, c.req.param('id'), c.req.param('server')),
  );
  router.delete('/tenants/:id/mcp-servers/:server', (c) =>
    remove(c, c.req.param('id'), c.req.param('server')),
  );

  router.put('/tenants/:id/mcp-servers/:server/token', async (c) => {
    const tenantId = c.req.param('id');
    const id = c.req.param('server');
    const { token } = await readBody(c, McpTokenPut);
    await tokenServer(c, tenantId, id);
    const slots = sealSlots(id, tenantId);
    const sealed = await sealProviderKey(sealingSecret(c), slots.tenant, slots.provider, token);
    const saved = await store(c).putToken(id, tenantId, sealed, providerKeyHint(token), now());
    forgetMcpServers(tenantId);
    return c.json(saved.info, saved.created ? 201 : 200);
  });

  router.delete('/tenants/:id/mcp-servers/:server/token', async (c) => {
    const tenantId = c.req.param('id');
    const id = c.req.param('server');
    await tokenServer(c, tenantId, id);
    if (!(await store(c).deleteToken(id, tenantId))) {
      throw new GatewayError(404, `Tenant '${tenantId}' has no token for MCP server '${id}'.`, {
        code: 'mcp_token_not_found',
        param: 'server',
      });
    }
    forgetMcpServers(tenantId);
    return c.body(null, 204);
  });

  return router;
}
