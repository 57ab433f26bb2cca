/** Helpers the page routes share: the form body, the fixed success notices, safe path segments. */
import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import type { DashboardEnv } from '../context';
import { formValues, type FormValues } from '../forms';
import { SESSION_COOKIE_OPTIONS } from '../guard';
import { FLASH_COOKIE, FLASH_PATH, FLASH_TTL_MS, sealSecret } from '../secret-flash';

/** Success messages travel as a fixed key in the redirect (`?notice=`), never as free text. */
const NOTICES: Record<string, string> = {
  'tenant-created': 'Tenant created.',
  'tenant-disabled': 'Tenant disabled: all of its keys are refused from now on.',
  'tenant-enabled': 'Tenant enabled: its active keys work again.',
  'key-updated': 'Key updated; the change applies from the next request.',
  'key-revoked': 'Key revoked: requests with it are refused from now on.',
  'provider-key-saved': "Provider key saved: the tenant's requests to that provider use it from now on.",
  'guardrails-saved': 'Guardrails saved; they apply from the next request.',
  'provider-key-deleted':
    "Provider key deleted: the tenant's requests to that provider use the gateway's key again.",
};

export function noticeOf(c: Context<DashboardEnv>): string | null {
  return NOTICES[c.req.query('notice') ?? ''] ?? null;
}

export async function readForm(c: Context<DashboardEnv>): Promise<FormValues> {
  return formValues(await c.req.parseBody());
}

/** An id from the URL as one path segment of an admin API call. */
export function seg(id: string): string {
  return encodeURIComponent(id);
}

/** Hands a new secret to the once-only secret page (sealed cookie, see secret-flash.ts) and redirects there. */
export async function showSecretOnce(
  c: Context<DashboardEnv>,
  keyId: string,
  secret: string,
  now: number,
): Promise<Response> {
  const sealed = await sealSecret(c.env.ADMIN_TOKEN ?? '', c.var.session.id, keyId, secret, now);
  setCookie(c, FLASH_COOKIE, sealed, {
    ...SESSION_COOKIE_OPTIONS,
    path: FLASH_PATH,
    maxAge: FLASH_TTL_MS / 1000,
  });
  return c.redirect(`/dashboard/keys/${seg(keyId)}/secret`, 303);
}
