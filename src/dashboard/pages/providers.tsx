/** The providers page: /admin/providers as a table. */
import { Hono } from 'hono';
import type { DashboardEnv } from '../context';
import { ProviderList } from '../schemas';
import { page } from '../views/layout';
import { failureStatus } from '../views/message';
import { ProvidersPage } from '../views/providers';

export function providerRoutes() {
  const router = new Hono<DashboardEnv>();
  router.get('/', async (c) => {
    const res = await c.var.api.get('/providers', ProviderList);
    const failure = res.ok ? null : res;
    return page(
      c,
      { title: 'Providers', session: c.var.session, section: 'providers' },
      <ProvidersPage providers={res.ok ? res.data.data : null} failure={failure} />,
      failureStatus(failure),
    );
  });
  return router;
}
