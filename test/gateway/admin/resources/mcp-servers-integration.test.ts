/**
 * The admin API for upstream MCP servers: global and tenant servers created, listed, read, changed and
 * removed; their secrets sealed (never answered, never in the audit log) and readable by the /mcp
 * catalog; a tenant_admin held to its tenant; namespaces unique in each tenant's view; tenants' tokens
 * for global tenant_token servers; and the `mcp` settings of keys and tenants.
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../../src/admin/openapi';
import { McpServer, McpServerTokenInfo } from '../../../../src/admin/resources/mcp-server-schemas';
import { createApp } from '../../../../src/app';
import { sealSlots } from '../../../../src/core/mcp-server';
import { d1KeyLoader } from '../../../../src/storage/d1-keys';
import { d1McpCatalog, forgetMcpServers } from '../../../../src/storage/mcp-catalog';
import { TieredKeyStore } from '../../../../src/storage/key-store';
import { sha256Hex } from '../../../../src/util/crypto';
import { openProviderKey } from '../../../../src/util/provider-key-crypto';
import { ADMIN_TOKEN, admin, asKey, asTenant, createKey, createTenant } from '../../admin-helpers';
import { bindings } from '../../log-fixtures';

/** The deployment's sealing secret (vitest.config.ts's miniflare bindings). */
const SEALING = bindings.PROVIDER_KEYS_SECRET ?? '';

const SECRET = 'ghp_serverSecret0123456789abcdefWXYZ';
const TOKEN = 'tenantOwnToken-0123456789-abcdefQRST';

/** A namespace no other test uses (global servers are shared by every tenant of the file). */
const ns = (prefix = 'n') => `${prefix}${crypto.randomUUID().slice(0, 8)}`;

/** No answer may carry a secret, nor anything of it beyond the hint's 7 characters. */
function expectNoSecret(text: string): void {
  for (const secret of [SECRET, TOKEN]) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice(3, -4));
  }
  expect(text).not.toMatch(/ciphertext|"iv"/);
}

async function createServer(path: string, body: Record<string, unknown>, token = ADMIN_TOKEN) {
  const res = await admin('POST', path, { url: 'https://mcp.example.com/mcp', ...body }, token);
  expect(res.status, res.text).toBe(201);
  expectNoSecret(res.text);
  return McpServer.parse(res.json);
}

const tenantPath = (tenant: string, rest = '') => `/tenants/${tenant}/mcp-servers${rest}`;

async function makeAdmin(name: string, role: string, tenantIds?: string[]): Promise<string> {
  const res = await admin('POST', '/admins', { name, role, ...(tenantIds ? { tenant_ids: tenantIds } : {}) });
  expect(res.status, res.text).toBe(201);
  return (res.json as { token: string }).token;
}

