/**
 * The tenant page's provider keys section: set, rotate and delete through the
 * admin API, refusals shown in words, and the key never rendered back (not
 * after saving, not in a refused form).
 */
import { describe, expect, it } from 'vitest';
import { Browser, location } from '../dashboard-helpers';

const KEY = 'sk-proj-dashboardKey0123456789abcdQRST';

async function tenantPage(): Promise<{ b: Browser; id: string; base: string }> {
  const b = new Browser();
  await b.signIn();
  const res = await b.post('/dashboard/tenants', { name: 'BYOK Inc' });
  const id = decodeURIComponent(/\/dashboard\/tenants\/([^?]+)/.exec(location(res))?.[1] ?? '');
  await b.page(`/dashboard/tenants/${id}`);
  return { b, id, base: `/dashboard/tenants/${id}` };
}

describe('provider keys on the tenant page', () => {
  it('shows the empty section with a password input', async () => {
    const { b, base } = await tenantPage();
    const html = await b.page(base);
    expect(html).toContain('<h2 id="provider-keys-h">Provider keys</h2>');
    expect(html).toContain('No provider keys: this tenant');
    expect(html).toMatch(/<input id="f-key" name="key" type="password" value=""/);
  });

  it('saves a key, lists its hint only, rotates it, and deletes it', async () => {
    const { b, base } = await tenantPage();
    const saved = await b.post(`${base}/provider-keys`, { provider: 'openai', key: KEY });
    expect(saved.status).toBe(303);
    expect(location(saved)).toBe(`${base}?notice=provider-key-saved`);
    let html = await b.page(location(saved));
    expect(html).toContain('Provider key saved');
    expect(html).toMatch(/<th scope="row">openai<\/th>\s*<td><code>sk-…QRST<\/code>/);
    expect(html).not.toContain(KEY);
    expect(html).not.toContain(KEY.slice(3, -4));

    const rotated = await b.post(`${base}/provider-keys`, {
      provider: 'openai',
      key: 'sk-rotated-0000000000WXYZ',
    });
    expect(rotated.status).toBe(303);
    html = await b.page(base);
    expect(html).toContain('sk-…WXYZ');
    expect(html).not.toContain('sk-…QRST');

    const deleted = await b.post(`${base}/provider-keys/openai/delete`, {});
    expect(location(deleted)).toBe(`${base}?notice=provider-key-deleted`);
    html = await b.page(location(deleted));
    expect(html).toContain('Provider key deleted');
    expect(html).not.toContain('sk-…WXYZ');
  });

  it("shows the API's refusal next to the form, keeps the provider and never the key", async () => {
    const { b, base } = await tenantPage();
    const res = await b.post(`${base}/provider-keys`, { provider: 'mock', key: KEY });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('The provider key was not saved');
    expect(html).toMatch(/id="f-provider"[^>]*aria-invalid="true"/);
    expect(html).toMatch(/name="provider" type="text" value="mock"/);
    expect(html).not.toContain(KEY);
    expect(html).not.toContain('The key was not created');

    const blank = await b.post(`${base}/provider-keys`, { provider: ' ', key: KEY });
    expect(blank.status).toBe(400);
    expect(await blank.text()).toContain('Enter a provider id.');

    const short = await b.post(`${base}/provider-keys`, { provider: 'openai', key: 'short' });
    expect(short.status).toBe(400);
    const shortHtml = await short.text();
    expect(shortHtml).toMatch(/id="f-key"[^>]*aria-invalid="true"/);
    expect(shortHtml).not.toContain('value="short"');
  });

  it('refuses a delete with no CSRF token and one of a key that is not there', async () => {
    const { b, base } = await tenantPage();
    const forged = await b.post(`${base}/provider-keys/openai/delete`, {}, { csrf: null });
    expect(forged.status).toBe(403);
    const missing = await b.post(`${base}/provider-keys/openai/delete`, {});
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('has no key of its own for provider');
  });
});
