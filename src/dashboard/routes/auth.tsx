/**
 * Sign-in and sign-out. The admin token is compared in constant time and
 * never stored: success issues a signed session cookie (session.ts). Failed
 * attempts get one generic answer; the token's entropy is what resists
 * guessing. The sign-in form is protected from cross-site posting by the
 * Origin check (there is no session yet to bind a token to).
 */
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { secretsEqual } from '../../util/crypto';
import type { DashboardEnv } from '../context';
import { disabledPage, safeNext, SESSION_COOKIE_OPTIONS } from '../guard';
import { issueSession, readSession, SESSION_COOKIE, SESSION_TTL_MS } from '../session';
import { page } from '../views/layout';

function LoginForm(props: { next: string; error?: string | null; notice?: string | null }) {
  return (
    <>
      <h1>Sign in</h1>
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
              The ADMIN_TOKEN secret (in development: <code>.dev.vars</code>).
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
    if (await readSession(token, getCookie(c, SESSION_COOKIE), now())) return c.redirect(next, 303);
    const notice = c.req.query('signed_out') !== undefined ? 'You are signed out.' : null;
    return page(c, { title: 'Sign in', session: null }, <LoginForm next={next} notice={notice} />);
  });

  router.post('/login', async (c) => {
    const token = c.env.ADMIN_TOKEN;
    if (!token) return disabledPage(c);
    const body = await c.req.parseBody();
    const next = safeNext(typeof body.next === 'string' ? body.next : undefined);
    const given = typeof body.token === 'string' ? body.token.trim() : '';
    if (!(await secretsEqual(given, token))) {
      return page(
        c,
        { title: 'Sign in', session: null },
        <LoginForm next={next} error="That is not the admin token. Nothing was signed in." />,
        401,
      );
    }
    const { cookie } = await issueSession(token, now());
    setCookie(c, SESSION_COOKIE, cookie, { ...SESSION_COOKIE_OPTIONS, maxAge: SESSION_TTL_MS / 1000 });
    return c.redirect(next, 303);
  });

  return router;
}

/** Sign-out sits behind the session guard and the CSRF token like every other change. */
export function signOut(c: Context<DashboardEnv>) {
  deleteCookie(c, SESSION_COOKIE, SESSION_COOKIE_OPTIONS);
  return c.redirect('/dashboard/login?signed_out=1', 303);
}
