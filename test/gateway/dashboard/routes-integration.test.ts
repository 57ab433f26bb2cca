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
  it('is in the navigation, with a create form of target rows and a JSON editor showing an example', async () => {
    const b = await signedIn();
    const html = await b.page('/dashboard/routes');
    expect(html).toMatch(/<a href="\/dashboard\/routes" aria-current="page">Routes<\/a>/);
    expect(html).toContain('<h1>Routes</h1>');
    expect(html).toContain('No routes yet.');
    expect(html).toMatch(
      /<textarea id="f-spec" name="spec"[^>]*placeholder="\{\s*&quot;strategy&quot;: &quot;fallback&quot;[^>]*><\/textarea>/,
    );
    expect(html).toContain('<legend>Target 1</legend>');
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
      /<a class="id" href="\/dashboard\/routes\/rte_[^"]+" title="smart"><code>smart<\/code><\/a><\/th><td>Global<\/td><td>fallback<\/td><td><span class="id long" title="mock\/echo → openai\/gpt-4o">mock\/echo → openai\/gpt-4o<\/span><\/td><td><span class="badge idle">idle<\/span><\/td>/,
    );
    expect(html).toMatch(
      /<code>cheap<\/code><\/a><\/th><td>Tenant <span class="id" title="Route Tenant \(ten_[^)]+\)"><span>Route Tenant<\/span> <code class="muted">ten_[^<]+<\/code><\/span><\/td><td>loadbalance<\/td><td><span class="id long" title="mock\/echo ×3 \| smart ×1">mock\/echo ×3 \| smart ×1<\/span><\/td>/,
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
      /<textarea id="f-spec" name="spec"[^>]*aria-invalid="true"[^>]*>\{&quot;strategy&quot;: <\/textarea>/,
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
    expect(html).toMatch(/id="f-spec"[^>]*aria-invalid="true"/);
    expect(html).toMatch(/<input id="f-name" name="name" type="text" value="ghosted"/);
  });

  it('a name with a slash is marked on the name field', async () => {
    const b = await signedIn();
    await b.page('/dashboard/routes');
    const res = await b.post('/dashboard/routes', { name: 'a/b', tenant_id: '', spec: spec('mock/echo') });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/<input id="f-name" name="name"[^>]*aria-invalid="true"/);
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
    expect(html).toMatch(/<textarea id="f-spec"[^>]*>\{\n {2}&quot;strategy&quot;: &quot;fallback&quot;/);

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

/** The named inputs and selects of the page's first form whose action is `action`, as a browser would send them. */
function formOf(html: string, action: string): Record<string, string> {
  const start = html.indexOf(`<form method="post" action="${action}"`);
  const form = html.slice(start, html.indexOf('</form>', start));
  const decode = (s: string) =>
    s
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&');
  const out: Record<string, string> = {};
  for (const m of form.matchAll(/<input ([^>]*)\/?>/g)) {
    const attrs = m[1] ?? '';
    const name = /name="([^"]*)"/.exec(attrs)?.[1];
    if (!name || (/type="checkbox"/.test(attrs) && !/checked/.test(attrs))) continue;
    out[decode(name)] = decode(/value="([^"]*)"/.exec(attrs)?.[1] ?? 'on');
  }
  for (const m of form.matchAll(/<textarea [^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/textarea>/g))
    out[decode(m[1] ?? '')] = decode(m[2] ?? '');
  for (const m of form.matchAll(/<select [^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/select>/g)) {
    const selected = /<option value="([^"]*)" selected/.exec(m[2] ?? '');
    out[decode(m[1] ?? '')] = decode(selected?.[1] ?? /<option value="([^"]*)"/.exec(m[2] ?? '')?.[1] ?? '');
  }
  return out;
}

async function specOf(b: Browser, where: string): Promise<unknown> {
  const html = await b.page(where);
  const json = /<textarea id="f-spec"[^>]*>([\s\S]*?)<\/textarea>/.exec(html)?.[1] ?? '';
  return JSON.parse(json.replaceAll('&quot;', '"'));
}

