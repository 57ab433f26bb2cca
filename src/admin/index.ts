/** The admin API under /admin: who is calling, what they may do, then one router per resource. */
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { adminsRouter } from './admins';
import { alertsRouter } from './alerts';
import { auditRouter } from './audit';
import { adminAuth } from './auth';
import { authorize } from './authorize';
import { keysRouter } from './keys';
import { limitsRouter } from './limits';
import { logExportRouter } from './log-export';
import { logsRouter } from './logs';
import { OPERATIONS, openApiDocument } from './openapi';
import { providerKeysRouter } from './provider-keys';
import { providersRouter } from './providers';
import { routesRouter } from './routes';
import { tenantsRouter } from './tenants';
import { usageRouter } from './usage';

/**
 * Every admin answer, errors and 404s included, is JSON that must not be
 * content-sniffed nor kept by any cache (it carries tenants, keys, usage).
 */
const adminHeaders = createMiddleware<AppEnv>(async function adminHeaders(c, next) {
  await next();
  c.res.headers.set('x-content-type-options', 'nosniff');
  c.res.headers.set('cache-control', 'no-store');
});

export function createAdminApp() {
  const admin = new Hono<AppEnv>();
  admin.use('*', adminHeaders);
  // The OpenAPI document is public (no data in it), so it sits before the guard.
  admin.get('/openapi.json', (c) => c.json(openApiDocument()));
  admin.use('*', adminAuth, authorize(OPERATIONS));
  admin.route('/tenants', tenantsRouter());
  admin.route('/tenants', providerKeysRouter());
  admin.route('/tenants', alertsRouter());
  admin.route('/keys', keysRouter());
  admin.route('/providers', providersRouter());
  admin.route('/routes', routesRouter());
  admin.route('/', limitsRouter());
  admin.route('/logs', logExportRouter());
  admin.route('/logs', logsRouter());
  admin.route('/usage', usageRouter());
  admin.route('/', adminsRouter());
  admin.route('/audit', auditRouter());
  return admin;
}
