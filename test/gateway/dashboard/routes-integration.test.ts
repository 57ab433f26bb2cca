/**
 * The routes pages: reached from the navigation, define a route (global or a
 * tenant's), see it listed with its targets summarised, edit and delete it;
 * refusals (not JSON, an unknown provider, a loop, a route still named) shown
 * in words next to the field they name; the forms need the CSRF token.
 */
import { describe, expect, it } from 'vitest';
import { Browser, location } from '../dashboard-helpers';

const spec = (...models: string[]) =>
  JSON.stringify({ strategy: 'fallback', targets: models.map((model) => ({ model })) });

async function signedIn(): Promise<Browser> {
  const b = new Browser();
  await b.signIn();
  return b;
}

async function define(b: Browser, fields: Record<string, string>): Promise<string> {
  await b.page('/dashboard/routes');
  const res = await b.post('/dashboard/routes', { tenant_id: '', ...fields });
  expect(res.status, await res.clone().text()).toBe(303);
  expect(location(res)).toMatch(/^\/dashboard\/routes\/rte_[^?]+\?notice=route-created$/);
  return location(res);
}

describe('the routes list', () => {
  it('is in the navigation, with a create form pre-filled with an example spec', async () => {
    const b = await signedIn();
    const html = await b.page('/dashboard/routes');
    expect(html).toMatch(/<a href="\/dashboard\/routes" aria-current="page">Routes<\/a>/);
    expect(html).toContain('<h1>Routes</h1>');
    expect(html).toContain('No routes yet.');
    expect(html).toMatch(
      /<textarea id="f-json-spec" name="spec"[^>]*>\{\s*&quot;strategy&quot;: &quot;fallback&quot;/,
    );
    expect(html).toContain('<option value="">Global: every tenant</option>');
  });

  it('defines a global and a tenant route and lists both, with scope and targets', async () => {
    const b = await signedIn();
    const tenant = await b.post('/dashboard/tenants', { name: 'Route Tenant' });
    const tenantId = decodeURIComponent(/\/dashboard\/tenants\/([^?]+)/.exec(location(tenant))?.[1] ?? '');
    const where = await define(b, { name: 'smart', spec: spec('mock/echo', 'openai/gpt-4o') });
    const created = await b.page(where);
    expect(created).toContain('Route created');
    expect(created).toMatch(
      /<h1>Route <span class="id" title="smart"[^>]*><code>smart<\/code><\/span><\/h1>/,
    );

    await define(b, {
      name: 'cheap',
      tenant_id: tenantId,
      spec: JSON.stringify({
        strategy: 'loadbalance',
        targets: [
          { model: 'mock/echo', weight: 3 },
          { model: 'smart', weight: 1 },
        ],
      }),
    });
    const html = await b.page('/dashboard/routes');
    expect(html).toMatch(
      /<a class="id" href="\/dashboard\/routes\/rte_[^"]+" title="smart"><code>smart<\/code><\/a><\/th><td>Global<\/td><td>fallback<\/td><td><span class="id" title="mock\/echo → openai\/gpt-4o"[^>]*>mock\/echo → openai\/gpt-4o<\/span><\/td><td><span class="badge idle">idle<\/span><\/td>/,
    );
    expect(html).toMatch(
      /<code>cheap<\/code><\/a><\/th><td><span class="id" title="Route Tenant \(ten_[^)]+\)"[^>]*>Route Tenant <code class="muted">ten_[^<]+<\/code><\/span><\/td><td>loadbalance<\/td><td><span class="id" title="mock\/echo ×3 \| smart ×1"[^>]*>mock\/echo ×3 \| smart ×1<\/span><\/td>/,
    );
    expect(html).toContain(`<option value="${tenantId}">Tenant Route Tenant (${tenantId})</option>`);
  });
});

describe('refusals', () => {
  it('a spec that is not JSON: 400, in words, next to the spec, keeping what was typed', async () => {
    const b = await signedIn();
    await b.page('/dashboard/routes');
    const res = await b.post('/dashboard/routes', { name: 'broken', tenant_id: '', spec: '{"strategy": ' });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('The route was not created');
    expect(html).toContain('The spec is not valid JSON');
    expect(html).toMatch(
      /<textarea id="f-json-spec" name="spec"[^>]*aria-invalid="true"[^>]*>\{&quot;strategy&quot;: <\/textarea>/,
    );
  });

  it("the API's refusal names the target: an unknown provider", async () => {
    const b = await signedIn();
    await b.page('/dashboard/routes');
    const res = await b.post('/dashboard/routes', { name: 'ghosted', tenant_id: '', spec: spec('nope/x') });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('No provider &#39;nope&#39; on this gateway');
    expect(html).toContain('(field <code>spec.targets.0.model</code>)');
    expect(html).toMatch(/id="f-json-spec"[^>]*aria-invalid="true"/);
    expect(html).toMatch(/<input id="f-json-name" name="name" type="text" value="ghosted"/);
  });

  it('a name with a slash is marked on the name field', async () => {
    const b = await signedIn();
    await b.page('/dashboard/routes');
    const res = await b.post('/dashboard/routes', { name: 'a/b', tenant_id: '', spec: spec('mock/echo') });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/<input id="f-json-name" name="name"[^>]*aria-invalid="true"/);
  });

  it('without the CSRF token nothing is created', async () => {
    const b = await signedIn();
    const res = await b.post(
      '/dashboard/routes',
      { name: 'no-csrf', spec: spec('mock/echo') },
      { csrf: null },
    );
    expect(res.status).toBe(403);
    expect(await b.page('/dashboard/routes')).not.toContain('no-csrf');
  });
});

describe('one route', () => {
  it('shows its spec in the edit form, saves a change, refuses a loop, and deletes', async () => {
    const b = await signedIn();
    const fast = (await define(b, { name: 'fast', spec: spec('mock/echo') })).split('?')[0] ?? '';
    const clever = (await define(b, { name: 'clever', spec: spec('fast') })).split('?')[0] ?? '';

    let html = await b.page(fast);
    expect(html).toContain('fallback: mock/echo');
    expect(html).toMatch(
      /<textarea id="f-json-spec"[^>]*>\{\n {2}&quot;strategy&quot;: &quot;fallback&quot;/,
    );

    const saved = await b.post(fast, { name: 'fast', spec: spec('mock/echo', 'openai/gpt-4o-mini') });
    expect(location(saved)).toBe(`${fast}?notice=route-updated`);
    expect(await b.page(location(saved))).toContain('fallback: mock/echo → openai/gpt-4o-mini');

    const loop = await b.post(fast, { name: 'fast', spec: spec('mock/echo', 'clever') });
    expect(loop.status).toBe(400);
    html = await loop.text();
    expect(html).toContain('The route was not changed');
    expect(html).toContain('Route &#39;fast&#39; reaches itself: fast → clever → fast.');

    const inUse = await b.post(`${fast}/delete`, {});
    expect(inUse.status).toBe(409);
    html = await inUse.text();
    expect(html).toContain('The route was not deleted');
    expect(html).toContain('is named by route &#39;clever&#39; (global)');

    expect(location(await b.post(`${clever}/delete`, {}))).toBe('/dashboard/routes?notice=route-deleted');
    const gone = await b.post(`${fast}/delete`, {});
    html = await b.page(location(gone));
    expect(html).toContain('Route deleted.');
    expect(html).not.toContain('<code>fast</code></a>');
    expect((await b.get(fast)).status).toBe(404);
  });
});
