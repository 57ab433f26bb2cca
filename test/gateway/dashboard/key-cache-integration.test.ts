/**
 * A key's response-cache settings on its page: shown in words and in the form, saved whole through
 * PATCH /admin/keys/:id, a refused TTL shown beside its field with the sent values kept, and an exact
 * cache turned on that then answers a repeated request from cache.
 */
import { describe, expect, it } from 'vitest';
import { admin, asKey, createKey, createTenant, v1 } from '../admin-helpers';
import { Browser, createAdmin, location } from '../dashboard-helpers';

async function signedIn(token?: string): Promise<Browser> {
  const b = new Browser();
  await b.signIn(token);
  return b;
}

describe("a key's cache settings", () => {
  it('shows them off by default, turns the exact cache on with a TTL, and the gateway uses it', async () => {
    const tenant = await createTenant(`cache-${crypto.randomUUID()}`);
    const { id, key } = await createKey(tenant.id);
    const b = await signedIn();
    const before = await b.page(`/dashboard/keys/${id}`);
    expect(before).toContain('Now: exact cache off');
    expect(before).toMatch(/<input type="checkbox" name="cache.exact"\/?>/);
    const res = await b.post(`/dashboard/keys/${id}/cache`, {
      'cache.exact': 'on',
      'cache.ttl_seconds': '600',
      'cache.threshold': '',
    });
    expect(location(res)).toBe(`/dashboard/keys/${id}?notice=cache-saved`);
    expect(asKey(await admin('GET', `/keys/${id}`)).cache).toEqual({ exact: true, ttl_seconds: 600 });
    const after = await b.page(location(res));
    expect(after).toContain('Cache settings saved.');
    expect(after).toContain('Now: exact cache on, entries kept 600 s');
    expect(after).toMatch(/name="cache.exact" checked/);
    expect(after).toMatch(/id="f-cache-ttl_seconds"[^>]*value="600"/);

    const chat = {
      model: 'mock/echo',
      messages: [{ role: 'user', content: `cache ${crypto.randomUUID()}` }],
    };
    const first = await v1('/chat/completions', key, chat);
    await first.text();
    expect(first.headers.get('x-edgeway-cache')).toBe('MISS');
    await expect
      .poll(async () => {
        const again = await v1('/chat/completions', key, chat);
        await again.text();
        return again.headers.get('x-edgeway-cache');
      })
      .toBe('HIT');
  });

  it('refuses a TTL under a minute beside its field, keeping what was sent, and turns the cache off', async () => {
    const tenant = await createTenant(`cache-${crypto.randomUUID()}`);
    const { id } = await createKey(tenant.id, { cache: { exact: true, ttl_seconds: 120, semantic: true } });
    const b = await signedIn();
    await b.page(`/dashboard/keys/${id}`);
    const bad = await b.post(`/dashboard/keys/${id}/cache`, { 'cache.ttl_seconds': '5' });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain('The cache settings were not changed');
    expect(html).toMatch(/id="f-cache-ttl_seconds"[^>]*value="5"[^>]*aria-invalid="true"/);
    expect(html).not.toMatch(/name="cache.exact" checked/);
    expect(asKey(await admin('GET', `/keys/${id}`)).cache).toEqual({
      exact: true,
      ttl_seconds: 120,
      semantic: true,
    });
    const off = await b.post(`/dashboard/keys/${id}/cache`, {});
    expect(location(off)).toContain('notice=cache-saved');
    expect(asKey(await admin('GET', `/keys/${id}`)).cache).toEqual({});
  });

  it('is read-only in words for a viewer', async () => {
    const tenant = await createTenant(`cache-${crypto.randomUUID()}`);
    const { id } = await createKey(tenant.id, { cache: { exact: true } });
    const b = await signedIn((await createAdmin('viewer')).token);
    const html = await b.page(`/dashboard/keys/${id}`);
    expect(html).toContain('Now: exact cache on, entries kept 3600 s · semantic cache off.');
    expect(html).not.toContain(`/dashboard/keys/${id}/cache`);
  });
});
