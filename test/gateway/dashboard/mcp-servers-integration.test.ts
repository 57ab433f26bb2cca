/**
 * MCP on the dashboard: the MCP servers page lists, registers, edits and deletes global and tenant servers
 * and sets a tenant's token for a global tenant_token server, all through the admin API; a key's and a
 * tenant's MCP tools (allow-list, "no tools", call limits) save into their `mcp` settings; a tenant_admin
 * sees only its tenants' view and no global form; and no secret or token typed in ever comes back in a page.
 */
import { describe, expect, it } from 'vitest';
import { admin, asKey, asTenant, createKey, createTenant } from '../admin-helpers';
import { Browser, changeForms, createAdmin, location, navLabels } from '../dashboard-helpers';

const HOME = '/dashboard/mcp-servers';
const uid = () => crypto.randomUUID().slice(0, 8);

/** Every page a test read, so it can check at the end that none carries a secret. */
class Recorder extends Browser {
  readonly pages: string[] = [];
  override async page(path: string): Promise<string> {
    const html = await super.page(path);
    this.pages.push(html);
    return html;
  }
  /** A refused post's page (its body), recorded too. */
  async refused(path: string, fields: Record<string, string>, status: number): Promise<string> {
    const res = await this.post(path, fields);
    expect(res.status).toBe(status);
    const html = await res.text();
    this.pages.push(html);
    return html;
  }
  expectNone(...secrets: string[]): void {
    for (const html of this.pages) for (const s of secrets) expect(html).not.toContain(s);
  }
}

async function owner(): Promise<Recorder> {
  const b = new Recorder();
  await b.signIn();
  return b;
}

interface ServerJson {
  id: string;
  namespace: string;
  url: string;
  enabled: boolean;
  timeout_ms: number;
  description: string | null;
  scope: string;
  auth: { type: string; header: string | null; hint: string | null };
  token?: { hint: string } | null;
}

async function globalServer(namespace: string): Promise<ServerJson | undefined> {
  const res = await admin('GET', '/mcp-servers');
  expect(res.status).toBe(200);
  return (res.json as { data: ServerJson[] }).data.find((s) => s.namespace === namespace);
}

async function tenantServers(tenantId: string): Promise<ServerJson[]> {
  const res = await admin('GET', `/tenants/${tenantId}/mcp-servers`);
  expect(res.status).toBe(200);
  return (res.json as { data: ServerJson[] }).data;
}

const serverForm = (namespace: string, extra: Record<string, string> = {}) => ({
  namespace,
  url: `https://${namespace}.example.com/mcp`,
  transport: 'streamable-http',
  description: `The ${namespace} tools`,
  'auth.type': 'none',
  'auth.header': '',
  'auth.secret': '',
  timeout_ms: '',
  enabled: 'on',
  ...extra,
});

