/**
 * Guards /admin: who is calling. `Authorization: Bearer <token>` with either
 * the deployment's ADMIN_TOKEN (the break-glass owner) or a named admin's own
 * token (src/admin/access/identify.ts); where single sign-on is configured,
 * also an OpenID Connect ID token as the bearer or a Cloudflare Access
 * assertion in `Cf-Access-Jwt-Assertion` (src/admin/sso/admin-identity.ts,
 * docs/sso.md). The dashboard's in-process calls carry their signed-in admin
 * instead (src/admin/access/in-process.ts). With no ADMIN_TOKEN configured the
 * admin API is closed, not open.
 * Wrong tokens are throttled per client (src/admin/access/throttle.ts): once blocked,
 * every attempt that presents a token is refused with 429 and `retry-after`
 * before it is judged, a right token included. A request with no token
 * guesses nothing and gets its 401 without touching the throttle. A token that
 * does not verify counts as a wrong guess; a verified identity with no role is
 * a 403 and counts as nothing.
 * What the caller may then do is the next guard's question (authorize.ts).
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../../context';
import { GatewayError } from '../../core/errors';
import { identifySso, isNoRole, noRole, presentsSso } from '../sso/admin-identity';
import { ssoConfig } from '../sso/config';
import { ssoVerifier } from '../sso/identities';
import { D1AdminStore } from '../../storage/admin-store';
import { extractKey } from '../../util/bearer';
import { identifyAdmin } from './identify';
import { delegatedPrincipal } from './in-process';

export const adminAuth = createMiddleware<AppEnv>(async function adminAuth(c, next) {
  const expected = c.env.ADMIN_TOKEN;
  if (!expected) {
    throw new GatewayError(503, 'The admin API is disabled: set the ADMIN_TOKEN secret.', {
      code: 'admin_disabled',
    });
  }
  const delegated = delegatedPrincipal(c.req.raw);
  if (delegated) {
    c.set('adminPrincipal', delegated);
    return next();
  }
  const given = extractKey(c.req.raw.headers, false);
  const assertion = c.req.header('cf-access-jwt-assertion')?.trim() || null;
  const sso = ssoConfig(c.env);
  const bySso = presentsSso(sso, given, assertion);
  if (!given && !bySso) throw invalidToken();
  const admins = new D1AdminStore(c.env.DB);
  const verdict = await c.var.deps.throttle.verify(c.req.raw.headers, async () => {
    const found = bySso ? await identifySso(sso, ssoVerifier, given, assertion) : null;
    return found ?? (given ? identifyAdmin(given, expected, admins) : null);
  });
  if (verdict === 'wrong') throw invalidToken();
  if (typeof verdict === 'number') throw tooManyAttempts(verdict);
  if (isNoRole(verdict)) throw noRole(verdict.refused);
  c.set('adminPrincipal', verdict);
  await next();
});

const invalidToken = () =>
  new GatewayError(401, 'Missing or invalid admin token.', {
    code: 'invalid_admin_token',
    type: 'authentication_error',
  });

const tooManyAttempts = (seconds: number) =>
  new GatewayError(429, `Too many wrong admin tokens from this client; try again in ${seconds} s.`, {
    code: 'too_many_attempts',
    headers: { 'retry-after': String(seconds) },
  });
