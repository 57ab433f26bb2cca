/**
 * The MCP servers pages: the global servers and one tenant's view (?tenant_id=, a tenant_admin's first
 * tenant by default), registering a server (global, or a tenant's own), one server's page with its edit
 * form (PATCH: a blank secret keeps the stored one), delete behind a confirmation page, and a tenant's
 * token for a global `tenant_token` server (set or replace, remove). Everything goes through the admin
 * API as the signed-in admin; a refusal re-renders the form it came from with the API's words, and
 * never with a secret or token typed into it.
 */
import { Hono, type Context } from 'hono';
import * as z from 'zod';
import type { ApiFailure } from '../admin-api';
import { can } from '../can';
import type { DashboardEnv } from '../context';
import type { FormValues } from '../forms';
import { serverBody, serverFields, serverFormValues } from '../mcp-form';
import { McpServer, McpServerList, McpServerTokenInfo, Tenant, TenantList } from '../schemas';
import { page } from '../views/layout';
import { apiPath, listHref, MCP_HOME, type ServerPlace, serverHref, serverOp } from '../mcp-paths';
import { DeleteServerPage, McpServerPage } from '../views/mcp-server';
import { type ListForm, McpServersPage } from '../views/mcp-servers';
import { failurePage, failureStatus, messagePage } from '../views/message';
import { noticeOf, readForm, seg, tenantFilter } from './shared';

type C = Context<DashboardEnv>;
const BACK = { href: MCP_HOME, label: 'Back to MCP servers' };
const OPTIONS = { title: 'MCP servers', section: 'mcp' as const };

/** `?notice=` added to a list or server href (which may carry a query already). */
const withNotice = (href: string, notice: string) =>
  `${href}${href.includes('?') ? '&' : '?'}notice=${notice}`;

interface Refused {
  failure: ApiFailure;
  form: ListForm;
  values?: FormValues;
  server?: string;
}

async function listPage(c: C, asked: string | undefined, refused?: Refused) {
  const { api, session } = c.var;
  const tenantId = tenantFilter(c, asked);
  const readsGlobals = can(session.who, 'GET /admin/mcp-servers');
  const [globals, tenants, tenant, servers] = await Promise.all([
    readsGlobals ? api.get('/mcp-servers', McpServerList) : null,
    api.get('/tenants', TenantList, { limit: 100 }),
    tenantId ? api.get(`/tenants/${seg(tenantId)}`, Tenant) : null,
    tenantId ? api.get(apiPath(tenantId), McpServerList) : null,
  ]);
  if (!tenants.ok) return failurePage(c, tenants, session, BACK);
  if (globals && !globals.ok) return failurePage(c, globals, session, BACK);
  // A tenant that cannot be read (missing, or not this admin's) is a refusal in its section, not a broken page.
  const readFailure = (tenant && !tenant.ok ? tenant : null) ?? (servers && !servers.ok ? servers : null);
  const failure = refused?.failure ?? readFailure;
  const body = (
    <McpServersPage
      session={session}
      globals={globals ? globals.data.data : null}
      tenants={tenants.data.data}
      tenant={tenant?.ok ? tenant.data : null}
      tenantServers={servers?.ok ? servers.data.data : null}
      failure={failure}
      failed={refused?.form ?? null}
      failedServer={refused?.server ?? null}
      values={refused?.values ?? {}}
      notice={noticeOf(c)}
    />
  );
  return page(c, { ...OPTIONS, session }, body, failureStatus(failure));
}

async function serverPage(c: C, place: ServerPlace, refused?: { failure: ApiFailure; values: FormValues }) {
  const res = await c.var.api.get(apiPath(place.tenantId, place.serverId), McpServer);
  if (!res.ok)
    return failurePage(c, res, c.var.session, { href: listHref(place.tenantId), label: BACK.label });
  const body = (
    <McpServerPage
      session={c.var.session}
      server={res.data}
      viewTenant={place.tenantId}
      values={refused?.values ?? serverFormValues(res.data)}
      failure={refused?.failure ?? null}
      notice={noticeOf(c)}
    />
  );
  const title = `MCP server ${res.data.namespace}`;
  return page(
    c,
    { ...OPTIONS, title, session: c.var.session },
    body,
    failureStatus(refused?.failure ?? null),
  );
}

