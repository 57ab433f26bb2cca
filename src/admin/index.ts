/** The admin API under /admin: who is calling, what they may do, then one router per resource. */
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { adminsRouter } from './access/admins';
import { alertsRouter } from './resources/alerts';
import { analyticsRouter } from './resources/analytics';
import { auditRouter } from './access/audit';
import { adminAuth } from './access/auth';
import { authorize } from './access/authorize';
import { endUsersRouter } from './resources/end-users';
import { keysRouter } from './resources/keys';
import { limitsRouter } from './resources/limits';
import { logExportRouter } from './resources/log-export';
import { logsRouter } from './resources/logs';
import { mcpServersRouter } from './resources/mcp-servers';
import { metricsRouter } from './resources/metrics';
import { OPERATIONS, openApiDocument } from './openapi';
import { providerKeysRouter } from './resources/provider-keys';
import { providersRouter } from './resources/providers';
import { routesRouter } from './resources/routes';
import { tenantsRouter } from './resources/tenants';
import { usageRouter } from './resources/usage';

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
  admin.route('/tenants', endUsersRouter());
  admin.route('/keys', keysRouter());
  admin.route('/providers', providersRouter());
  admin.route('/routes', routesRouter());
  admin.route('/', limitsRouter());
  admin.route('/', mcpServersRouter());
  admin.route('/logs', logExportRouter());
  admin.route('/logs', logsRouter());
  admin.route('/usage', usageRouter());
  admin.route('/analytics', analyticsRouter());
  admin.route('/metrics', metricsRouter());
  admin.route('/', adminsRouter());
  admin.route('/audit', auditRouter());
  return admin;
}
