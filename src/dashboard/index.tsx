/**
 * The admin dashboard under /dashboard: server-rendered pages (Hono JSX),
 * one small script, no build step. Every page reads and writes through the
 * admin API, called in-process through `adminFetch` (the gateway app's own
 * fetch), never through storage of its own. Order: security headers → form
 * size bound → Origin check → sign-in → session → CSRF token → pages.
 */
import { Hono } from 'hono';
import { csrf } from 'hono/csrf';
import { HTTPException } from 'hono/http-exception';
import { AdminApi, type AdminFetch } from './admin-api';
import { COPY_JS } from './assets';
import type { DashboardEnv } from './context';
import { csrfToken, formLimit, readableForm, requireSession, securityHeaders } from './guard';
import { adminRoutes } from './pages/admins';
import { analyticsRoutes } from './pages/analytics';
import { auditRoutes } from './pages/audit';
import { authRoutes, signOut } from './pages/auth';
import { keyRoutes } from './pages/keys';
import { logRoutes } from './pages/logs';
import { mcpServerRoutes } from './pages/mcp-servers';
import { pricingRoutes } from './pages/pricing';
import { providerRoutes } from './pages/providers';
import { routeRoutes } from './pages/routes';
import { ssoRoutes } from './pages/sso';
import { tenantRoutes } from './pages/tenants';
import { tenantScopeRoutes } from './pages/tenant-scopes';
import { usageRoutes } from './pages/usage';
import { messagePage } from './views/message';

export interface DashboardOptions {
  now?: () => number;
}

export function createDashboard(adminFetch: AdminFetch, options: DashboardOptions = {}) {
  const now = options.now ?? Date.now;
  const dash = new Hono<DashboardEnv>();
  dash.use('*', securityHeaders);
  dash.post('*', formLimit, csrf());
  dash.use('*', readableForm);
  dash.route('/', authRoutes(now));
  dash.route('/sso', ssoRoutes(now));

  dash.use('*', requireSession(now), csrfToken);
  dash.use('*', async function adminApi(c, next) {
    c.set('api', new AdminApi(adminFetch, c.req.url, c.env, c.executionCtx, c.var.session.who));
    await next();
  });
  dash.get('/', (c) => c.redirect('/dashboard/tenants', 303));
  dash.post('/logout', (c) => signOut(c, now));
  dash.get('/assets/copy.js', (c) => {
    c.header('content-type', 'text/javascript; charset=utf-8');
    c.header('cache-control', 'private, max-age=3600');
    return c.body(COPY_JS);
  });
  dash.route('/tenants', tenantRoutes(now));
  dash.route('/tenants', tenantScopeRoutes());
  dash.route('/keys', keyRoutes(now));
  dash.route('/routes', routeRoutes());
  dash.route('/providers', providerRoutes());
  dash.route('/pricing', pricingRoutes());
  dash.route('/mcp-servers', mcpServerRoutes());
  dash.route('/usage', usageRoutes());
  dash.route('/analytics', analyticsRoutes());
  dash.route('/logs', logRoutes());
  dash.route('/audit', auditRoutes());
  dash.route('/admins', adminRoutes(now));
  dash.all('*', (c) =>
    messagePage(c, 404, 'Not found', `There is no dashboard page at ${c.req.path}.`, c.var.session, {
      href: '/dashboard/tenants',
      label: 'Go to tenants',
    }),
  );

  dash.onError((err, c) => {
    if (err instanceof HTTPException && err.status === 403) {
      return messagePage(
        c,
        403,
        'Refused',
        'This form was sent from another site (its Origin is not this dashboard), so nothing was changed.',
        null,
      );
    }
    console.error('dashboard error', err instanceof Error ? `${err.name}: ${err.message}` : String(err));
    return messagePage(
      c,
      500,
      'Something went wrong',
      'The dashboard hit an internal error; nothing more was changed. Try again, and check the Worker logs if it persists.',
      null,
    );
  });
  return dash;
}
