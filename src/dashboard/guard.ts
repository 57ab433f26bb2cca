/**
 * What stands in front of every dashboard page:
 * - security headers: a CSP with no inline script (styles by per-response
 *   nonce only), no framing (frame-ancestors 'none' and X-Frame-Options DENY),
 *   same-origin referrers, nosniff;
 * - requireSession: no page, asset or data without a valid signed session
 *   that was not signed out (revocations in D1, src/storage/revoked-sessions.ts)
 *   and whose admin still exists and is active, loaded afresh on every page
 *   (so a disabled, deleted or re-roled admin's next page reflects it); an
 *   SSO session's identity is mapped by SSO_ROLE_MAP afresh on every page the
 *   same way, and where Cloudflare Access is configured its assertion
 *   (`Cf-Access-Jwt-Assertion`) is a session of its own, no sign-in needed
 *   (sso-session.ts); otherwise a 303 to the sign-in page (fail closed: no
 *   ADMIN_TOKEN, no dashboard); a verified identity with no role gets a 403
 *   page saying so;
 * - CSRF on every change, two independent checks: hono/csrf (Origin or
 *   Sec-Fetch-Site must be this origin) and csrfToken (the session's token in
 *   the form's `_csrf` field, compared in constant time). The cookie is also
 *   SameSite=Strict.
 */
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, getCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import { createMiddleware } from 'hono/factory';
import { NONCE, secureHeaders } from 'hono/secure-headers';
import { type AdminPrincipal, BREAK_GLASS, BREAK_GLASS_ID } from '../core/admin-principal';
import { D1AdminStore, principalOf } from '../storage/admin-store';
import { secretsEqual } from '../util/crypto';
import type { DashboardEnv, SignedIn } from './context';
import { isNoRole, type NoRole } from '../admin/sso/admin-identity';
import { ssoConfig } from '../admin/sso/config';
import { ssoVerifier } from '../admin/sso/identities';
import { principalFor } from '../admin/sso/role-map';
import { readSession, SESSION_COOKIE, type Session } from './session';
import { accessSession, readSsoSession } from './sso-session';
import { messagePage } from './views/message';

export const securityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    styleSrc: [NONCE],
    scriptSrc: ["'self'"],
    imgSrc: ["'self'"],
    connectSrc: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
  },
  xFrameOptions: 'DENY',
  referrerPolicy: 'same-origin',
});

/** The session cookie never leaves /dashboard, never reaches scripts, never rides a cross-site request. */
export const SESSION_COOKIE_OPTIONS: CookieOptions = {
  path: '/dashboard',
  httpOnly: true,
  secure: true,
  sameSite: 'Strict',
};

/** Forms are small; anything bigger than the admin API's own body bound is refused before parsing. */
export const formLimit = bodyLimit({
  maxSize: 64 * 1024,
  onError: (c) =>
    messagePage(
      c as Context<DashboardEnv>,
      413,
      'Too large',
      'The form was larger than 64 KiB and was not read.',
      null,
    ),
});

export function disabledPage(c: Context<DashboardEnv>) {
  return messagePage(
    c,
    503,
    'Dashboard disabled',
    'The dashboard is disabled: set the ADMIN_TOKEN secret to use it.',
    null,
  );
}

const HOME = '/dashboard/tenants';

/**
 * Only paths inside the dashboard may be a post-sign-in destination (no open
 * redirect): the path is resolved as a browser would (dot segments, %2e) first.
 */
export function safeNext(raw: string | undefined): string {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.includes('\\') || raw.length > 2000) return HOME;
  const base = 'http://dashboard.invalid';
  const url = new URL(raw, base);
  const inside =
    url.origin === base && /^\/dashboard(\/|$)/.test(url.pathname) && !url.pathname.includes('//');
  return inside ? url.pathname + url.search : HOME;
}

/** The admin a session names, as it is now: the break-glass owner, or a named admin that is still active. */
async function adminOf(c: Context<DashboardEnv>, adminId: string): Promise<AdminPrincipal | null> {
  if (adminId === BREAK_GLASS_ID) return BREAK_GLASS;
  const admin = await new D1AdminStore(c.env.DB).get(adminId);
  return admin?.status === 'active' ? principalOf(admin) : null;
}

/** The admin a session stands for now: its SSO identity mapped by the current role map, or its admin. */
function whoIs(c: Context<DashboardEnv>, session: Session): Promise<AdminPrincipal | null> {
  if (!session.sso) return adminOf(c, session.adminId);
  const map = ssoConfig(c.env).roleMap;
  return Promise.resolve(map ? principalFor(map, session.sso) : null);
}

