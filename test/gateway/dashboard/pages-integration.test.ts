/**
 * The dashboard's pages end to end in the Workers runtime: every change goes
 * through the admin API (its refusals shown in words), the key lifecycle
 * including the once-only secret, and logs and usage written by the real
 * queue consumer.
 */
import { describe, expect, it } from 'vitest';
import { FLASH_COOKIE } from '../../../src/dashboard/secret-flash';
import { Browser, location } from '../dashboard-helpers';
import { chatBody, post } from '../helpers';
import { deliver, LOG_QUEUE, logEvent } from '../log-fixtures';

async function signedIn(): Promise<Browser> {
  const b = new Browser();
  await b.signIn();
  return b;
}

async function createTenant(b: Browser, name: string): Promise<string> {
  const res = await b.post('/dashboard/tenants', { name });
  expect(res.status).toBe(303);
  return decodeURIComponent(/\/dashboard\/tenants\/([^?]+)/.exec(location(res))?.[1] ?? '');
}

/** Creates a key through the form and reads its secret from the once-only page. */
async function createKey(
  b: Browser,
  tenantId: string,
  fields: Record<string, string> = {},
): Promise<{ id: string; secret: string }> {
  await b.page(`/dashboard/tenants/${tenantId}`);
  const res = await b.post(`/dashboard/tenants/${tenantId}/keys`, { name: 'app', ...fields });
  expect(res.status).toBe(303);
  const id = decodeURIComponent(/\/dashboard\/keys\/([^/]+)\/secret$/.exec(location(res))?.[1] ?? '');
  const html = await b.page(location(res));
  const secret = /id="secret" type="text" readonly="" value="([^"]+)"/.exec(html)?.[1] ?? '';
  return { id, secret };
}

describe('tenants', () => {
  it('creates a tenant and shows it, with a success notice', async () => {
    const b = await signedIn();
    const id = await createTenant(b, 'Acme Corp');
    const html = await b.page(`/dashboard/tenants/${id}?notice=tenant-created`);
    expect(html).toMatch(/<h1><span class="id[^"]*" title="Acme Corp"><span>Acme Corp<\/span><\/span><\/h1>/);
    expect(html).toContain('Tenant created.');
    expect(await b.page('/dashboard/tenants')).toContain('Acme Corp');
  });

  it("shows the admin API's refusal in words and keeps the form", async () => {
    const b = await signedIn();
    const res = await b.post('/dashboard/tenants', { name: '   ' });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('The tenant was not created');
    expect(html).toMatch(/Invalid body\. name: /);
    expect(html).toMatch(/id="f-name"[^>]*aria-invalid="true"/);
  });

  it('shows a missing tenant as a 404 page with the API message', async () => {
    const b = await signedIn();
    const res = await b.get('/dashboard/tenants/ten_nope');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('No tenant with id &#39;ten_nope&#39;.');
  });

  it('disables and enables a tenant', async () => {
    const b = await signedIn();
    const id = await createTenant(b, 'Switchable');
    await b.page(`/dashboard/tenants/${id}`);
    const off = await b.post(`/dashboard/tenants/${id}/disable`, { back: 'tenant', confirm: 'yes' });
    expect(location(off)).toBe(`/dashboard/tenants/${id}?notice=tenant-disabled`);
    expect(await b.page(location(off))).toContain('This tenant is disabled');
    const on = await b.post(`/dashboard/tenants/${id}/enable`, { back: 'list' });
    expect(location(on)).toBe('/dashboard/tenants?notice=tenant-enabled');
    expect(await b.page(`/dashboard/tenants/${id}`)).not.toContain('This tenant is disabled');
  });
});