interface AuditRow {
  resource: string;
  resource_id: string;
  tenant_id: string | null;
  change: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

async function auditOf(resource: string, resourceId: string): Promise<AuditRow[]> {
  const res = await admin('GET', `/audit?resource=${resource}&resource_id=${encodeURIComponent(resourceId)}`);
  expect(res.status, res.text).toBe(200);
  expectNoSecret(res.text);
  return (res.json as { data: AuditRow[] }).data;
}

describe('global MCP servers', () => {
  it('are created, listed, read, changed and removed, answering only the hint of their secret', async () => {
    const namespace = ns('gh');
    const server = await createServer('/mcp-servers', {
      namespace,
      description: 'GitHub tools',
      auth: { type: 'bearer', secret: SECRET },
    });
    expect(server).toMatchObject({
      object: 'mcp_server',
      scope: 'global',
      tenant_id: null,
      namespace,
      transport: 'streamable-http',
      auth: { type: 'bearer', header: null, hint: 'ghp…WXYZ' },
      timeout_ms: 30_000,
      enabled: true,
    });
    expect(server.id).toMatch(/^mcp_/);
    expect(server).not.toHaveProperty('token');

    const list = await admin('GET', '/mcp-servers');
    expect(list.status).toBe(200);
    expectNoSecret(list.text);
    expect((list.json as { data: McpServer[] }).data.map((s) => s.id)).toContain(server.id);

    const got = await admin('GET', `/mcp-servers/${server.id}`);
    expect(got.json).toEqual(server);

    const patched = await admin('PATCH', `/mcp-servers/${server.id}`, {
      description: 'GitHub',
      timeout_ms: 5000,
      enabled: false,
      auth: { type: 'header', header: 'X-Api-Key' },
    });
    expect(patched.status, patched.text).toBe(200);
    // The secret is kept when the new type still takes one and none is given.
    expect(patched.json).toMatchObject({
      description: 'GitHub',
      timeout_ms: 5000,
      enabled: false,
      auth: { type: 'header', header: 'X-Api-Key', hint: 'ghp…WXYZ' },
    });

    const none = await admin('PATCH', `/mcp-servers/${server.id}`, { auth: { type: 'none' } });
    expect(none.json).toMatchObject({ auth: { type: 'none', header: null, hint: null } });
    const row = await env.DB.prepare('SELECT ciphertext, iv, hint FROM mcp_servers WHERE id = ?')
      .bind(server.id)
      .first();
    expect(row).toEqual({ ciphertext: null, iv: null, hint: null });

    expect((await admin('DELETE', `/mcp-servers/${server.id}`)).status).toBe(204);
    expect((await admin('GET', `/mcp-servers/${server.id}`)).status).toBe(404);
    expect((await admin('DELETE', `/mcp-servers/${server.id}`)).status).toBe(404);
  });

  it('seal the secret so the /mcp catalog opens it under the server’s slots, and no other', async () => {
    const tenant = await createTenant('mcp-catalog');
    const server = await createServer('/mcp-servers', {
      namespace: ns(),
      auth: { type: 'header', header: 'X-Api-Key', secret: SECRET },
    });
    forgetMcpServers(null);
    const record = (await d1McpCatalog(env.DB).serversFor(tenant.id)).find((s) => s.id === server.id);
    expect(record).toMatchObject({ authType: 'header', authHeader: 'X-Api-Key', tenantId: null });
    const sealed = record?.secret;
    if (!sealed) throw new Error('no sealed secret in the catalog');
    const slots = sealSlots(server.id, null);
    expect(await openProviderKey(SEALING, slots.tenant, slots.provider, sealed)).toBe(SECRET);
    const other = sealSlots('mcp_other', null);
    await expect(openProviderKey(SEALING, other.tenant, other.provider, sealed)).rejects.toThrow();
  });

  it('refuse a bad url, namespace, timeout, auth or unknown field with 400 naming it', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ namespace: ns(), url: 'ftp://mcp.example.com' }, 'url'],
      [{ namespace: ns(), url: 'https://user:pw@mcp.example.com/mcp' }, 'url'],
      [{ namespace: ns(), url: 'not a url' }, 'url'],
      [{ namespace: 'Has_Underscore' }, 'namespace'],
      [{ namespace: ns(), timeout_ms: 0 }, 'timeout_ms'],
      [{ namespace: ns(), timeout_ms: 120_001 }, 'timeout_ms'],
      [{ namespace: ns(), auth: { type: 'bearer' } }, 'auth.secret'],
      [{ namespace: ns(), auth: { type: 'header', secret: SECRET } }, 'auth.header'],
      [{ namespace: ns(), auth: { type: 'header', header: 'Host', secret: SECRET } }, 'auth.header'],
      [{ namespace: ns(), auth: { type: 'none', secret: SECRET } }, 'auth.secret'],
      [{ namespace: ns(), auth: { type: 'bearer', header: 'X-Key', secret: SECRET } }, 'auth.header'],
      [{ namespace: ns(), transport: 'websocket' }, 'transport'],
      [{ namespace: ns(), secret: SECRET }, 'secret'],
    ];
    for (const [body, param] of cases) {
      const res = await admin('POST', '/mcp-servers', { url: 'https://mcp.example.com/mcp', ...body });
      expect(res.status, `${JSON.stringify(body)} → ${res.text}`).toBe(400);
      expect(res.json).toMatchObject({ error: { param } });
      expectNoSecret(res.text);
    }
  });

  it('are refused a namespace another server of any view uses (409)', async () => {
    const tenant = await createTenant('mcp-ns');
    const shared = ns();
    await createServer('/mcp-servers', { namespace: shared });
    const again = await admin('POST', '/mcp-servers', {
      namespace: shared,
      url: 'https://other.example/mcp',
    });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ error: { code: 'namespace_taken', param: 'namespace' } });
    const inTenant = await admin('POST', tenantPath(tenant.id), {
      namespace: shared,
      url: 'https://other.example/mcp',
    });
    expect(inTenant.status).toBe(409);

    const tenantOwn = ns();
    await createServer(tenantPath(tenant.id), { namespace: tenantOwn });
    const global = await admin('POST', '/mcp-servers', {
      namespace: tenantOwn,
      url: 'https://x.example/mcp',
    });
    expect(global.status).toBe(409);
    const renamed = await createServer('/mcp-servers', { namespace: ns() });
    const rename = await admin('PATCH', `/mcp-servers/${renamed.id}`, { namespace: tenantOwn });
    expect(rename.status).toBe(409);
    expect(rename.json).toMatchObject({ error: { code: 'namespace_taken' } });
  });

  it('answer 503 mcp_secrets_unavailable and store nothing without PROVIDER_KEYS_SECRET, yet take a server with no secret', async () => {
    const namespace = ns();
    const post = (body: Record<string, unknown>) =>
      createApp().request(
        '/admin/mcp-servers',
        {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ namespace, url: 'https://mcp.example.com/mcp', ...body }),
        },
        { ...env, PROVIDER_KEYS_SECRET: undefined },
      );
    const res = await post({ auth: { type: 'bearer', secret: SECRET } });
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'mcp_secrets_unavailable' } });
    expectNoSecret(text);
    const count = await env.DB.prepare('SELECT COUNT(*) AS n FROM mcp_servers WHERE namespace = ?')
      .bind(namespace)
      .first('n');
    expect(count).toBe(0);
    expect((await post({})).status).toBe(201);
  });
});

