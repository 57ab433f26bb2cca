/**
 * The pricing page: the built-in prices with a search, the overrides with create, edit (the form
 * filled from an override or a built-in price) and delete through /admin/pricing, a refused price
 * shown beside its field, a viewer reading without forms, and a tenant_admin without the page.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { admin } from '../admin-helpers';
import { Browser, createAdmin, location } from '../dashboard-helpers';

async function signedIn(token?: string): Promise<Browser> {
  const b = new Browser();
  await b.signIn(token);
  return b;
}

const MODEL = `mock/priced-${crypto.randomUUID().slice(0, 8)}`;
afterAll(async () => {
  await admin('DELETE', `/pricing/${MODEL}`);
});

describe('the pricing page', () => {
  it('lists built-in prices, searches them, and is in the navigation', async () => {
    const b = await signedIn();
    const html = await b.page('/dashboard/pricing');
    expect(html).toContain('<a href="/dashboard/pricing" aria-current="page">Pricing</a>');
    expect(html).toContain('title="openai/gpt-4o-mini"');
    expect(html).toContain('title="anthropic/');
    const found = await b.page('/dashboard/pricing?q=GPT-4O-MINI');
    expect(found).toContain('title="openai/gpt-4o-mini"');
    expect(found).not.toContain('title="anthropic/');
    expect(found).toContain('title="openrouter/openai/gpt-4o-mini"');
    expect(found).toMatch(/2 of \d+ models/);
  });

  it('creates, edits and deletes an override; the API prices the model with it', async () => {
    const b = await signedIn();
    await b.page('/dashboard/pricing');
    const saved = await b.post('/dashboard/pricing', { model: MODEL, input: '1.5', output: '6', cached: '' });
    expect(location(saved)).toBe('/dashboard/pricing?notice=price-saved');
    expect((await admin('GET', `/pricing/${MODEL}`)).json).toMatchObject({
      model: MODEL,
      input: 1.5,
      output: 6,
      cached: 1.5,
      source: 'override',
    });
    const listed = await b.page(location(saved));
    expect(listed).toContain('Price saved');
    expect(listed).toContain(`title="${MODEL}"`);
    const edit = await b.page(`/dashboard/pricing?model=${encodeURIComponent(MODEL)}`);
    expect(edit).toMatch(new RegExp(`id="f-model"[^>]*value="${MODEL}"`));
    expect(edit).toMatch(/id="f-output"[^>]*value="6"/);
    await b.post('/dashboard/pricing', { model: MODEL, input: '2', output: '8' });
    expect((await admin('GET', `/pricing/${MODEL}`)).json).toMatchObject({ input: 2, output: 8 });
    const builtIn = await b.page('/dashboard/pricing?model=openai%2Fgpt-4o-mini');
    expect(builtIn).toMatch(/id="f-input"[^>]*value="0.15"/);

    const gone = await b.post('/dashboard/pricing/delete', { model: MODEL });
    expect(location(gone)).toBe('/dashboard/pricing?notice=price-deleted');
    expect((await admin('GET', `/pricing/${MODEL}`)).json).toMatchObject({ source: 'default' });
  });

  it('shows a refused price beside its field, keeping what was typed', async () => {
    const b = await signedIn();
    await b.page('/dashboard/pricing');
    const bad = await b.post('/dashboard/pricing', { model: MODEL, input: '-1', output: '2' });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain('The price was not saved');
    expect(html).toMatch(/id="f-input"[^>]*value="-1"[^>]*aria-invalid="true"/);
    const none = await b.post('/dashboard/pricing', { model: ' ', input: '1', output: '2' });
    expect(none.status).toBe(400);
    expect(await none.text()).toContain('Enter a model id.');
  });

  it('is read-only for a viewer, and neither listed nor served to a tenant_admin', async () => {
    await admin('PUT', `/pricing/${MODEL}`, { input: 1, output: 1 });
    const viewer = await signedIn((await createAdmin('viewer')).token);
    const html = await viewer.page('/dashboard/pricing');
    expect(html).toContain('Built-in prices');
    expect(html).toContain(`title="${MODEL}"`);
    expect(html).not.toContain('Set a price override');
    expect(html).not.toContain('action="/dashboard/pricing/delete"');
    expect((await viewer.post('/dashboard/pricing/delete', { model: MODEL })).status).toBe(403);
    const { id: tenantId } = (await admin('POST', '/tenants', { name: 'pricing-reader' })).json as {
      id: string;
    };
    const tenantAdmin = await signedIn((await createAdmin('tenant_admin', [tenantId])).token);
    expect(await tenantAdmin.page('/dashboard/tenants')).not.toContain('href="/dashboard/pricing"');
    expect((await tenantAdmin.get('/dashboard/pricing')).status).toBe(403);
  });
});
