/** The admin API under /admin: one guard, then one router per resource. */
import { Hono } from 'hono';
import type { AppEnv } from '../context';
import { adminAuth } from './auth';
import { keysRouter } from './keys';
import { limitsRouter } from './limits';
import { logsRouter } from './logs';
import { openApiDocument } from './openapi';
import { tenantsRouter } from './tenants';
import { usageRouter } from './usage';

export function createAdminApp() {
  const admin = new Hono<AppEnv>();
  // The OpenAPI document is public (no data in it), so it sits before the guard.
  admin.get('/openapi.json', (c) => c.json(openApiDocument()));
  admin.use('*', adminAuth);
  admin.route('/tenants', tenantsRouter());
  admin.route('/keys', keysRouter());
  admin.route('/', limitsRouter());
  admin.route('/logs', logsRouter());
  admin.route('/usage', usageRouter());
  return admin;
}