describe("a tenant's MCP servers", () => {
  let tenantA: string;
  let tenantB: string;
  let tenantAdmin: string;

  beforeAll(async () => {
    tenantA = (await createTenant('mcp-a')).id;
    tenantB = (await createTenant('mcp-b')).id;
    tenantAdmin = await makeAdmin(`mcp-tenant-admin-${ns()}`, 'tenant_admin', [tenantA]);
  });

  it('are its own, listed after the global ones it is offered, and managed by its tenant_admin', async () => {
    const global = await createServer('/mcp-servers', { namespace: ns('g') });
    const own = await createServer(
      tenantPath(tenantA),
      { namespace: ns('own'), auth: { type: 'bearer', secret: SECRET }, transport: 'sse' },
      tenantAdmin,
    );
    expect(own).toMatchObject({ scope: 'tenant', tenant_id: tenantA, transport: 'sse' });

    const list = await admin('GET', tenantPath(tenantA), undefined, tenantAdmin);
    expect(list.status).toBe(200);
    expectNoSecret(list.text);
    const data = (list.json as { data: McpServer[] }).data;
    const ids = data.map((s) => s.id);
    expect(ids).toContain(global.id);
    expect(ids).toContain(own.id);
    expect(ids.indexOf(global.id)).toBeLessThan(ids.indexOf(own.id));
    expect(data.every((s) => s.tenant_id === null || s.tenant_id === tenantA)).toBe(true);
    expect(data.find((s) => s.id === global.id)).toMatchObject({ scope: 'global', token: null });

    const got = await admin('GET', tenantPath(tenantA, `/${global.id}`), undefined, tenantAdmin);
    expect(got.status).toBe(200);
    const patched = await admin('PATCH', tenantPath(tenantA, `/${own.id}`), { enabled: false }, tenantAdmin);
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({ enabled: false, auth: { type: 'bearer', hint: 'ghp…WXYZ' } });
    expect((await admin('DELETE', tenantPath(tenantA, `/${own.id}`), undefined, tenantAdmin)).status).toBe(
      204,
    );
    expect((await admin('GET', tenantPath(tenantA, `/${own.id}`))).status).toBe(404);
  });

  it('are out of reach of another tenant and of a tenant_admin on the global routes', async () => {
    const ofB = await createServer(tenantPath(tenantB), { namespace: ns('b') });
    // Through A's path, B's server is not there; B's path is outside the tenant_admin's scope.
    expect((await admin('GET', tenantPath(tenantA, `/${ofB.id}`))).status).toBe(404);
    expect((await admin('PATCH', tenantPath(tenantA, `/${ofB.id}`), { enabled: false })).status).toBe(404);
    expect((await admin('DELETE', tenantPath(tenantA, `/${ofB.id}`))).status).toBe(404);
    expect((await admin('GET', tenantPath(tenantB), undefined, tenantAdmin)).status).toBe(403);
    const listA = await admin('GET', tenantPath(tenantA));
    expect((listA.json as { data: McpServer[] }).data.map((s) => s.id)).not.toContain(ofB.id);
    // A tenant server is not a global one.
    expect((await admin('GET', `/mcp-servers/${ofB.id}`)).status).toBe(404);

    for (const [method, path] of [
      ['GET', '/mcp-servers'],
      ['POST', '/mcp-servers'],
      ['PATCH', `/mcp-servers/${ofB.id}`],
      ['DELETE', `/mcp-servers/${ofB.id}`],
    ] as const) {
      const body = method === 'POST' || method === 'PATCH' ? { namespace: ns() } : undefined;
      const res = await admin(method, path, body, tenantAdmin);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
  });

  it('leave global servers to the global routes (403), and tenant_token to global servers (400)', async () => {
    const global = await createServer('/mcp-servers', { namespace: ns('g') });
    const patch = await admin('PATCH', tenantPath(tenantA, `/${global.id}`), { enabled: false }, tenantAdmin);
    expect(patch.status).toBe(403);
    expect(patch.json).toMatchObject({ error: { code: 'global_mcp_server' } });
    expect((await admin('DELETE', tenantPath(tenantA, `/${global.id}`))).status).toBe(403);
    const tenantToken = await admin('POST', tenantPath(tenantA), {
      namespace: ns(),
      url: 'https://mcp.example.com/mcp',
      auth: { type: 'tenant_token' },
    });
    expect(tenantToken.status).toBe(400);
    expect(tenantToken.json).toMatchObject({ error: { param: 'auth.type', code: 'invalid_mcp_auth' } });
  });

  it('answer 404 for an unknown tenant', async () => {
    expect((await admin('GET', tenantPath('ten_nope'))).status).toBe(404);
    const res = await admin('POST', tenantPath('ten_nope'), {
      namespace: ns(),
      url: 'https://x.example/mcp',
    });
    expect(res.json).toMatchObject({ error: { code: 'tenant_not_found' } });
  });
});

describe("tenants' tokens for a global tenant_token server", () => {
  it('are stored (201), replaced (200), shown as a hint in the tenant’s view, opened by the catalog, and deleted', async () => {
    const tenant = await createTenant('mcp-token');
    const other = await createTenant('mcp-token-other');
    const tenantAdmin = await makeAdmin(`mcp-token-admin-${ns()}`, 'tenant_admin', [tenant.id]);
    const server = await createServer('/mcp-servers', {
      namespace: ns('t'),
      auth: { type: 'tenant_token', header: 'X-Token' },
    });
    expect(server.auth).toEqual({ type: 'tenant_token', header: 'X-Token', hint: null });
    const tokenPath = tenantPath(tenant.id, `/${server.id}/token`);

    const put = await admin('PUT', tokenPath, { token: TOKEN }, tenantAdmin);
    expect(put.status, put.text).toBe(201);
    expectNoSecret(put.text);
    const info = McpServerTokenInfo.parse(put.json);
    expect(info).toMatchObject({ server_id: server.id, tenant_id: tenant.id, hint: 'ten…QRST' });
    const again = await admin('PUT', tokenPath, { token: `${TOKEN}2` }, tenantAdmin);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ hint: 'ten…RST2', created_at: info.created_at });
    await admin('PUT', tokenPath, { token: TOKEN });

    const view = await admin('GET', tenantPath(tenant.id, `/${server.id}`));
    expect(view.json).toMatchObject({ token: { hint: 'ten…QRST' } });
    expectNoSecret(view.text);
    const otherView = await admin('GET', tenantPath(other.id, `/${server.id}`));
    expect(otherView.json).toMatchObject({ token: null });

    forgetMcpServers(null);
    const record = (await d1McpCatalog(env.DB).serversFor(tenant.id)).find((s) => s.id === server.id);
    const sealed = record?.secret;
    if (!sealed) throw new Error("no tenant's token in the catalog");
    const slots = sealSlots(server.id, tenant.id);
    expect(await openProviderKey(SEALING, slots.tenant, slots.provider, sealed)).toBe(TOKEN);
    const forOther = (await d1McpCatalog(env.DB).serversFor(other.id)).find((s) => s.id === server.id);
    expect(forOther?.secret).toBeNull();

    expect((await admin('DELETE', tokenPath, undefined, tenantAdmin)).status).toBe(204);
    const gone = await admin('DELETE', tokenPath);
    expect(gone.status).toBe(404);
    expect(gone.json).toMatchObject({ error: { code: 'mcp_token_not_found' } });
  });

  it('are refused for a server that is not a global tenant_token one (400), or not offered (404)', async () => {
    const tenant = await createTenant('mcp-token-bad');
    const bearer = await createServer('/mcp-servers', {
      namespace: ns(),
      auth: { type: 'bearer', secret: SECRET },
    });
    const own = await createServer(tenantPath(tenant.id), { namespace: ns() });
    for (const id of [bearer.id, own.id]) {
      const put = await admin('PUT', tenantPath(tenant.id, `/${id}/token`), { token: TOKEN });
      expect(put.status, put.text).toBe(400);
      expect(put.json).toMatchObject({ error: { code: 'not_tenant_token' } });
      expect((await admin('DELETE', tenantPath(tenant.id, `/${id}/token`))).status).toBe(400);
    }
    const other = await createTenant('mcp-token-foreign');
    const foreign = await admin('PUT', tenantPath(other.id, `/${own.id}/token`), { token: TOKEN });
    expect(foreign.status).toBe(404);
  });

  it('go with the server when it stops being tenant_token, or is removed', async () => {
    const tenant = await createTenant('mcp-token-drop');
    const server = await createServer('/mcp-servers', { namespace: ns(), auth: { type: 'tenant_token' } });
    await admin('PUT', tenantPath(tenant.id, `/${server.id}/token`), { token: TOKEN });
    const tokens = () =>
      env.DB.prepare('SELECT COUNT(*) AS n FROM mcp_server_tokens WHERE server_id = ?')
        .bind(server.id)
        .first('n');
    expect(await tokens()).toBe(1);
    const patched = await admin('PATCH', `/mcp-servers/${server.id}`, { auth: { type: 'none' } });
    expect(patched.status, patched.text).toBe(200);
    expect(await tokens()).toBe(0);
  });
});