describe('keys', () => {
  it('shows a new secret once: it works on /v1, and a reload no longer shows it', async () => {
    const b = await signedIn();
    const tenantId = await createTenant(b, 'Keys Inc');
    const { id, secret } = await createKey(b, tenantId, {
      models: 'mock/echo',
      'limits.rpm': '60',
      'budgets.usd.day': '5',
    });
    expect(secret).toMatch(/^ew_/);
    expect(b.jar.has(FLASH_COOKIE)).toBe(false);
    const again = await b.get(`/dashboard/keys/${id}/secret`);
    expect(again.status).toBe(410);
    expect(await again.text()).not.toContain(secret);
    expect((await post('/v1/chat/completions', chatBody('hi'), secret)).status).toBe(200);

    const tenantPage = await b.page(`/dashboard/tenants/${tenantId}`);
    expect(tenantPage).toContain(`${secret.slice(0, 3)}…${secret.slice(-4)}`);
    expect(tenantPage).toContain('60 req/min');
    expect(tenantPage).toContain('$5.00/day');
    expect(tenantPage).not.toContain(secret);
  });

  it("does not open another session's sealed secret", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const tenantId = await createTenant(a, 'Sealed');
    await a.page(`/dashboard/tenants/${tenantId}`);
    const res = await a.post(`/dashboard/tenants/${tenantId}/keys`, { name: 'x' });
    const sealed = a.jar.get(FLASH_COOKIE) ?? '';
    expect(sealed).not.toBe('');
    expect(res.headers.getAll('set-cookie').find((c) => c.startsWith(FLASH_COOKIE))).toMatch(
      /Path=\/dashboard\/keys; HttpOnly; Secure; SameSite=Strict/,
    );
    b.jar.set(FLASH_COOKIE, sealed);
    const stolen = await b.get(location(res));
    expect(stolen.status).toBe(410);
  });

  it('refuses a bad limit with the API message naming the field, keeping what was typed', async () => {
    const b = await signedIn();
    const tenantId = await createTenant(b, 'Typos');
    await b.page(`/dashboard/tenants/${tenantId}`);
    const res = await b.post(`/dashboard/tenants/${tenantId}/keys`, { name: 'typo', 'limits.rpm': 'sixty' });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('The key was not created');
    expect(html).toContain('<code>limits.rpm</code>');
    expect(html).toMatch(/id="f-limits-rpm"[^>]*value="sixty"[^>]*aria-invalid="true"/);
  });

  it('edits, rotates and revokes a key; each takes effect on /v1', async () => {
    const b = await signedIn();
    const tenantId = await createTenant(b, 'Lifecycle');
    const { id, secret } = await createKey(b, tenantId, { models: 'mock/echo' });
    await b.page(`/dashboard/keys/${id}`);

    const past = await b.post(`/dashboard/keys/${id}`, {
      name: 'app',
      models: 'mock/echo',
      expires_at: '2001-01-01T00:00',
    });
    expect(past.status).toBe(400);
    expect(await past.text()).toContain('expires_at must be in the future');

    const edit = await b.post(`/dashboard/keys/${id}`, {
      name: 'renamed',
      models: 'mock/*',
      'limits.tpm': '100000',
    });
    expect(location(edit)).toBe(`/dashboard/keys/${id}?notice=key-updated`);
    const keyPage = await b.page(location(edit));
    expect(keyPage).toContain('Key renamed');
    expect(keyPage).toContain('100,000 tokens/min');

    const rotate = await b.post(`/dashboard/keys/${id}/rotate`, { grace_seconds: '' });
    const fresh = /value="(ew_[^"]+)"/.exec(await b.page(location(rotate)))?.[1] ?? '';
    expect(fresh).not.toBe(secret);
    expect((await post('/v1/chat/completions', chatBody('x'), secret)).status).toBe(401);
    expect((await post('/v1/chat/completions', chatBody('x'), fresh)).status).toBe(200);

    const confirm = await b.page(`/dashboard/keys/${id}/revoke`);
    expect(confirm).toContain('Yes, revoke this key');
    const revoke = await b.post(`/dashboard/keys/${id}/revoke`, {});
    expect(location(revoke)).toBe(`/dashboard/keys/${id}?notice=key-revoked`);
    expect(await b.page(location(revoke))).toContain('This key is revoked');
    expect((await post('/v1/chat/completions', chatBody('x'), fresh)).status).toBe(401);
  });
});