/** The session Cloudflare Access's assertion stands for, when Access is configured and one was sent. */
async function accessSignIn(
  c: Context<DashboardEnv>,
  adminToken: string,
): Promise<{ session: Session; who: AdminPrincipal | null } | null> {
  const { access, roleMap } = ssoConfig(c.env);
  const assertion = c.req.header('cf-access-jwt-assertion')?.trim();
  if (!access || !roleMap || !assertion) return null;
  const result = await ssoVerifier.accessAssertion(access, roleMap, assertion).catch((err: unknown) => {
    console.error('dashboard: Cloudflare Access keys unavailable', err instanceof Error ? err.message : err);
    return null;
  });
  if (!result?.ok) return null;
  const session = await accessSession(adminToken, assertion, result.identity, result.expiresAt);
  return { session, who: principalFor(roleMap, result.identity) };
}

/**
 * The request's session: signed with this ADMIN_TOKEN, unexpired, not signed out, its admin active (or its
 * SSO identity given a role); else a verified SSO identity with no role (NoRole); else null.
 */
export async function currentSession(
  c: Context<DashboardEnv>,
  adminToken: string,
  now: number,
): Promise<SignedIn | NoRole | null> {
  const cookie = getCookie(c, SESSION_COOKIE);
  const fromCookie =
    (await readSession(adminToken, cookie, now)) ?? (await readSsoSession(adminToken, cookie, now));
  const found = fromCookie ? { session: fromCookie, who: null } : await accessSignIn(c, adminToken);
  if (!found) return null;
  const [revoked, who] = await Promise.all([
    c.var.deps.sessions.isRevoked(found.session.id),
    fromCookie ? whoIs(c, fromCookie) : Promise.resolve(found.who),
  ]);
  if (revoked) return null;
  if (!who) return !fromCookie && found.session.sso ? { refused: found.session.sso } : null;
  return { ...found.session, who };
}

/** The page for a verified SSO identity that SSO_ROLE_MAP gives no role. */
export function noRolePage(c: Context<DashboardEnv>, refused: NoRole['refused']) {
  const shown = refused.groups.slice(0, 20);
  const more =
    refused.groups.length > shown.length ? ` and ${refused.groups.length - shown.length} more` : '';
  const groups = shown.length ? ` Its groups: ${shown.join(', ')}${more}.` : '';
  return messagePage(
    c,
    403,
    'No access',
    `You are signed in to your identity provider as ${refused.email ?? refused.subject}, but this gateway gives that identity no role: SSO_ROLE_MAP names none of its groups, nor its email or domain.${groups} Ask an owner of this gateway to add a rule for you.`,
    null,
  );
}

export function requireSession(now: () => number = Date.now) {
  return createMiddleware<DashboardEnv>(async function requireSession(c, next) {
    const token = c.env.ADMIN_TOKEN;
    if (!token) return disabledPage(c);
    const raw = getCookie(c, SESSION_COOKIE);
    const session = await currentSession(c, token, now());
    if (isNoRole(session)) return noRolePage(c, session.refused);
    if (!session) {
      if (raw !== undefined) deleteCookie(c, SESSION_COOKIE, SESSION_COOKIE_OPTIONS);
      const url = new URL(c.req.url);
      const back = c.req.method === 'GET' ? safeNext(url.pathname + url.search) : HOME;
      return c.redirect(`/dashboard/login?next=${encodeURIComponent(back)}`, 303);
    }
    c.set('session', session);
    await next();
  });
}

/**
 * A change whose body is not a readable form (a multipart body without its
 * boundary, say) is a 400 page, not a 500: the body is parsed here once (Hono
 * keeps the result for the handlers) after the size limit, before anything
 * else reads it. Only the size limit's own error passes through, as its 413.
 */
export const readableForm = createMiddleware<DashboardEnv>(async function readableForm(c, next) {
  if (/^(GET|HEAD|OPTIONS)$/.test(c.req.method)) return next();
  try {
    await c.req.parseBody();
  } catch (err) {
    if (err instanceof Error && err.name === 'BodyLimitError') throw err;
    return messagePage(
      c,
      400,
      'Form not readable',
      'This form could not be read, so nothing was changed.',
      null,
    );
  }
  await next();
});

export const csrfToken = createMiddleware<DashboardEnv>(async function csrfToken(c, next) {
  if (/^(GET|HEAD|OPTIONS)$/.test(c.req.method)) return next();
  const body = await c.req.parseBody();
  const given = typeof body._csrf === 'string' ? body._csrf : '';
  if (!(await secretsEqual(given, c.var.session.csrf))) {
    return messagePage(
      c,
      403,
      'Form expired',
      'This form could not be verified (missing or stale security token), so nothing was changed. Reload the page and try again.',
      c.var.session,
    );
  }
  await next();
});
