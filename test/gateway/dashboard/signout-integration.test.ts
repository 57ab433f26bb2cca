/** Sign-out ends the session on the server: a copy of the old cookie no longer opens anything. */
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { BREAK_GLASS_ID } from '../../../src/core/admin-principal';
import { issueSession, SESSION_COOKIE, SESSION_TTL_MS } from '../../../src/dashboard/session';
import { ADMIN_TOKEN, Browser, location, ORIGIN } from '../dashboard-helpers';

function withCookie(path: string, cookie: string, init: RequestInit = {}): Promise<Response> {
  return SELF.fetch(`${ORIGIN}${path}`, {
    ...init,
    headers: { ...(init.headers as Record<string, string>), cookie },
    redirect: 'manual',
  });
}

describe('sign-out', () => {
  it('revokes the session: the old cookie, replayed, is refused everywhere', async () => {
    const browser = new Browser();
    await browser.signIn();
    const old = browser.cookieHeader();
    const csrf = browser.csrf;
    expect((await withCookie('/dashboard/tenants', old)).status).toBe(200);

    const out = await browser.post('/dashboard/logout', {});
    expect(location(out)).toBe('/dashboard/login?signed_out=1');

    const page = await withCookie('/dashboard/tenants', old);
    expect(page.status).toBe(303);
    expect(location(page)).toMatch(/^\/dashboard\/login/);
    const change = await withCookie('/dashboard/tenants', old, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: 'after-sign-out', _csrf: csrf }),
    });
    expect(change.status).toBe(303);
    // The sign-in page no longer treats the old cookie as signed in.
    expect((await withCookie('/dashboard/login', old)).status).toBe(200);
    const tenants = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM tenants WHERE name = 'after-sign-out'",
    ).first<{
      n: number;
    }>();
    expect(tenants?.n).toBe(0);
  });

  it('revokes only that session: another sign-in stays valid', async () => {
    const a = new Browser();
    const b = new Browser();
    await a.signIn();
    await b.signIn();
    await a.post('/dashboard/logout', {});
    expect((await withCookie('/dashboard/tenants', b.cookieHeader())).status).toBe(200);
  });

  it('keeps a revocation only until its session would have expired anyway', async () => {
    const stale = await issueSession(ADMIN_TOKEN, BREAK_GLASS_ID, Date.now() - SESSION_TTL_MS - 1000);
    await env.DB.prepare('INSERT INTO revoked_sessions (id, expires_at) VALUES (?, ?)')
      .bind(stale.session.id, stale.session.expiresAt)
      .run();
    const browser = new Browser();
    await browser.signIn();
    const id = browser.jar.get(SESSION_COOKIE)?.split('.')[1];
    await browser.post('/dashboard/logout', {});
    const rows = await env.DB.prepare('SELECT id FROM revoked_sessions').all<{ id: string }>();
    const ids = rows.results.map((r) => r.id);
    expect(ids).not.toContain(stale.session.id);
    expect(ids).toContain(id);
  });

  it('still signs a fresh session in after signing out', async () => {
    const browser = new Browser();
    await browser.signIn();
    await browser.post('/dashboard/logout', {});
    await browser.signIn();
    expect((await browser.get('/dashboard/tenants')).status).toBe(200);
    expect(browser.cookieHeader()).toContain(SESSION_COOKIE);
  });
});
