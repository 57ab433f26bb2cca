/**
 * Limits and scopes on the dashboard: a tenant's own limits, its end-user default, model and tag rules,
 * a key's model rules and downgrade, and one end user's page all save through the admin API and show
 * what is stored; a refusal is shown in words beside the field it names; a spent budget turns a key's
 * and its tenant's badge from "active" into "exhausted".
 */
import { describe, expect, it } from 'vitest';
import { admin, asKey, asTenant, createKey, createTenant } from '../admin-helpers';
import { Browser, location } from '../dashboard-helpers';
import { post } from '../helpers';

async function signedIn(): Promise<Browser> {
  const b = new Browser();
  await b.signIn();
  return b;
}

const tenantOf = async (id: string) => asTenant(await admin('GET', `/tenants/${id}`));

describe("a tenant's limits", () => {
  it('saves its own limits, budgets (requests too), downgrade and tag keys, and shows them', async () => {
    const tenant = await createTenant(`scopes-dash-${crypto.randomUUID()}`);
    const b = await signedIn();
    await b.page(`/dashboard/tenants/${tenant.id}`);
    const res = await b.post(`/dashboard/tenants/${tenant.id}/limits`, {
      'limits.rpm': '600',
      'limits.max_tokens': '4096',
      'budgets.usd.month': '250',
      'budgets.requests.day': '10000',
      'downgrade.at_percent': '',
      'downgrade.route': '',
      tag_keys: 'team, feature',
    });
    expect(location(res)).toBe(`/dashboard/tenants/${tenant.id}?notice=limits-saved`);
    expect(await tenantOf(tenant.id)).toMatchObject({
      limits: { rpm: 600, max_tokens: 4096 },
      budgets: { usd: { month: 250 }, requests: { day: 10000 } },
      downgrade: null,
      tag_keys: ['team', 'feature'],
    });
    const html = await b.page(location(res));
    expect(html).toContain('Limits saved');
    expect(html).toMatch(/id="f-tenant-limits-rpm"[^>]*value="600"/);
    expect(html).toMatch(/id="f-tenant-budgets-requests-day"[^>]*value="10000"/);
    expect(html).toMatch(/id="f-tenant-tag_keys"[^>]*value="team, feature"/);
  });

  it("shows the API's refusal beside the field: a downgrade to a route that does not exist", async () => {
    const tenant = await createTenant(`scopes-dash-${crypto.randomUUID()}`);
    const b = await signedIn();
    await b.page(`/dashboard/tenants/${tenant.id}`);
    const res = await b.post(`/dashboard/tenants/${tenant.id}/limits`, {
      'downgrade.at_percent': '90',
      'downgrade.route': 'nowhere',
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('The limits were not saved');
    expect(html).toMatch(/no route named (&#39;|')nowhere/);
    expect(html).toMatch(/id="f-tenant-downgrade-route"[^>]*value="nowhere"[^>]*aria-invalid="true"/);
    expect((await tenantOf(tenant.id)).downgrade).toBeNull();
  });

  it('turns the end-user default on with its rule, and off', async () => {
    const tenant = await createTenant(`scopes-dash-${crypto.randomUUID()}`);
    const b = await signedIn();
    const page = await b.page(`/dashboard/tenants/${tenant.id}`);
    expect(page).toContain('Default for each end user: <strong>not metered</strong>');
    await b.post(`/dashboard/tenants/${tenant.id}/end-user-default`, {
      'end_users.on': 'on',
      'end_users.budgets.usd.day': '1',
      'end_users.budgets.requests.day': '50',
    });
    expect((await tenantOf(tenant.id)).end_users).toEqual({
      limits: {},
      budgets: { usd: { day: 1 }, requests: { day: 50 } },
    });
    expect(await b.page(`/dashboard/tenants/${tenant.id}`)).toContain('$1.00/day · 50 requests/day');
    await b.post(`/dashboard/tenants/${tenant.id}/end-user-default`, { 'end_users.budgets.usd.day': '1' });
    expect((await tenantOf(tenant.id)).end_users).toBeNull();
  });

  it('adds, replaces and removes model and tag rules; a bad rule is refused naming its field', async () => {
    const tenant = await createTenant(`scopes-dash-${crypto.randomUUID()}`);
    const b = await signedIn();
    await b.page(`/dashboard/tenants/${tenant.id}`);
    const rules = `/dashboard/tenants/${tenant.id}/model-rules`;
    await b.post(rules, { op: 'save', match: 'openai/*', 'limits.rpm': '100', 'budgets.usd.day': '5' });
    await b.post(rules, { op: 'save', match: 'anthropic/*', 'limits.tpm': '9000' });
    await b.post(rules, { op: 'save', match: 'openai/*', 'limits.rpm': '50' });
    expect((await tenantOf(tenant.id)).model_limits).toEqual([
      { match: 'openai/*', limits: { rpm: 50 }, budgets: {} },
      { match: 'anthropic/*', limits: { tpm: 9000 }, budgets: {} },
    ]);
    const bad = await b.post(rules, { op: 'save', match: 'mock/*', 'limits.rpm': 'lots' });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain('The rule was not saved');
    expect(html).toMatch(/id="f-model-rules-limits-rpm"[^>]*value="lots"[^>]*aria-invalid="true"/);
    await b.post(rules, { op: 'remove', match: 'openai/*' });
    expect((await tenantOf(tenant.id)).model_limits.map((r) => r.match)).toEqual(['anthropic/*']);

    const tags = `/dashboard/tenants/${tenant.id}/tag-rules`;
    await b.post(tags, { op: 'save', tag: 'team', value: 'search', 'budgets.usd.month': '500' });
    await b.post(tags, { op: 'save', tag: 'team', value: '', 'budgets.usd.month': '100' });
    expect((await tenantOf(tenant.id)).tag_limits).toEqual([
      { tag: 'team', value: 'search', limits: {}, budgets: { usd: { month: 500 } } },
      { tag: 'team', limits: {}, budgets: { usd: { month: 100 } } },
    ]);
    const page = await b.page(`/dashboard/tenants/${tenant.id}`);
    expect(page).toContain('<code>team=search</code>');
    expect(page).toContain('<code>team=*</code>');
    await b.post(tags, { op: 'remove', tag: 'team', value: '' });
    expect((await tenantOf(tenant.id)).tag_limits).toHaveLength(1);
  });
});

describe("a key's scopes", () => {
  it('saves model rules and a downgrade; a downgrade to no route is refused naming it', async () => {
    const tenant = await createTenant(`scopes-dash-${crypto.randomUUID()}`);
    const { id } = await createKey(tenant.id);
    const b = await signedIn();
    await b.page(`/dashboard/keys/${id}`);
    const saved = await b.post(`/dashboard/keys/${id}/model-rules`, {
      op: 'save',
      match: 'mock/*',
      'budgets.requests.total': '3',
    });
    expect(location(saved)).toBe(`/dashboard/keys/${id}?notice=rules-saved`);
    expect(asKey(await admin('GET', `/keys/${id}`)).model_limits).toEqual([
      { match: 'mock/*', limits: {}, budgets: { requests: { total: 3 } } },
    ]);
    const refused = await b.post(`/dashboard/keys/${id}`, {
      name: 'k',
      'downgrade.at_percent': '80',
      'downgrade.route': 'nowhere',
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(
      /id="f-downgrade-route"[^>]*value="nowhere"[^>]*aria-invalid="true"/,
    );
    expect(asKey(await admin('GET', `/keys/${id}`)).downgrade).toBeNull();
  });
});

describe('an end user', () => {
  it('is looked up, given an override, shown with it, and returned to the default', async () => {
    const tenant = await createTenant(`scopes-dash-${crypto.randomUUID()}`, {
      end_users: { budgets: { usd: { day: 1 } } },
    });
    const b = await signedIn();
    const base = `/dashboard/tenants/${tenant.id}/end-users`;
    const looked = await b.page(`${base}?user=${encodeURIComponent('alice@example.com')}`);
    expect(looked).toContain('<code>alice@example.com</code>');
    expect(looked).toContain('none (the default applies)');
    const res = await b.post(`${base}/save`, {
      user: 'alice@example.com',
      'limits.rpm': '5',
      'budgets.usd.day': '20',
    });
    expect(location(res)).toBe(`${base}?user=alice%40example.com&notice=override-saved`);
    const shown = await b.page(location(res));
    expect(shown).toContain('5 req/min · $20.00/day');
    expect(shown).toMatch(/id="f-user-limits-rpm"[^>]*value="5"/);
    expect(shown).toContain('><code>alice@example.com</code></a>');
    const bad = await b.post(`${base}/save`, { user: 'alice@example.com', 'limits.rpm': '-1' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/id="f-user-limits-rpm"[^>]*aria-invalid="true"/);
    const removed = await b.post(`${base}/remove`, { user: 'alice@example.com' });
    expect(location(removed)).toContain('notice=override-removed');
    expect(await b.page(location(removed))).toContain('none (the default applies)');
  });
});

describe('the status badge', () => {
  it('shows a key and its tenant as exhausted once a budget is spent, instead of active', async () => {
    const tenant = await createTenant(`scopes-dash-${crypto.randomUUID()}`, {
      budgets: { requests: { total: 1 } },
    });
    const { id, key } = await createKey(tenant.id, { budgets: { requests: { total: 1 } } });
    const b = await signedIn();
    expect(await b.page(`/dashboard/keys/${id}`)).toContain('<span class="badge active">active</span>');
    const chat = { model: 'mock/echo', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] };
    expect((await post('/v1/chat/completions', chat, key)).status).toBe(200);
    expect((await post('/v1/chat/completions', chat, key)).status).toBe(429);
    await expect
      .poll(async () => ((await admin('GET', `/limits/keys/${id}`)).json as { status: string }).status)
      .toBe('exhausted');
    const keyPage = await b.page(`/dashboard/keys/${id}`);
    expect(keyPage).toContain('<span class="badge exhausted">exhausted</span>');
    const tenantPage = await b.page(`/dashboard/tenants/${tenant.id}`);
    expect(tenantPage.match(/<span class="badge exhausted">exhausted<\/span>/g)).toHaveLength(2);
    const list = await b.page('/dashboard/tenants');
    expect(list).toMatch(new RegExp(`${tenant.id}[\\s\\S]*?badge exhausted`));
  });
});

describe('model and tag rules in force', () => {
  it("lists a tenant's rules with their status: a model rule that refused shows refusing", async () => {
    const tenant = await createTenant(`scopes-dash-${crypto.randomUUID()}`);
    const patched = await admin('PATCH', `/tenants/${tenant.id}`, {
      model_limits: [{ match: 'mock/echo', limits: { rpm: 1 }, budgets: {} }],
      tag_limits: [{ tag: 'team', value: 'search', limits: {}, budgets: { usd: { month: 5 } } }],
    });
    expect(patched.status, patched.text).toBe(200);
    const { key } = await createKey(tenant.id);
    const chat = { model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] };
    expect((await post('/v1/chat/completions', chat, key)).status).toBe(200);
    expect((await post('/v1/chat/completions', chat, key)).status).toBe(429);
    const b = await signedIn();
    const html = await b.page(`/dashboard/tenants/${tenant.id}`);
    expect(html).toContain('Model and tag rules in force');
    expect(html).toMatch(
      /model <code title="mock\/echo">mock\/echo<\/code><\/th><td><span class="badge refusing">refusing/,
    );
    expect(html).toMatch(
      /tag <code title="team=search">team=search<\/code><\/th><td><span class="badge ok">ok/,
    );
  });
});