describe('the route form', () => {
  it('creates a route from target rows, leaving blank rows out', async () => {
    const b = await signedIn();
    const form = formOf(await b.page('/dashboard/routes'), '/dashboard/routes');
    const res = await b.post('/dashboard/routes', {
      ...form,
      name: 'formed',
      'spec.strategy': 'loadbalance',
      'spec.max_calls': '3',
      'spec.targets.0.model': 'mock/echo',
      'spec.targets.0.weight': '3',
      'spec.targets.1.model': 'mock/mock-small',
      'spec.targets.1.credential': 'deployment',
      'spec.targets.1.overrides.max_tokens': '64',
    });
    expect(res.status, await res.clone().text()).toBe(303);
    expect(await specOf(b, location(res))).toEqual({
      strategy: 'loadbalance',
      max_calls: 3,
      targets: [
        { model: 'mock/echo', weight: 3, credential: 'auto' },
        { model: 'mock/mock-small', weight: 1, credential: 'deployment', overrides: { max_tokens: 64 } },
      ],
    });
  });

  it('edits a route in the form, keeping the nested group it cannot show', async () => {
    const b = await signedIn();
    const where =
      (
        await define(b, {
          name: 'grouped',
          spec: JSON.stringify({
            strategy: 'fallback',
            targets: [
              { model: 'mock/echo', ttfb_timeout_ms: 900 },
              {
                strategy: 'loadbalance',
                targets: [{ model: 'mock/mock-small', weight: 2 }, { model: 'mock/mock-large' }],
              },
            ],
          }),
        })
      ).split('?')[0] ?? '';
    const before = await specOf(b, where);
    const html = await b.page(where);
    expect(html).toContain('loadbalance group: mock/mock-small | mock/mock-large');
    const form = formOf(html, where);
    expect(form['spec.targets.0.ttfb_timeout_ms']).toBe('900');
    const saved = await b.post(where, { ...form, 'spec.targets.2.model': 'mock/echo;key=added' });
    expect(location(saved)).toBe(`${where}?notice=route-updated`);
    const after = (await specOf(b, where)) as { targets: unknown[] };
    expect(after.targets.slice(0, 2)).toEqual((before as { targets: unknown[] }).targets);
    expect(after.targets[2]).toEqual({ model: 'mock/echo;key=added', weight: 1, credential: 'auto' });

    // Saved again unchanged, nothing moves; a removed row goes.
    const again = formOf(await b.page(where), where);
    await b.post(where, again);
    expect(await specOf(b, where)).toEqual(after);
    await b.post(where, { ...again, 'spec.targets.2.remove': 'on' });
    expect(await specOf(b, where)).toEqual(before);
  });

  it('shows a refusal at the top of the page, naming the target row, and marks its input', async () => {
    const b = await signedIn();
    const form = formOf(await b.page('/dashboard/routes'), '/dashboard/routes');
    const res = await b.post('/dashboard/routes', {
      ...form,
      name: 'wrong',
      'spec.targets.0.model': '',
      'spec.targets.1.model': 'mock/echo',
      'spec.targets.2.model': 'nope/x',
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('(field <code>spec.targets.1.model</code>)');
    expect(html).toContain('Fix <a href="#f-spec-targets-1-model">Target 2: model</a> and save again.');
    // Renumbered as sent: the refused row is the second one shown.
    expect(html).toMatch(
      /<input id="f-spec-targets-1-model" name="spec.targets.1.model" type="text" value="nope\/x"[^>]*aria-invalid="true"/,
    );
    expect(html.indexOf('role="alert"')).toBeLessThan(html.indexOf('<h2>All routes</h2>'));
  });

  it('adds target rows without saving when asked for more', async () => {
    const b = await signedIn();
    const form = formOf(await b.page('/dashboard/routes'), '/dashboard/routes');
    const res = await b.post('/dashboard/routes', {
      ...form,
      name: 'not-yet',
      'spec.targets.0.model': 'mock/echo',
      more: '1',
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<legend>Target 6</legend>');
    expect(html).not.toContain('<legend>Target 7</legend>');
    expect(html).toMatch(/name="spec.targets.0.model" type="text" value="mock\/echo"/);
    expect(html).not.toContain('<code>not-yet</code></a>');
  });

  it("shows each target's health on the route page", async () => {
    const b = await signedIn();
    await define(b, { name: 'fast-or-slow', spec: spec('mock/mock-small') });
    const where = await define(b, { name: 'healthy-or-not', spec: spec('mock/echo', 'fast-or-slow') });
    const html = await b.page(where);
    expect(html).toContain('<h2 id="health-h">Health</h2>');
    expect(html).toMatch(
      /<tr data-target="mock\/echo"><th scope="row"><span class="id" title="mock\/echo"><code>mock\/echo<\/code><\/span><\/th><td><span class="badge idle">idle<\/span>/,
    );
    expect(html).toMatch(/data-target="fast-or-slow">[\s\S]*?a route[\s\S]*?see that route/);
  });
});
