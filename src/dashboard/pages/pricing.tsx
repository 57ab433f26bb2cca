/**
 * The pricing page (/dashboard/pricing): price overrides through /admin/pricing (list, set with PUT,
 * delete), and the built-in table read from the bundle with a search. `?model=` fills the form with
 * that model's override, else its built-in price, for editing. A refused save re-renders the page
 * with the API's message beside its field and what was typed.
 */
import { Hono, type Context } from 'hono';
import { PRICING } from '../../core/pricing';
import type { ApiFailure } from '../admin-api';
import { can } from '../can';
import type { DashboardEnv } from '../context';
import type { FormValues } from '../forms';
import { priceBody, priceFormValues, pricingPath, searchPrices } from '../price-form';
import { EffectivePrice, PriceList } from '../schemas';
import { page } from '../views/layout';
import { failurePage, failureStatus } from '../views/message';
import { PricingPage } from '../views/pricing';
import { noticeOf, readForm } from './shared';

type C = Context<DashboardEnv>;
const BACK = { href: '/dashboard/pricing', label: 'Back to pricing' };
const NO_MODEL: ApiFailure = { ok: false, status: 400, message: 'Enter a model id.', param: 'model' };

async function pricingPage(c: C, failure: ApiFailure | null = null, values: FormValues | null = null) {
  const res = await c.var.api.get('/pricing', PriceList);
  if (!res.ok) return failurePage(c, res, c.var.session, { href: '/dashboard', label: 'Back' });
  const { overrides } = res.data;
  const query = c.req.query('q') ?? '';
  const asked = c.req.query('model');
  const filled =
    values ?? (asked ? priceFormValues(asked, overrides[asked] ?? PRICING.models[asked] ?? null) : {});
  const body = (
    <PricingPage
      session={c.var.session}
      editable={can(c.var.session.who, 'PUT /admin/pricing/{model}')}
      defaultPrice={res.data.default}
      overrides={overrides}
      builtIn={searchPrices(PRICING.models, query)}
      builtInTotal={Object.keys(PRICING.models).length}
      query={query}
      updated={PRICING.updated}
      values={filled}
      failure={failure}
      notice={noticeOf(c)}
    />
  );
  return page(
    c,
    { title: 'Pricing', session: c.var.session, section: 'pricing' },
    body,
    failureStatus(failure),
  );
}

export function pricingRoutes() {
  const router = new Hono<DashboardEnv>();

  router.get('/', (c) => pricingPage(c));

  router.post('/', async (c) => {
    const values = await readForm(c);
    const model = values.model?.trim() ?? '';
    if (!model) return pricingPage(c, NO_MODEL, values);
    const res = await c.var.api.send('PUT', pricingPath(model), EffectivePrice, priceBody(values));
    if (!res.ok) return pricingPage(c, res, values);
    return c.redirect('/dashboard/pricing?notice=price-saved', 303);
  });

  router.post('/delete', async (c) => {
    const values = await readForm(c);
    const res = await c.var.api.send('DELETE', pricingPath(values.model ?? ''), EffectivePrice);
    if (!res.ok) return failurePage(c, res, c.var.session, BACK);
    return c.redirect('/dashboard/pricing?notice=price-deleted', 303);
  });

  return router;
}
