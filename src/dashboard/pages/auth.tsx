/**
 * Sign-in and sign-out. The form takes the deployment's ADMIN_TOKEN (the
 * break-glass owner, compared in constant time) or a named admin's own token
 * (found by its hash), judged by the admin API's own identifyAdmin; neither is
 * stored: success issues a signed session cookie naming the admin (session.ts). Failed
 * attempts get one generic answer, and count against the client's throttle
 * shared with the admin API (src/admin/access/throttle.ts): once blocked, sign-in
 * answers 429 with `retry-after`, whatever the token. Sign-out revokes the
 * session server-side, so a copy of the old cookie stops working too. The
 * sign-in form is protected from cross-site posting by the Origin check
 * (there is no session yet to bind a token to). Where an OpenID Connect
 * provider is configured the page also offers "Sign in with <provider>"
 * (sso.tsx); a Cloudflare Access session signs out at Access as well.
 */
import { Hono, type Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { identifyAdmin } from '../../admin/access/identify';
import { D1AdminStore } from '../../storage/admin-store';
import type { DashboardEnv } from '../context';
import { isNoRole } from '../../admin/sso/admin-identity';
import { ssoConfig } from '../../admin/sso/config';
import { currentSession, disabledPage, noRolePage, safeNext, SESSION_COOKIE_OPTIONS } from '../guard';
import { issueSession, SESSION_COOKIE, SESSION_TTL_MS } from '../session';
import { page } from '../views/layout';
import { messagePage } from '../views/message';

function LoginForm(props: {
  next: string;
  error?: string | null;
  notice?: string | null;
  sso?: string | null;
}) {
  return (
    <>
      <h1>Sign in</h1>
      {props.sso ? (
        <p>
          <a class="button" href={`/dashboard/sso/start?next=${encodeURIComponent(props.next)}`}>
            Sign in with {props.sso}
          </a>
        </p>
      ) : null}
      {props.notice ? (
        <div class="alert ok" role="status">
          {props.notice}
        </div>
      ) : null}
      {props.error ? (
        <div class="alert error" role="alert" id="form-error">
          {props.error}
        </div>
      ) : null}
      <form method="post" action="/dashboard/login" class="stack">
        <input type="hidden" name="next" value={props.next} />
        <div>
          <label for="token">
            Admin token
            <span class="hint" id="token-hint">
              Your own admin token (<code>ewadm_…</code>), or the deployment's ADMIN_TOKEN secret (in
              development: <code>.dev.vars</code>).
            </span>
          </label>
          <input
            id="token"
            name="token"
            type="password"
            required
            autocomplete="off"
            aria-describedby={props.error ? 'token-hint form-error' : 'token-hint'}
            aria-invalid={props.error ? 'true' : undefined}
          />
        </div>
        <div>
          <button type="submit">Sign in</button>
        </div>
      </form>
    </>
  );
}

export function authRoutes(now: () => number = Date.now) {
  const router = new Hono<DashboardEnv>();

  router.get('/login', async (c) => {
    const token = c.env.ADMIN_TOKEN;
    if (!token) return disabledPage(c);
    const next = safeNext(c.req.query('next'));
    const current = await currentSession(c, token, now());
    if (isNoRole(current)) return noRolePage(c, current.refused);
    if (current) return c.redirect(next, 303);
    const notice = c.req.query('signed_out') !== undefined ? 'You are signed out.' : null;
    return page(
      c,
      { title: 'Sign in', session: null },
      <LoginForm next={next} notice={notice} sso={ssoName(c)} />,
    );
  });

  router.post('/login', async (c) => {
    const token = c.env.ADMIN_TOKEN;
    if (!token) return disabledPage(c);
    const body = await c.req.parseBody();
    const next = safeNext(typeof body.next === 'string' ? body.next : undefined);
    const given = typeof body.token === 'string' ? body.token.trim() : '';
    const admins = new D1AdminStore(c.env.DB);
    const verdict = await c.var.deps.throttle.verify(c.req.raw.headers, () =>
      identifyAdmin(given, token, admins),
    );
    if (typeof verdict === 'number') return tooManyAttempts(c, verdict);
    if (verdict === 'wrong') {
      return page(
        c,
        { title: 'Sign in', session: null },
        <LoginForm next={next} error="That is not an admin token. Nothing was signed in." sso={ssoName(c)} />,
        401,
      );
    }
    const { cookie } = await issueSession(token, verdict.id, now());
    setCookie(c, SESSION_COOKIE, cookie, { ...SESSION_COOKIE_OPTIONS, maxAge: SESSION_TTL_MS / 1000 });
    return c.redirect(next, 303);
  });

  return router;
}

function tooManyAttempts(c: Context<DashboardEnv>, seconds: number) {
  c.header('retry-after', String(seconds));
  return messagePage(
    c,
    429,
    'Too many attempts',
    `Too many wrong admin tokens were tried from your address. Nothing was signed in; try again in ${seconds} seconds.`,
    null,
    { href: '/dashboard/login', label: 'Back to sign-in' },
  );
}

/** The sign-in button's provider name, when an OpenID Connect provider is configured. */
const ssoName = (c: Context<DashboardEnv>) => ssoConfig(c.env).oidc?.providerName ?? null;

/**
 * Sign-out sits behind the session guard and the CSRF token like every other change. A Cloudflare Access
 * session is revoked here and then ended at Access (its logout URL), or the next request would carry a
 * fresh assertion.
 */
export async function signOut(c: Context<DashboardEnv>, now: () => number = Date.now) {
  const { id, expiresAt, access } = c.var.session;
  await c.var.deps.sessions.revoke(id, expiresAt, now());
  deleteCookie(c, SESSION_COOKIE, SESSION_COOKIE_OPTIONS);
  return c.redirect(access ? '/cdn-cgi/access/logout' : '/dashboard/login?signed_out=1', 303);
}
