/** The key page's browser-origins field: saved through the admin API, refused in words, in force on /v1. */
import { describe, expect, it } from 'vitest';
import { admin, asKey, createKey, createTenant } from '../admin-helpers';
import { Browser, location } from '../dashboard-helpers';
import { chatBody, post } from '../helpers';

describe('browser origins on the dashboard key page', () => {
  it('saves the origins the form lists and shows them; the key then serves that origin', async () => {
    const tenant = await createTenant(`origins-${crypto.randomUUID()}`);
    const { id, key } = await createKey(tenant.id, { models: ['mock/echo'] });
    const b = new Browser();
    await b.signIn();
    expect(await b.page(`/dashboard/keys/${id}`)).toContain('Browser origins');

    const res = await b.post(`/dashboard/keys/${id}`, {
      name: 'web',
      models: 'mock/echo',
      origins: 'https://app.example.com\nhttp://localhost:5173',
    });
    expect(location(res)).toBe(`/dashboard/keys/${id}?notice=key-updated`);
    expect(asKey(await admin('GET', `/keys/${id}`)).origins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    expect(await b.page(location(res))).toContain('https://app.example.com, http://localhost:5173');

    const call = await post('/v1/chat/completions', chatBody('hi'), key, {
      origin: 'https://app.example.com',
    });
    expect(call.status).toBe(200);
    expect(call.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    await call.text();
  });

  it('shows the API’s refusal of a bad origin beside the field, keeping what was typed', async () => {
    const tenant = await createTenant(`origins-${crypto.randomUUID()}`);
    const { id } = await createKey(tenant.id);
    const b = new Browser();
    await b.signIn();
    await b.page(`/dashboard/keys/${id}`);
    const res = await b.post(`/dashboard/keys/${id}`, {
      name: 'web',
      origins: 'https://app.example.com/chat',
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('<code>origins.0</code>');
    expect(html).toMatch(/name="origins"[^>]*aria-invalid="true"[^>]*>https:\/\/app\.example\.com\/chat</);
    expect(asKey(await admin('GET', `/keys/${id}`)).origins).toEqual([]);
  });
});
