/**
 * The short-lived cookie that carries one OpenID Connect sign-in from its
 * start to its callback: state, nonce, PKCE verifier and where to go after,
 * as base64url JSON, HMAC-signed with the dashboard's key (keys.ts) so it
 * cannot be forged or altered, and valid for FLOW_TTL_MS. It is SameSite=Lax,
 * not Strict, because the callback is a top-level navigation coming back from
 * the provider's site; it is scoped to /dashboard/sso and deleted at the
 * callback, so a code and state can be used once. Pure except for Web Crypto.
 */
import type { CookieOptions } from 'hono/utils/cookie';
import type { SignInSecrets } from '../admin/sso/pkce';
import { base64url, fromBase64url } from '../util/crypto';
import { dashboardKeys } from './keys';

export const FLOW_COOKIE = 'edgeway_sso';
export const FLOW_TTL_MS = 10 * 60_000;
export const FLOW_COOKIE_OPTIONS: CookieOptions = {
  path: '/dashboard/sso',
  httpOnly: true,
  secure: true,
  sameSite: 'Lax',
};

export interface Flow extends SignInSecrets {
  next: string;
  expiresAt: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function sign(adminToken: string, payload: string): Promise<string> {
  const { mac } = await dashboardKeys(adminToken);
  const bytes = await crypto.subtle.sign('HMAC', mac, encoder.encode(`sso-flow.${payload}`));
  return base64url(new Uint8Array(bytes));
}

export async function sealFlow(adminToken: string, flow: Flow): Promise<string> {
  const payload = base64url(encoder.encode(JSON.stringify(flow)));
  return `${payload}.${await sign(adminToken, payload)}`;
}

/** The flow a cookie carries, or null when it is missing, forged or expired. */
export async function openFlow(
  adminToken: string,
  cookie: string | undefined,
  now: number,
): Promise<Flow | null> {
  const match = cookie ? /^([A-Za-z0-9_-]{1,4000})\.([A-Za-z0-9_-]{43})$/.exec(cookie) : null;
  if (!match) return null;
  const [, payload = '', given = ''] = match;
  const { mac } = await dashboardKeys(adminToken);
  const ok = await crypto.subtle.verify(
    'HMAC',
    mac,
    fromBase64url(given),
    encoder.encode(`sso-flow.${payload}`),
  );
  if (!ok) return null;
  try {
    const flow = JSON.parse(decoder.decode(fromBase64url(payload))) as Flow;
    return typeof flow.expiresAt === 'number' && flow.expiresAt > now ? flow : null;
  } catch {
    return null;
  }
}