describe('the audit log', () => {
  it('records server and token changes with hints only, global ones without a tenant', async () => {
    const tenant = await createTenant('mcp-audit');
    const global = await createServer('/mcp-servers', {
      namespace: ns(),
      auth: { type: 'bearer', secret: SECRET },
    });
    await admin('PATCH', `/mcp-servers/${global.id}`, { description: 'changed' });
    const rows = await auditOf('mcp_server', global.id);
    expect(rows.map((r) => r.change)).toEqual(['update', 'create']);
    expect(rows[1]).toMatchObject({
      tenant_id: null,
      before: null,
      after: { id: global.id, auth_type: 'bearer', hint: 'ghp…WXYZ' },
    });
    expect(rows[0]).toMatchObject({ before: { description: '' }, after: { description: 'changed' } });

    const own = await createServer(tenantPath(tenant.id), { namespace: ns() });
    await admin('DELETE', tenantPath(tenant.id, `/${own.id}`));
    const ownRows = await auditOf('mcp_server', own.id);
    expect(ownRows.map((r) => [r.change, r.tenant_id])).toEqual([
      ['delete', tenant.id],
      ['create', tenant.id],
    ]);

    const tokenServer = await createServer('/mcp-servers', {
      namespace: ns(),
      auth: { type: 'tenant_token' },
    });
    await admin('PUT', tenantPath(tenant.id, `/${tokenServer.id}/token`), { token: TOKEN });
    const tokenRows = await auditOf('mcp_server_token', `${tokenServer.id}/${tenant.id}`);
    expect(tokenRows).toHaveLength(1);
    expect(tokenRows[0]).toMatchObject({
      tenant_id: tenant.id,
      change: 'create',
      after: { server_id: tokenServer.id, tenant_id: tenant.id, hint: 'ten…QRST' },
    });
    const byTenant = await admin('GET', `/audit?tenant_id=${tenant.id}&resource=mcp_server_token`);
    expect((byTenant.json as { data: unknown[] }).data).toHaveLength(1);
  });
});

