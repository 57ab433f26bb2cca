/**
 * Dashboard sessions of single sign-on, signed like token sessions
 * (session.ts) and ended the same way (sign-out records the id as revoked):
 * - OpenID Connect: `v3.<id>.<identity>.<expiresAt>.<mac>`, the identity
 *   (subject, email, name and the groups SSO_ROLE_MAP names) as base64url
 *   JSON. The guard maps it to a role on every page, so a rule removed from
 *   the role map applies at once; group changes at the provider apply at the
 *   next sign-in (at most SESSION_TTL_MS later).
 * - Cloudflare Access: no cookie at all. Access sends its assertion with every
 *   request; the session's id is derived from the assertion (so sign-out can
 *   revoke it) and lasts as long as the assertion.
 */
import type { SsoIdentity } from '../admin/sso/role-map';
import { base64url, fromBase64url, randomToken } from '../util/crypto';
import { dashboardKeys } from './keys';
import { mac, SESSION_TTL_MS, type Session, sessionOf } from './session';

/** An identity too large for a cookie (browsers keep 4096 bytes per cookie) cannot have a session. */
export const MAX_SSO_COOKIE = 3_800;
export const SSO_ADMIN_ID = 'sso';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface Packed {
  s: string;
  e: string | null;
  v: boolean;
  n: string | null;
  g: string[];
}

const pack = (who: SsoIdentity): string =>
  base64url(
    encoder.encode(
      JSON.stringify({ s: who.subject, e: who.email, v: who.emailVerified, n: who.name, g: who.groups }),
    ),
  );

function unpack(text: string): SsoIdentity | null {
  try {
    const p = JSON.parse(decoder.decode(fromBase64url(text))) as Packed;
    if (typeof p.s !== 'string' || !Array.isArray(p.g)) return null;
    return {
      source: 'oidc',
      subject: p.s,
      email: typeof p.e === 'string' ? p.e : null,
      emailVerified: p.v === true,
      name: typeof p.n === 'string' ? p.n : null,
      groups: p.g.filter((g): g is string => typeof g === 'string'),
    };
  } catch {
    return null;
  }
}

/** A signed-in OpenID Connect identity's cookie, or null when it would not fit in one. */
export async function issueSsoSession(
  adminToken: string,
  who: SsoIdentity,
  now: number,
): Promise<{ cookie: string; session: Session } | null> {
  const id = randomToken(16);
  const expiresAt = now + SESSION_TTL_MS;
  const payload = `v3.${id}.${pack(who)}.${expiresAt}`;
  const cookie = `${payload}.${await mac(adminToken, payload)}`;
  if (cookie.length > MAX_SSO_COOKIE) return null;
  const session = await sessionOf(adminToken, id, SSO_ADMIN_ID, expiresAt);
  return { cookie, session: { ...session, sso: who } };
}

/** The SSO session a cookie value stands for, or null when it is not one, forged, or expired. */
export async function readSsoSession(
  adminToken: string,
  cookie: string | undefined,
  now: number,
): Promise<Session | null> {
  const match = cookie
    ? /^v3\.([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]{1,3700})\.(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(cookie)
    : null;
  if (!match) return null;
  const [, id = '', packed = '', exp = '', given = ''] = match;
  const expiresAt = Number(exp);
  if (!(expiresAt > now)) return null;
  const { mac: key } = await dashboardKeys(adminToken);
  const signed = encoder.encode(`v3.${id}.${packed}.${exp}`);
  if (!(await crypto.subtle.verify('HMAC', key, fromBase64url(given), signed))) return null;
  const who = unpack(packed);
  if (!who) return null;
  return { ...(await sessionOf(adminToken, id, SSO_ADMIN_ID, expiresAt)), sso: who };
}

/** The session a verified Access assertion stands for: its id derived from the assertion, until it expires. */
export async function accessSession(
  adminToken: string,
  assertion: string,
  who: SsoIdentity,
  expiresAt: number,
): Promise<Session> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(`access.${assertion}`));
  const id = base64url(new Uint8Array(digest)).slice(0, 32);
  return { ...(await sessionOf(adminToken, id, SSO_ADMIN_ID, expiresAt)), sso: who, access: true };
}