/** One server's page, edit, delete and tenant token, for the servers of a place read from the URL. */
function oneServer(router: Hono<DashboardEnv>, path: string, tenantOf: (c: C) => string | null) {
  const placeOf = (c: C): ServerPlace => ({ tenantId: tenantOf(c), serverId: c.req.param('server') ?? '' });

  router.get(path, (c) => serverPage(c, placeOf(c)));

  router.post(path, async (c) => {
    const place = placeOf(c);
    const values = await readForm(c);
    const api = apiPath(place.tenantId, place.serverId);
    const res = await c.var.api.send('PATCH', api, McpServer, serverBody(values));
    if (!res.ok) return serverPage(c, place, { failure: res, values: serverFields(values) });
    return c.redirect(withNotice(serverHref(place), 'mcp-server-updated'), 303);
  });

  router.get(`${path}/delete`, async (c) => {
    const place = placeOf(c);
    const res = await c.var.api.get(apiPath(place.tenantId, place.serverId), McpServer);
    if (!res.ok) return failurePage(c, res, c.var.session, BACK);
    // Asked of the server itself: a global one seen through a tenant's view is not the tenant's to delete.
    const owner = res.data.tenant_id;
    if (!can(c.var.session.who, serverOp('DELETE', owner), owner))
      return messagePage(c, 403, 'Not allowed', 'Your role may not delete this server.', c.var.session, BACK);
    const title = `Delete MCP server ${res.data.namespace}`;
    return page(
      c,
      { ...OPTIONS, title, session: c.var.session },
      <DeleteServerPage session={c.var.session} server={res.data} />,
    );
  });

  router.post(`${path}/delete`, async (c) => {
    const place = placeOf(c);
    const res = await c.var.api.send('DELETE', apiPath(place.tenantId, place.serverId), z.unknown());
    if (!res.ok)
      return failurePage(c, res, c.var.session, { href: serverHref(place), label: 'Back to the server' });
    return c.redirect(withNotice(listHref(place.tenantId), 'mcp-server-deleted'), 303);
  });
}

export function mcpServerRoutes() {
  const router = new Hono<DashboardEnv>();

  router.get('/', (c) => listPage(c, c.req.query('tenant_id')?.trim() || undefined));

  router.post('/', async (c) => {
    const values = await readForm(c);
    const res = await c.var.api.send('POST', '/mcp-servers', McpServer, serverBody(values));
    if (!res.ok)
      return listPage(c, undefined, { failure: res, form: 'global', values: serverFields(values) });
    return c.redirect(withNotice(MCP_HOME, 'mcp-server-created'), 303);
  });

  router.post('/tenants/:tenant', async (c) => {
    const tenantId = c.req.param('tenant');
    const values = await readForm(c);
    const res = await c.var.api.send('POST', apiPath(tenantId), McpServer, serverBody(values));
    if (!res.ok) return listPage(c, tenantId, { failure: res, form: 'tenant', values: serverFields(values) });
    return c.redirect(withNotice(listHref(tenantId), 'mcp-server-created'), 303);
  });

  router.post('/tenants/:tenant/:server/token', async (c) => {
    const tenantId = c.req.param('tenant');
    const serverId = c.req.param('server');
    const values = await readForm(c);
    const path = `${apiPath(tenantId, serverId)}/token`;
    const res = await c.var.api.send('PUT', path, McpServerTokenInfo, { token: values.token ?? '' });
    if (!res.ok) return listPage(c, tenantId, { failure: res, form: 'token', server: serverId });
    return c.redirect(withNotice(listHref(tenantId), 'mcp-token-saved'), 303);
  });

  router.post('/tenants/:tenant/:server/token/delete', async (c) => {
    const tenantId = c.req.param('tenant');
    const serverId = c.req.param('server');
    const path = `${apiPath(tenantId, serverId)}/token`;
    const res = await c.var.api.send('DELETE', path, z.unknown());
    if (!res.ok) return listPage(c, tenantId, { failure: res, form: 'token', server: serverId });
    return c.redirect(withNotice(listHref(tenantId), 'mcp-token-removed'), 303);
  });

  oneServer(router, '/global/:server', () => null);
  oneServer(router, '/tenants/:tenant/:server', (c) => c.req.param('tenant') ?? null);
  return router;
}
