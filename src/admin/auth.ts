/**
 * Guards /admin: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant
 * time. With no ADMIN_TOKEN configured the admin API is closed, not open.
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { GatewayError } from '../core/errors';
import { secretsEqual } from '../util/crypto';
import { extractKey } from '../util/bearer';

export const adminAuth = createMiddleware<AppEnv>(async function adminAuth(c, next) {
  const expected = c.env.ADMIN_TOKEN;
  if (!expected) {
    throw new GatewayError(503, 'The admin API is disabled: set the ADMIN_TOKEN secret.', {
      code: 'admin_disabled',
    });
  }
  const given = extractKey(c.req.raw.headers, false);
  if (!given || !(await secretsEqual(given, expected))) {
    throw new GatewayError(401, 'Missing or invalid admin token.', {
      code: 'invalid_admin_token',
      type: 'authentication_error',
    });
  }
  await next();
});