describe('logs and usage', () => {
  it('lists logs with filters, paginates, and shows a payload only when collected', async () => {
    const b = await signedIn();
    const time = Date.UTC(2026, 4, 2, 9, 30);
    const plain = logEvent({ tenantId: 'ten_logs', keyId: 'key_logs', time });
    const withPayload = logEvent({
      tenantId: 'ten_logs',
      keyId: 'key_logs',
      time: time + 1,
      status: 429,
      errorCode: 'rate_limited',
      payload: { request: '{"say":"secret-sauce"}', response: 'hello back', truncated: false },
    });
    const other = logEvent({ tenantId: 'ten_other', time: time + 2 });
    await deliver(LOG_QUEUE, [plain, withPayload, other]);

    const list = await b.page('/dashboard/logs?tenant_id=ten_logs');
    expect(list).toContain(withPayload.requestId);
    expect(list).toContain(plain.requestId);
    expect(list).not.toContain(other.requestId);
    expect(await b.page('/dashboard/logs?tenant_id=ten_logs&status=4xx')).not.toContain(plain.requestId);
    const bounded = await b.page(
      '/dashboard/logs?tenant_id=ten_logs&from=2026-05-02T09:30&to=2026-05-02T09:31',
    );
    expect(bounded).toContain(plain.requestId);

    const detail = await b.page(`/dashboard/logs/${withPayload.requestId}`);
    expect(detail).toContain('secret-sauce');
    expect(detail).toContain('rate_limited');
    expect(await b.page(`/dashboard/logs/${plain.requestId}`)).toContain('Not collected');
  });

  it('pages through logs with the cursor, keeping the filters', async () => {
    const b = await signedIn();
    await deliver(
      LOG_QUEUE,
      Array.from({ length: 55 }, () => logEvent({ tenantId: 'ten_many' })),
    );
    const first = await b.page('/dashboard/logs?tenant_id=ten_many');
    const next =
      /href="(\/dashboard\/logs\?[^"]*cursor=[^"]+)" rel="next"/.exec(first)?.[1]?.replaceAll('&amp;', '&') ??
      '';
    expect(next).toContain('tenant_id=ten_many');
    const second = await b.page(next);
    expect(second.match(/aria-label="Request /g)?.length).toBe(5);
  });

  it('shows a bad filter as the API message, in words', async () => {
    const b = await signedIn();
    const res = await b.get('/dashboard/logs?status=teapot');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Logs could not be read');
  });

  it('shows usage per day and per model as charts and tables', async () => {
    const b = await signedIn();
    const day = Date.UTC(2026, 4, 3, 10);
    await deliver(LOG_QUEUE, [
      logEvent({
        tenantId: 'ten_use',
        keyId: 'key_use',
        time: day,
        model: 'mock/echo',
        inputTokens: 100,
        outputTokens: 50,
      }),
      logEvent({
        tenantId: 'ten_use',
        keyId: 'key_use',
        time: day + 1,
        model: 'mock/mock-small',
        cache: 'HIT',
        costUsd: 0,
        savedUsd: 0.002,
      }),
    ]);
    const html = await b.page('/dashboard/usage?tenant_id=ten_use&from=2026-05-01&to=2026-05-04');
    expect(html).toContain('2026-05-01 to 2026-05-04 (UTC)');
    expect(html).toMatch(/<svg class="chart"[^>]*role="img"/);
    expect(html).toContain('<title>2026-05-03: 1 cache hits</title>');
    expect(html).toMatch(
      /<th scope="row"><span class="id" title="mock\/mock-small"><code>mock\/mock-small<\/code><\/span><\/th>/,
    );
    expect(html).toMatch(/Cache hits<b>1 \(50 %\)<\/b>/);
  });

  it('shows a reversed date range as the API message', async () => {
    const b = await signedIn();
    const res = await b.get('/dashboard/usage?from=2026-05-04&to=2026-05-01');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('must not be after');
  });
});
