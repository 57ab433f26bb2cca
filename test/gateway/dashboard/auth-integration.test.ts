/** Dashboard sign-in, session cookie, session checks and CSRF, through SELF.fetch. */
import { createExecutionContext, env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createDashboard } from '../../../src/dashboard';
import { BREAK_GLASS_ID } from '../../../src/core/admin-principal';
import { issueSession, SESSION_COOKIE, SESSION_TTL_MS } from '../../../src/dashboard/session';
import { ADMIN_TOKEN, Browser, location, ORIGIN } from '../dashboard-helpers';

const PAGES = [
  '/dashboard',
  '/dashboard/',
  '/dashboard/tenants',
  '/dashboard/tenants/ten_x',
  '/dashboard/keys/key_x',
  '/dashboard/keys/key_x/secret',
  '/dashboard/keys/key_x/revoke',
  '/dashboard/usage',
  '/dashboard/usage?tenant_id=ten_x',
  '/dashboard/logs',
  '/dashboard/logs/req_1',
  '/dashboard/assets/copy.js',
  '/dashboard/nothing-here',
];

function withCookie(path: string, cookie: string): Promise<Response> {
  return SELF.fetch(`${ORIGIN}${path}`, { headers: { cookie }, redirect: 'manual' });
}

describe('without a session', () => {
  it.each(PAGES)('GET %s redirects to sign-in and shows nothing', async (path) => {
    const res = await withCookie(path, '');
    expect(res.status).toBe(303);
    expect(location(res)).toMatch(/^\/dashboard\/login\?next=/);
    expect(await res.text()).not.toContain('Tenants');
  });

  it('remembers where the admin was going, inside the dashboard only', async () => {
    const res = await withCookie('/dashboard/logs?status=5xx', '');
    expect(decodeURIComponent(location(res).split('next=')[1] ?? '')).toBe('/dashboard/logs?status=5xx');
    const browser = new Browser();
    const signIn = await browser.post(
      '/dashboard/login',
      { token: ADMIN_TOKEN, next: 'https://evil.example/' },
      { csrf: null },
    );
    expect(location(signIn)).toBe('/dashboard/tenants');
  });

  it.each(['/dashboard/tenants', '/dashboard/keys/key_x/revoke', '/dashboard/logout'])(
    'POST %s changes nothing and redirects to sign-in',
    async (path) => {
      const res = await new Browser().post(path, { name: 'x' }, { csrf: 'anything' });
      expect(res.status).toBe(303);
      expect(location(res)).toMatch(/^\/dashboard\/login/);
    },
  );
});

describe('sign-in', () => {
  it('refuses a wrong token with a 401 page in words and no cookie', async () => {
    const browser = new Browser();
    const res = await browser.post('/dashboard/login', { token: 'wrong' }, { csrf: null });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('That is not an admin token');
    expect(browser.jar.size).toBe(0);
  });

  it('sets an HttpOnly, Secure, SameSite=Strict session cookie scoped to /dashboard that is not the token', async () => {
    const res = await new Browser().post('/dashboard/login', { token: ADMIN_TOKEN }, { csrf: null });
    expect(res.status).toBe(303);
    expect(location(res)).toBe('/dashboard/tenants');
    const cookie = res.headers.getAll('set-cookie').find((c) => c.startsWith(`${SESSION_COOKIE}=`)) ?? '';
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; SameSite=Strict/i);
    expect(cookie).toMatch(/; Path=\/dashboard(;|$)/);
    expect(cookie).toMatch(new RegExp(`; Max-Age=${SESSION_TTL_MS / 1000}`));
    expect(cookie).not.toContain(ADMIN_TOKEN);
  });

  it('refuses a sign-in form posted from another origin', async () => {
    const browser = new Browser();
    const res = await browser.post(
      '/dashboard/login',
      { token: ADMIN_TOKEN },
      { csrf: null, origin: 'https://evil.example' },
    );
    expect(res.status).toBe(403);
    expect(browser.jar.size).toBe(0);
  });

  it('lets a signed-in admin in, with security headers on the page', async () => {
    const browser = new Browser();
    await browser.signIn();
    const res = await browser.get('/dashboard/tenants');
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toMatch(/style-src 'nonce-[^']+'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? '';
    expect(html).toContain(`<style nonce="${nonce}">`);
    expect(html).not.toMatch(/<script(?![^>]*src=)/);
  });

  it('signs out: the cookie is cleared and pages redirect again', async () => {
    const browser = new Browser();
    await browser.signIn();
    const old = browser.cookieHeader();
    const res = await browser.post('/dashboard/logout', {});
    expect(location(res)).toBe('/dashboard/login?signed_out=1');
    expect(res.headers.getAll('set-cookie').join('\n')).toMatch(new RegExp(`${SESSION_COOKIE}=; Max-Age=0`));
    expect((await browser.get('/dashboard/tenants')).status).toBe(303);
    expect(old).toContain(SESSION_COOKIE);
  });
});