describe('global MCP servers', () => {
  it('registers one with a bearer secret, lists it with its hint only, edits it and replaces the secret', async () => {
    const b = await owner();
    const first = `mcp-secret-first-${uid()}-0123456789abcdef`;
    const second = `mcp-secret-second-${uid()}-fedcba9876543210`;
    const ns = `gl-${uid()}`;
    const list = await b.page(HOME);
    expect(navLabels(list)).toContain('MCP servers');
    expect(list).toContain('<h2 id="mcp-global-h">Global servers</h2>');
    expect(changeForms(list)).toContain(HOME);

    const made = await b.post(HOME, serverForm(ns, { 'auth.type': 'bearer', 'auth.secret': first }));
    expect(made.status).toBe(303);
    expect(location(made)).toBe(`${HOME}?notice=mcp-server-created`);
    const stored = await globalServer(ns);
    expect(stored).toMatchObject({ scope: 'global', url: `https://${ns}.example.com/mcp`, enabled: true });
    expect(stored?.auth.type).toBe('bearer');
    const hint = stored?.auth.hint ?? '';
    expect(hint).not.toBe('');
    let html = await b.page(location(made));
    expect(html).toContain('MCP server registered');
    expect(html).toContain(`<code>${ns}</code>`);
    expect(html).toContain(hint);

    const href = `${HOME}/global/${stored?.id}`;
    html = await b.page(href);
    expect(html).toMatch(/<input id="f-auth-secret" name="auth.secret" type="password" value=""/);
    expect(html).toMatch(/id="f-url"[^>]*value="https:\/\/gl-[^"]+\.example\.com\/mcp"/);
    // Disabled, another URL and timeout, no secret typed: the stored secret is kept.
    const edited = await b.post(href, {
      namespace: ns,
      url: `https://${ns}.example.org/mcp`,
      transport: 'streamable-http',
      description: 'Moved',
      'auth.type': 'bearer',
      'auth.header': '',
      'auth.secret': '',
      timeout_ms: '5000',
    });
    expect(location(edited)).toBe(`${href}?notice=mcp-server-updated`);
    const after = await globalServer(ns);
    expect(after).toMatchObject({
      url: `https://${ns}.example.org/mcp`,
      enabled: false,
      timeout_ms: 5000,
      description: 'Moved',
    });
    expect(after?.auth.hint).toBe(hint);
    html = await b.page(location(edited));
    expect(html).toContain('MCP server updated');
    expect(html).toMatch(/<span class="badge disabled">disabled<\/span>/);

    const replaced = await b.post(href, {
      namespace: ns,
      url: `https://${ns}.example.org/mcp`,
      'auth.type': 'bearer',
      'auth.secret': second,
      timeout_ms: '5000',
      enabled: 'on',
    });
    expect(replaced.status).toBe(303);
    const rotated = await globalServer(ns);
    expect(rotated?.enabled).toBe(true);
    expect(rotated?.auth.hint).not.toBe(hint);
    html = await b.page(href);
    expect(html).toContain(rotated?.auth.hint ?? '?');
    b.expectNone(first, second);
  });

  it("shows the API's refusal beside the field and never the secret typed into the form", async () => {
    const b = await owner();
    const secret = `mcp-secret-refused-${uid()}-0123456789abcdef`;
    await b.page(HOME);
    const html = await b.refused(
      HOME,
      serverForm(`gl-${uid()}`, {
        url: 'ftp://nowhere.example.com',
        'auth.type': 'bearer',
        'auth.secret': secret,
      }),
      400,
    );
    expect(html).toContain('The server was not registered');
    expect(html).toMatch(/id="f-global-url"[^>]*aria-invalid="true"/);
    expect(html).toMatch(/id="f-global-url"[^>]*value="ftp:\/\/nowhere.example.com"/);
    expect(html).toMatch(/<details open="">/);
    b.expectNone(secret);
  });

  it('deletes one behind a confirmation page', async () => {
    const b = await owner();
    const ns = `gl-${uid()}`;
    await b.page(HOME);
    await b.post(HOME, serverForm(ns));
    const id = (await globalServer(ns))?.id ?? '';
    const href = `${HOME}/global/${id}`;
    expect(await b.page(href)).toContain(`href="${href}/delete"`);
    const confirm = await b.page(`${href}/delete`);
    expect(confirm).toContain('Yes, delete this server');
    expect(changeForms(confirm)).toEqual([`${href}/delete`]);
    const gone = await b.post(`${href}/delete`, {});
    expect(location(gone)).toBe(`${HOME}?notice=mcp-server-deleted`);
    expect(await globalServer(ns)).toBeUndefined();
    expect((await b.get(href)).status).toBe(404);
  });
});

