/** Helpers the pages share: the form body, the fixed success notices, safe path segments. */
import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import type { DashboardEnv } from '../context';
import { formValues, type FormValues } from '../forms';
import { SESSION_COOKIE_OPTIONS } from '../guard';
import { FLASH_COOKIE, FLASH_PATH, FLASH_TTL_MS, sealSecret } from '../secret-flash';

/** Success messages travel as a fixed key in the redirect (`?notice=`), never as free text. */
const NOTICES: Record<string, string> = {
  'tenant-created': 'Tenant created.',
  'tenant-renamed': 'Tenant renamed.',
  'cache-saved': 'Cache settings saved.',
  'price-saved': 'Price saved: requests are costed with it within about a minute.',
  'price-deleted': 'Price override deleted: the built-in or default price applies again.',
  'tenant-disabled': 'Tenant disabled: all of its keys are refused from now on.',
  'tenant-enabled': 'Tenant enabled: its active keys work again.',
  'key-updated': 'Key updated; the change applies from the next request.',
  'key-revoked': 'Key revoked: requests with it are refused from now on.',
  'provider-key-saved': "Provider key saved: the tenant's requests to that provider use it from now on.",
  'guardrails-saved': 'Guardrails saved; they apply from the next request.',
  'retention-saved': 'Retention saved; it applies to responses stored from the next request on.',
  'translation-saved': "Saved: the tenant's keys follow it from the next request.",
  'provider-key-deleted':
    "Provider key deleted: the tenant's requests to that provider use the gateway's key again.",
  'limits-saved': 'Limits saved; they apply from the next request.',
  'rules-saved': 'Rules saved; they apply from the next request.',
  'mcp-saved': 'MCP tools saved; they apply from the next tool call.',
  'mcp-server-created': 'MCP server registered: its tools are listed from the next /mcp session on.',
  'mcp-server-updated': 'MCP server updated; the change applies from the next tool call.',
  'mcp-server-deleted': 'MCP server deleted: its tools are no longer offered.',
  'mcp-token-saved': "Token saved: the tenant's calls to that server send it from now on.",
  'mcp-token-removed': 'Token removed: the tenant can no longer call that server until one is set.',
  'override-saved': "Override saved: the end user's next request is held to it.",
  'override-removed': "Override removed: the end user follows the tenant's default again.",
  'admin-updated': 'Admin updated; it applies from their next page or call.',
  'admin-disabled': 'Admin disabled: their token and sessions stop working at once.',
  'admin-enabled': 'Admin enabled: their token works again.',
  'admin-deleted': 'Admin deleted. Their audit entries stay.',
};

export function noticeOf(c: Context<DashboardEnv>): string | null {
  return NOTICES[c.req.query('notice') ?? ''] ?? null;
}

export async function readForm(c: Context<DashboardEnv>): Promise<FormValues> {
  return formValues(await c.req.parseBody());
}

/**
 * The tenant a page filters on: the one asked for, else, for a tenant_admin
 * (whose reads must name one of its tenants), its first.
 */
export function tenantFilter(c: Context<DashboardEnv>, asked: string | undefined): string | undefined {
  if (asked) return asked;
  const { who } = c.var.session;
  return who.role === 'tenant_admin' ? who.tenantIds[0] : undefined;
}

/** An id from the URL as one path segment of an admin API call. */
export function seg(id: string): string {
  return encodeURIComponent(id);
}

/** Where a once-only secret is shown: the sealed cookie's path and the page under it. */
export interface SecretPlace {
  cookiePath: string;
  page: (id: string) => string;
}

export const KEY_SECRET: SecretPlace = {
  cookiePath: FLASH_PATH,
  page: (id) => `/dashboard/keys/${seg(id)}/secret`,
};

export const ADMIN_TOKEN_SECRET: SecretPlace = {
  cookiePath: '/dashboard/admins',
  page: (id) => `/dashboard/admins/${seg(id)}/token`,
};

/** Hands a new secret to the once-only secret page (sealed cookie, see secret-flash.ts) and redirects there. */
export async function showSecretOnce(
  c: Context<DashboardEnv>,
  id: string,
  secret: string,
  now: number,
  place: SecretPlace = KEY_SECRET,
): Promise<Response> {
  const sealed = await sealSecret(c.env.ADMIN_TOKEN ?? '', c.var.session.id, id, secret, now);
  setCookie(c, FLASH_COOKIE, sealed, {
    ...SESSION_COOKIE_OPTIONS,
    path: place.cookiePath,
    maxAge: FLASH_TTL_MS / 1000,
  });
  return c.redirect(place.page(id), 303);
}