describe('without ADMIN_TOKEN', () => {
  it('is closed: no sign-in, no pages, and the admin API is never called', async () => {
    let calls = 0;
    const dash = createDashboard(() => {
      calls += 1;
      return new Response(null, { status: 500 });
    });
    const closed = { ...env, ADMIN_TOKEN: undefined };
    const { cookie } = await issueSession('', BREAK_GLASS_ID, Date.now());
    for (const [path, init] of [
      ['/login', {}],
      ['/tenants', { headers: { cookie: `${SESSION_COOKIE}=${cookie}` } }],
      [
        '/login',
        {
          method: 'POST',
          headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded' },
          body: 'token=',
        },
      ],
    ] as const) {
      const res = await dash.request(`http://localhost${path}`, init, closed, createExecutionContext());
      expect(res.status, path).toBe(503);
      expect(await res.text()).toContain('set the ADMIN_TOKEN secret');
    }
    expect(calls).toBe(0);
  });
});

describe('session checks', () => {
  it('refuses an expired session', async () => {
    const { cookie } = await issueSession(ADMIN_TOKEN, BREAK_GLASS_ID, Date.now() - SESSION_TTL_MS - 1000);
    const res = await withCookie('/dashboard/tenants', `${SESSION_COOKIE}=${cookie}`);
    expect(res.status).toBe(303);
    expect(res.headers.getAll('set-cookie').join('\n')).toMatch(new RegExp(`${SESSION_COOKIE}=; Max-Age=0`));
  });

  it('refuses a session whose expiry was pushed forward', async () => {
    const { cookie } = await issueSession(ADMIN_TOKEN, BREAK_GLASS_ID, Date.now() - SESSION_TTL_MS - 1000);
    const [v, id, admin, exp, mac] = cookie.split('.');
    const forged = `${v}.${id}.${admin}.${Number(exp) + 2 * SESSION_TTL_MS}.${mac}`;
    expect((await withCookie('/dashboard/tenants', `${SESSION_COOKIE}=${forged}`)).status).toBe(303);
  });

  it('refuses a tampered signature, garbage, and the raw admin token as a cookie', async () => {
    const { cookie } = await issueSession(ADMIN_TOKEN, BREAK_GLASS_ID, Date.now());
    const flipped = cookie.slice(0, -2) + (cookie.endsWith('AA') ? 'BA' : 'AA');
    for (const value of [flipped, 'v1.abc.1.def', ADMIN_TOKEN, `${cookie}x`]) {
      expect((await withCookie('/dashboard/tenants', `${SESSION_COOKIE}=${value}`)).status, value).toBe(303);
    }
  });

  it('refuses a session signed with another admin token (token change logs everyone out)', async () => {
    const { cookie } = await issueSession('the-previous-admin-token', BREAK_GLASS_ID, Date.now());
    expect((await withCookie('/dashboard/tenants', `${SESSION_COOKIE}=${cookie}`)).status).toBe(303);
    const { cookie: good } = await issueSession(ADMIN_TOKEN, BREAK_GLASS_ID, Date.now());
    expect((await withCookie('/dashboard/tenants', `${SESSION_COOKIE}=${good}`)).status).toBe(200);
  });
});

describe('CSRF', () => {
  async function tenantNames(browser: Browser): Promise<string> {
    return browser.page('/dashboard/tenants');
  }

  it('refuses a change without the form token, and changes nothing', async () => {
    const browser = new Browser();
    await browser.signIn();
    const res = await browser.post('/dashboard/tenants', { name: 'csrf-no-token' }, { csrf: null });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('could not be verified');
    expect(await tenantNames(browser)).not.toContain('csrf-no-token');
  });

  it("refuses another session's token", async () => {
    const a = new Browser();
    const b = new Browser();
    await a.signIn();
    await b.signIn();
    expect(a.csrf).not.toBe(b.csrf);
    const res = await a.post('/dashboard/tenants', { name: 'csrf-foreign-token' }, { csrf: b.csrf });
    expect(res.status).toBe(403);
  });

  it('refuses a change from a foreign Origin even with a valid token', async () => {
    const browser = new Browser();
    await browser.signIn();
    const res = await browser.post(
      '/dashboard/tenants',
      { name: 'csrf-evil-origin' },
      { origin: 'https://evil.example' },
    );
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('another site');
    const none = await browser.post('/dashboard/tenants', { name: 'csrf-no-origin' }, { origin: null });
    expect(none.status).toBe(403);
    expect(await tenantNames(browser)).not.toMatch(/csrf-(evil|no)-origin/);
  });

  it('accepts the same change with the token from the same origin', async () => {
    const browser = new Browser();
    await browser.signIn();
    const res = await browser.post('/dashboard/tenants', { name: 'csrf-ok' });
    expect(res.status).toBe(303);
    expect(await browser.page(location(res))).toContain('csrf-ok');
  });
});
