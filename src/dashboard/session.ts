/**
 * Dashboard sessions: a signed, expiring cookie value, never the admin token.
 *
 * Format `v2.<id>.<adminId>.<expiresAt>.<mac>`: a random 16-byte id, the
 * signed-in admin (adm_… or break-glass), the expiry in epoch ms and
 * HMAC-SHA256 over everything before the MAC with a key derived from
 * ADMIN_TOKEN (keys.ts), so a new token ends every session. Older v1 cookies
 * (no admin) are simply invalid. The cookie only names the admin: the guard
 * loads it on every page, so disabling or changing an admin applies at once. Sessions last
 * SESSION_TTL_MS from sign-in and nothing about a live one is stored; sign-out
 * deletes the cookie and records the id as revoked until that expiry
 * (src/storage/revoked-sessions.ts, checked by the guard). The CSRF token is a second MAC over the id, so
 * it is bound to the session and needs no storage either. Pure except for
 * Web Crypto; the clock is passed in. Single sign-on's sessions carry their
 * identity instead of an admin id (sso-session.ts) and share the MAC, the
 * CSRF token and the revocation.
 */
import { base64url, fromBase64url, randomToken } from '../util/crypto';
import type { SsoIdentity } from '../admin/sso/role-map';
import { dashboardKeys } from './keys';

export const SESSION_COOKIE = 'edgeway_session';
export const SESSION_TTL_MS = 8 * 3_600_000;

export interface Session {
  id: string;
  /** The admin signed in with this session (adm_… or break-glass). */
  adminId: string;
  expiresAt: number;
  /** The value every form must send back in its `_csrf` field. */
  csrf: string;
  /** An SSO session's identity (sso-session.ts); absent for a token sign-in. */
  sso?: SsoIdentity;
  /** Whether the session is a Cloudflare Access assertion's, which sign-out ends at Access too. */
  access?: boolean;
}

const encoder = new TextEncoder();

/** Admin ids have no dots (adm_ + base64url, or break-glass), so the cookie splits unambiguously. */
const ADMIN_ID = /^[A-Za-z0-9_-]{1,64}$/;

export async function mac(adminToken: string, message: string): Promise<string> {
  const { mac: key } = await dashboardKeys(adminToken);
  return base64url(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message))));
}

export async function sessionOf(
  adminToken: string,
  id: string,
  adminId: string,
  expiresAt: number,
): Promise<Session> {
  return { id, adminId, expiresAt, csrf: await mac(adminToken, `csrf.${id}`) };
}

export async function issueSession(
  adminToken: string,
  adminId: string,
  now: number,
): Promise<{ cookie: string; session: Session }> {
  if (!ADMIN_ID.test(adminId)) throw new Error(`not an admin id: ${adminId}`);
  const id = randomToken(16);
  const expiresAt = now + SESSION_TTL_MS;
  const payload = `v2.${id}.${adminId}.${expiresAt}`;
  return {
    cookie: `${payload}.${await mac(adminToken, payload)}`,
    session: await sessionOf(adminToken, id, adminId, expiresAt),
  };
}

/** The session a cookie value stands for, or null when it is malformed, forged, signed with another token or expired. */
export async function readSession(
  adminToken: string,
  cookie: string | undefined,
  now: number,
): Promise<Session | null> {
  const match = cookie
    ? /^v2\.([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]{1,64})\.(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(cookie)
    : null;
  if (!match) return null;
  const [, id = '', adminId = '', exp = '', given = ''] = match;
  const expiresAt = Number(exp);
  if (!(expiresAt > now)) return null;
  const { mac: key } = await dashboardKeys(adminToken);
  // HMAC verification in Web Crypto compares in constant time.
  const signed = encoder.encode(`v2.${id}.${adminId}.${exp}`);
  const ok = await crypto.subtle.verify('HMAC', key, fromBase64url(given), signed);
  return ok ? sessionOf(adminToken, id, adminId, expiresAt) : null;
}

export { fromBase64url };
