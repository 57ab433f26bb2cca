/**
 * Guards /admin: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant
 * time. With no ADMIN_TOKEN configured the admin API is closed, not open.
 * Wrong tokens are throttled per client (src/admin/throttle.ts): once blocked,
 * every attempt that presents a token is refused with 429 and `retry-after`
 * before it is compared, the right token included. A request with no token
 * guesses nothing and gets its 401 without touching the throttle.
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { GatewayError } from '../core/errors';
import { extractKey } from '../util/bearer';

export const adminAuth = createMiddleware<AppEnv>(async function adminAuth(c, next) {
  const expected = c.env.ADMIN_TOKEN;
  if (!expected) {
    throw new GatewayError(503, 'The admin API is disabled: set the ADMIN_TOKEN secret.', {
      code: 'admin_disabled',
    });
  }
  const given = extractKey(c.req.raw.headers, false);
  if (!given) throw invalidToken();
  const verdict = await c.var.deps.throttle.verify(c.req.raw.headers, given, expected);
  if (verdict === 'wrong') throw invalidToken();
  if (verdict !== 'ok') throw tooManyAttempts(verdict);
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
