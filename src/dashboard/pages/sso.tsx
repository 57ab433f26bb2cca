/**
 * Sign-in with the configured OpenID Connect provider (docs/sso.md): the
 * authorization code flow with PKCE (S256), state and nonce.
 * - GET /dashboard/sso/start: discovery, fresh state, nonce and verifier in
 *   the signed flow cookie (sso-flow.ts), then off to the provider;
 * - GET /dashboard/sso/callback: the state must be the flow's own (compared
 *   in constant time); the code is exchanged with the verifier; the ID token
 *   is verified (signature, issuer, audience, times, nonce); SSO_ROLE_MAP
 *   gives the identity its role, or a page says it has none. Success issues an
 *   SSO session (sso-session.ts) and a page that moves on to the dashboard: a
 *   redirect answering the provider's redirect would still count as cross-site,
 *   and the SameSite=Strict session cookie would not be sent with it.
 * Every failure is a page in words with a way back to sign-in.
 */
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { html } from 'hono/html';
import { authorizationUrl, exchangeCode } from '../../admin/sso/authorization';
import { type SsoConfig, ssoConfig } from '../../admin/sso/config';
import { SsoUnavailable } from '../../admin/sso/fetch-json';
import { ssoVerifier } from '../../admin/sso/identities';
import { newSignIn } from '../../admin/sso/pkce';
import { principalFor, relevantGroups } from '../../admin/sso/role-map';
import { secretsEqual } from '../../util/crypto';
import type { DashboardEnv } from '../context';
import { disabledPage, noRolePage, safeNext, SESSION_COOKIE_OPTIONS } from '../guard';
import { SESSION_COOKIE, SESSION_TTL_MS } from '../session';
import { FLOW_COOKIE, FLOW_COOKIE_OPTIONS, FLOW_TTL_MS, openFlow, sealFlow } from '../sso-flow';
import { issueSsoSession } from '../sso-session';
import { messagePage } from '../views/message';

const BACK = { href: '/dashboard/login', label: 'Back to sign-in' };

const failed = (c: Context<DashboardEnv>, status: 400 | 401 | 503, text: string) =>
  messagePage(c, status, 'Not signed in', text, null, BACK);

function unavailable(c: Context<DashboardEnv>, why: string) {
  console.error('dashboard: single sign-on unavailable:', why);
  return failed(
    c,
    503,
    'Single sign-on is not available right now (the Worker logs say why). Sign in with an admin token instead.',
  );
}

/** The configuration the flow needs, or null when OIDC is not (fully) configured. */
function ready(config: SsoConfig) {
  return config.oidc && config.roleMap ? { oidc: config.oidc, map: config.roleMap } : null;
}

const redirectUriOf = (c: Context<DashboardEnv>, configured: string | null) =>
  configured ?? new URL('/dashboard/sso/callback', c.req.url).toString();

/** Moves the browser on from a same-site page, so the new SameSite=Strict session cookie goes with it. */
function continuePage(c: Context<DashboardEnv>, next: string) {
  c.header('cache-control', 'no-store');
  return c.html(
    html`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${next}"><title>Signed in · Edgeway</title></head><body><p>Signed in. <a href="${next}">Continue to the dashboard</a>.</p></body></html>`,
  );
}

export function ssoRoutes(now: () => number = Date.now) {
  const router = new Hono<DashboardEnv>();

  router.get('/start', async (c) => {
    const token = c.env.ADMIN_TOKEN;
    if (!token) return disabledPage(c);
    const config = ssoConfig(c.env);
    const sso = ready(config);
    if (!sso) return unavailable(c, config.problem ?? 'OIDC_ISSUER and OIDC_CLIENT_ID are not set');
    let meta: Awaited<ReturnType<typeof ssoVerifier.discovery.metadata>>;
    try {
      meta = await ssoVerifier.discovery.metadata(sso.oidc.issuer);
    } catch (err) {
      if (err instanceof SsoUnavailable) return unavailable(c, err.message);
      throw err;
    }
    const secrets = newSignIn();
    const next = safeNext(c.req.query('next'));
    const flow = await sealFlow(token, { ...secrets, next, expiresAt: now() + FLOW_TTL_MS });
    setCookie(c, FLOW_COOKIE, flow, { ...FLOW_COOKIE_OPTIONS, maxAge: FLOW_TTL_MS / 1000 });
    c.header('cache-control', 'no-store');
    return c.redirect(
      await authorizationUrl(sso.oidc, meta, redirectUriOf(c, sso.oidc.redirectUri), secrets),
      303,
    );
  });

  router.get('/callback', async (c) => {
    const token = c.env.ADMIN_TOKEN;
    if (!token) return disabledPage(c);
    const config = ssoConfig(c.env);
    const sso = ready(config);
    if (!sso) return unavailable(c, config.problem ?? 'OIDC_ISSUER and OIDC_CLIENT_ID are not set');
    const flow = await openFlow(token, getCookie(c, FLOW_COOKIE), now());
    deleteCookie(c, FLOW_COOKIE, FLOW_COOKIE_OPTIONS);
    if (!flow)
      return failed(c, 400, 'This sign-in expired or was not started in this browser. Start it again.');
    const q = c.req.query();
    if (q.error) {
      const why = q.error_description ? `${q.error}: ${q.error_description}` : q.error;
      return failed(c, 401, `The identity provider did not sign you in (${why}).`);
    }
    if (!q.code || !q.state || !(await secretsEqual(q.state, flow.state)))
      return failed(
        c,
        400,
        "The identity provider's answer does not belong to this sign-in. Start it again.",
      );
    try {
      const meta = await ssoVerifier.discovery.metadata(sso.oidc.issuer);
      const redirectUri = redirectUriOf(c, sso.oidc.redirectUri);
      const exchanged = await exchangeCode(
        ssoVerifier.get,
        sso.oidc,
        meta,
        q.code,
        redirectUri,
        flow.verifier,
      );
      if (!exchanged.ok) return failed(c, 401, exchanged.message);
      const verified = await ssoVerifier.idToken(sso.oidc, sso.map, exchanged.idToken, flow.nonce);
      if (!verified.ok)
        return failed(c, 401, `The identity provider's ID token was refused: ${verified.detail}.`);
      const identity = verified.identity;
      if (!principalFor(sso.map, identity)) return noRolePage(c, identity);
      const kept = { ...identity, groups: relevantGroups(sso.map, identity.groups) };
      const issued = await issueSsoSession(token, kept, now());
      if (!issued)
        return failed(c, 400, 'Your identity is too large to keep in a session (very long name or email).');
      setCookie(c, SESSION_COOKIE, issued.cookie, {
        ...SESSION_COOKIE_OPTIONS,
        maxAge: SESSION_TTL_MS / 1000,
      });
      return continuePage(c, flow.next);
    } catch (err) {
      if (err instanceof SsoUnavailable) return unavailable(c, err.message);
      throw err;
    }
  });

  return router;
}
