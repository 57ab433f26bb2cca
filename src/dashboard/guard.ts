/**
 * What stands in front of every dashboard page:
 * - security headers: a CSP with no inline script (styles by per-response
 *   nonce only), no framing (frame-ancestors 'none' and X-Frame-Options DENY),
 *   same-origin referrers, nosniff;
 * - requireSession: no page, asset or data without a valid signed session
 *   that was not signed out (revocations in D1, src/storage/revoked-sessions.ts)
 *   and whose admin still exists and is active, loaded afresh on every page
 *   (so a disabled, deleted or re-roled admin's next page reflects it);
 *   otherwise a 303 to the sign-in page (fail closed: no ADMIN_TOKEN, no dashboard);
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
import { readSession, SESSION_COOKIE } from './session';
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

/** The request's session: signed with this ADMIN_TOKEN, unexpired, not signed out, its admin active; else null. */
export async function currentSession(
  c: Context<DashboardEnv>,
  adminToken: string,
  now: number,
): Promise<SignedIn | null> {
  const session = await readSession(adminToken, getCookie(c, SESSION_COOKIE), now);
  if (!session) return null;
  const [revoked, who] = await Promise.all([
    c.var.deps.sessions.isRevoked(session.id),
    adminOf(c, session.adminId),
  ]);
  return revoked || !who ? null : { ...session, who };
}

export function requireSession(now: () => number = Date.now) {
  return createMiddleware<DashboardEnv>(async function requireSession(c, next) {
    const token = c.env.ADMIN_TOKEN;
    if (!token) return disabledPage(c);
    const raw = getCookie(c, SESSION_COOKIE);
    const session = await currentSession(c, token, now());
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