describe('mcp settings on keys and tenants', () => {
  const keyStore = () => new TieredKeyStore(env.KV_KEYS, d1KeyLoader(env.DB));

  it('round-trip on the tenant and key, reach the key record at once, and are cleared by null', async () => {
    const tenant = await createTenant('mcp-settings', {
      mcp: { tools: ['github__*'], calls: { per_minute: 60 } },
    });
    expect(tenant.mcp).toEqual({ tools: ['github__*'], calls: { per_minute: 60 }, end_user_calls: null });
    const created = await createKey(tenant.id, { mcp: { tools: ['github__create_issue', 'search__query'] } });
    expect(created.mcp).toEqual({ tools: ['github__create_issue', 'search__query'], calls: null });
    const hash = await sha256Hex(created.key);
    const keys = keyStore();
    expect((await keys.findByHash(hash))?.scopes.mcp?.tools).toEqual([
      'github__create_issue',
      'search__query',
    ]);

    const tenantMcp = { tools: ['*'], calls: { per_day: 1000 }, end_user_calls: { per_minute: 5 } };
    const patched = await admin('PATCH', `/tenants/${tenant.id}`, { mcp: tenantMcp });
    expect(patched.status, patched.text).toBe(200);
    expect(asTenant(patched).mcp).toEqual(tenantMcp);
    expect((await admin('GET', `/tenants/${tenant.id}`)).json).toMatchObject({ mcp: tenantMcp });
    expect((await keys.findByHash(hash))?.tenantScopes.mcp).toEqual(tenantMcp);

    const keyPatch = await admin('PATCH', `/keys/${created.id}`, {
      mcp: { tools: [], calls: { per_minute: 2 } },
    });
    expect(keyPatch.status, keyPatch.text).toBe(200);
    expect(asKey(keyPatch).mcp).toEqual({ tools: [], calls: { per_minute: 2 } });
    expect((await keys.findByHash(hash))?.scopes.mcp).toEqual({ tools: [], calls: { per_minute: 2 } });

    const cleared = await admin('PATCH', `/keys/${created.id}`, { mcp: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(asKey(cleared).mcp).toBeUndefined();
    expect((await keys.findByHash(hash))?.scopes.mcp).toBeUndefined();
    const tenantCleared = await admin('PATCH', `/tenants/${tenant.id}`, {
      mcp: null,
      name: 'mcp-settings-2',
    });
    expect(tenantCleared.status, tenantCleared.text).toBe(200);
    expect(asTenant(tenantCleared)).toMatchObject({ name: 'mcp-settings-2' });
    expect(asTenant(tenantCleared).mcp).toBeUndefined();
    const nullOnCreate = await createTenant('mcp-settings-null', { mcp: null });
    expect(nullOnCreate.mcp).toBeUndefined();
  });

  it('refuse a bad pattern, an unknown field or a bad limit with 400', async () => {
    const tenant = await createTenant('mcp-settings-bad');
    const { id } = await createKey(tenant.id);
    const bad: [string, unknown, string][] = [
      [`/tenants/${tenant.id}`, { tools: ['github_*'] }, 'mcp.tools.0'],
      [`/tenants/${tenant.id}`, { tools: ['GitHub__*'] }, 'mcp.tools.0'],
      [`/tenants/${tenant.id}`, { calls: { per_hour: 5 } }, 'mcp.calls.per_hour'],
      [`/keys/${id}`, { tools: ['*'], end_user_calls: { per_minute: 1 } }, 'mcp.end_user_calls'],
      [`/keys/${id}`, { calls: { per_minute: 0 } }, 'mcp.calls.per_minute'],
    ];
    for (const [path, mcp, param] of bad) {
      const res = await admin('PATCH', path, { mcp });
      expect(res.status, `${path} ${JSON.stringify(mcp)} → ${res.text}`).toBe(400);
      expect(res.json).toMatchObject({ error: { param } });
    }
  });

  it('are described in the OpenAPI document', () => {
    const doc = openApiDocument() as { components: { schemas: Record<string, { properties?: object }> } };
    expect(doc.components.schemas.TenantUpdate?.properties).toHaveProperty('mcp');
    expect(doc.components.schemas.KeyUpdate?.properties).toHaveProperty('mcp');
    expect(doc.components.schemas.McpServerCreate?.properties).toHaveProperty('auth');
  });
});