describe("a tenant's MCP servers", () => {
  it('lists its own and the global ones with their scope, registers one, refuses a taken namespace', async () => {
    const b = await owner();
    const tenant = await createTenant(`mcp-dash-${uid()}`);
    const globalNs = `gl-${uid()}`;
    const ownNs = `own-${uid()}`;
    await b.page(HOME);
    await b.post(HOME, serverForm(globalNs));
    const view = `${HOME}?tenant_id=${tenant.id}`;
    let html = await b.page(view);
    expect(html).toContain(`Servers of ${tenant.name}`);
    expect(html).toMatch(
      new RegExp(`<code>${globalNs}</code></a></th><td><span class="badge">global</span>`),
    );
    expect(changeForms(html)).toContain(`${HOME}/tenants/${tenant.id}`);

    const made = await b.post(`${HOME}/tenants/${tenant.id}`, serverForm(ownNs));
    expect(location(made)).toBe(`${view}&notice=mcp-server-created`);
    const servers = await tenantServers(tenant.id);
    const own = servers.find((s) => s.namespace === ownNs);
    expect(own?.scope).toBe('tenant');
    html = await b.page(location(made));
    expect(html).toContain(`href="${HOME}/tenants/${tenant.id}/${own?.id}"`);
    expect(html).toMatch(new RegExp(`<code>${ownNs}</code></a></th><td><span class="badge">tenant</span>`));

    const taken = await b.refused(`${HOME}/tenants/${tenant.id}`, serverForm(globalNs), 409);
    expect(taken).toContain('The server was not registered');
    expect(taken).toMatch(/id="f-tenant-namespace"[^>]*value="gl-/);

    // Its own server's page edits and deletes under the tenant's path.
    const href = `${HOME}/tenants/${tenant.id}/${own?.id}`;
    const edited = await b.post(href, {
      namespace: ownNs,
      url: `https://${ownNs}.example.net/mcp`,
      'auth.type': 'none',
      enabled: 'on',
    });
    expect(location(edited)).toBe(`${href}?notice=mcp-server-updated`);
    expect((await tenantServers(tenant.id)).find((s) => s.id === own?.id)?.url).toBe(
      `https://${ownNs}.example.net/mcp`,
    );
    await b.page(`${href}/delete`);
    const gone = await b.post(`${href}/delete`, {});
    expect(location(gone)).toBe(`${view}&notice=mcp-server-deleted`);
    expect((await tenantServers(tenant.id)).some((s) => s.id === own?.id)).toBe(false);
  });

  it("sets, shows by hint only, and removes the tenant's token for a global tenant_token server", async () => {
    const b = await owner();
    const tenant = await createTenant(`mcp-dash-${uid()}`);
    const token = `tenant-token-${uid()}-0123456789abcdef`;
    const ns = `tt-${uid()}`;
    await b.page(HOME);
    await b.post(HOME, serverForm(ns, { 'auth.type': 'tenant_token', 'auth.header': 'X-Api-Key' }));
    const server = await globalServer(ns);
    const view = `${HOME}?tenant_id=${tenant.id}`;
    let html = await b.page(view);
    expect(html).toContain('The tenant&#39;s tokens for global servers');
    const action = `${HOME}/tenants/${tenant.id}/${server?.id}/token`;
    expect(changeForms(html)).toContain(action);
    expect(changeForms(html)).not.toContain(`${action}/delete`);

    const saved = await b.post(action, { token });
    expect(location(saved)).toBe(`${view}&notice=mcp-token-saved`);
    const stored = (await tenantServers(tenant.id)).find((s) => s.id === server?.id);
    expect(stored?.token?.hint).toBeTruthy();
    html = await b.page(location(saved));
    expect(html).toContain('Token saved');
    expect(html).toContain(stored?.token?.hint ?? '?');
    expect(changeForms(html)).toContain(`${action}/delete`);

    const removed = await b.post(`${action}/delete`, {});
    expect(location(removed)).toBe(`${view}&notice=mcp-token-removed`);
    expect((await tenantServers(tenant.id)).find((s) => s.id === server?.id)?.token ?? null).toBeNull();

    // Not a tenant_token server: the API refuses, the page says so beside that server's form.
    const plainNs = `pl-${uid()}`;
    await b.post(HOME, serverForm(plainNs));
    const plain = await globalServer(plainNs);
    await b.page(view);
    const refused = await b.refused(`${HOME}/tenants/${tenant.id}/${plain?.id}/token`, { token }, 400);
    expect(refused).toContain('The token was not saved');
    b.expectNone(token);
  });
});

describe('MCP tools on the key and tenant forms', () => {
  it("saves a key's allow-list, 'no tools' and call limits, and clears them back to unset", async () => {
    const tenant = await createTenant(`mcp-dash-${uid()}`);
    const key = await createKey(tenant.id);
    const b = await owner();
    const href = `/dashboard/keys/${key.id}`;
    let html = await b.page(href);
    expect(html).toContain('<legend>MCP tools</legend>');
    expect(html).toContain('every tool its tenant allows');
    const base = { name: 'agent', 'mcp.tools': 'github__*\n*__read_*', 'mcp.calls.per_minute': '30' };
    let res = await b.post(href, { ...base, 'mcp.calls.per_day': '1000' });
    expect(location(res)).toBe(`${href}?notice=key-updated`);
    expect(asKey(await admin('GET', `/keys/${key.id}`)).mcp).toEqual({
      tools: ['github__*', '*__read_*'],
      calls: { per_minute: 30, per_day: 1000 },
    });
    html = await b.page(href);
    expect(html).toMatch(/name="mcp.tools"[^>]*>github__\*\n\*__read_\*<\/textarea>/);
    expect(html).toMatch(/id="f-mcp-calls-per_day"[^>]*value="1000"/);
    expect(html).toContain('github__*, *__read_* · 30 calls/min · 1,000 calls/day');

    res = await b.post(href, { ...base, 'mcp.no_tools': 'on' });
    expect(res.status).toBe(303);
    expect(asKey(await admin('GET', `/keys/${key.id}`)).mcp?.tools).toEqual([]);
    html = await b.page(href);
    expect(html).toMatch(/<input type="checkbox" name="mcp.no_tools" checked=""/);
    expect(html).toContain('<dd>no tools · 30 calls/min</dd>');

    res = await b.post(href, { name: 'agent', 'mcp.tools': '' });
    expect(res.status).toBe(303);
    expect(asKey(await admin('GET', `/keys/${key.id}`)).mcp).toEqual({ tools: null, calls: null });

    const bad = await b.refused(href, { name: 'agent', 'mcp.tools': 'github' }, 400);
    expect(bad).toContain('The key was not changed');
    expect(bad).toMatch(/name="mcp.tools"[^>]*aria-invalid="true"[^>]*>github<\/textarea>/);
  });

  it("creates a key with MCP tools from the tenant page, and saves the tenant's own with end-user limits", async () => {
    const tenant = await createTenant(`mcp-dash-${uid()}`);
    const b = await owner();
    const page = `/dashboard/tenants/${tenant.id}`;
    let html = await b.page(page);
    expect(html).toContain('<h2 id="mcp-tools-h">MCP tools</h2>');
    expect(changeForms(html)).toContain(`${page}/mcp`);

    const res = await b.post(`${page}/mcp`, {
      'mcp.tools': 'search__*',
      'mcp.calls.per_minute': '100',
      'mcp.end_user_calls.per_minute': '5',
      'mcp.end_user_calls.per_day': '50',
    });
    expect(location(res)).toBe(`${page}?notice=mcp-saved`);
    expect(asTenant(await admin('GET', `/tenants/${tenant.id}`)).mcp).toEqual({
      tools: ['search__*'],
      calls: { per_minute: 100 },
      end_user_calls: { per_minute: 5, per_day: 50 },
    });
    html = await b.page(location(res));
    expect(html).toContain('MCP tools saved');
    expect(html).toContain('search__* · 100 calls/min · each end user 5 calls/min · 50 calls/day');
    expect(html).toMatch(/id="f-tenant-mcp-end_user_calls-per_day"[^>]*value="50"/);

    const refused = await b.refused(`${page}/mcp`, { 'mcp.calls.per_minute': '-1' }, 400);
    expect(refused).toContain('The MCP tools were not saved');
    expect(refused).toMatch(/id="f-tenant-mcp-calls-per_minute"[^>]*value="-1"[^>]*aria-invalid="true"/);

    const made = await b.post(`${page}/keys`, { name: 'tooling', 'mcp.no_tools': 'on' });
    expect(made.status).toBe(303);
    const keys = await admin('GET', `/keys?tenant_id=${tenant.id}`);
    const created = (keys.json as { data: { name: string; mcp?: unknown }[] }).data.find(
      (k) => k.name === 'tooling',
    );
    expect(created?.mcp).toEqual({ tools: [], calls: null });
  });
});

describe('a tenant_admin', () => {
  it("sees only its tenant's view, no global form, and may register its own server", async () => {
    const mine = await createTenant(`mcp-mine-${uid()}`);
    const other = await createTenant(`mcp-other-${uid()}`);
    const globalNs = `gl-${uid()}`;
    const ownerBrowser = await owner();
    await ownerBrowser.page(HOME);
    await ownerBrowser.post(HOME, serverForm(globalNs));
    const globalId = (await globalServer(globalNs))?.id ?? '';

    const ta = await createAdmin('tenant_admin', [mine.id]);
    const b = new Recorder();
    await b.signIn(ta.token);
    const html = await b.page(HOME);
    expect(navLabels(html)).toContain('MCP servers');
    expect(html).not.toContain('Global servers');
    expect(html).toContain(`Servers of ${mine.name}`);
    expect(html).not.toContain(other.name);
    // The global server is offered and opens read-only through the tenant's view: no edit, no delete.
    const seen = `${HOME}/tenants/${mine.id}/${globalId}`;
    expect(html).toContain(
      `<a href="${seen}"><code>${globalNs}</code></a></th><td><span class="badge">global`,
    );
    expect(changeForms(html)).toContain(`${HOME}/tenants/${mine.id}`);
    expect(changeForms(html)).not.toContain(HOME);
    const readOnly = await b.page(seen);
    expect(readOnly).toContain('global: offered to every tenant');
    expect(changeForms(readOnly)).toEqual([]);
    expect(readOnly).not.toContain('/delete"');
    expect(readOnly).toContain(`href="${HOME}?tenant_id=${mine.id}"`);
    expect((await b.get(`${seen}/delete`)).status).toBe(403);
    expect((await b.post(`${seen}/delete`, {})).status).toBe(403);
    expect(await globalServer(globalNs)).toBeDefined();

    // It reads its tenant's MCP tools but may not change the tenant (the API's rule); its keys' it may.
    const tenantPage = await b.page(`/dashboard/tenants/${mine.id}`);
    expect(tenantPage).toContain('<h2 id="mcp-tools-h">MCP tools</h2>');
    expect(changeForms(tenantPage)).not.toContain(`/dashboard/tenants/${mine.id}/mcp`);
    const key = await createKey(mine.id);
    expect(await b.page(`/dashboard/keys/${key.id}`)).toContain('<legend>MCP tools</legend>');

    const made = await b.post(`${HOME}/tenants/${mine.id}`, serverForm(`ta-${uid()}`));
    expect(made.status).toBe(303);
    expect((await b.get(`${HOME}/global/${globalId}`)).status).toBeGreaterThanOrEqual(403);
    const foreign = await b.get(`${HOME}?tenant_id=${other.id}`);
    expect(foreign.status).toBeGreaterThanOrEqual(403);
    expect(await foreign.text()).not.toContain('Register a server');
    expect((await b.post(HOME, serverForm(`ta-${uid()}`))).status).toBeGreaterThanOrEqual(403);
  });
});
