/**
 * The logs pages past the recent index, through the Worker with real D1 and R2: a request whose
 * index row is gone is found by id with its tenant (payload shown), the page asks for the tenant
 * when the API needs it, and the export route streams one tenant's NDJSON lines; the forms are
 * shown only to roles the API would let through.
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { uuid7 } from '../../../src/util/uuid7';
import { createTenant } from '../admin-helpers';
import { Browser, createAdmin, location } from '../dashboard-helpers';
import { deliver, LOG_QUEUE, logEvent } from '../log-fixtures';

const T0 = Date.UTC(2026, 9, 5, 14, 0, 0);
const utcInput = (ms: number) => new Date(ms).toISOString().slice(0, 16);

let tenantA: string;
let tenantB: string;
let archived: ReturnType<typeof logEvent>;
let sameTenant: ReturnType<typeof logEvent>;
let other: ReturnType<typeof logEvent>;
let b: Browser;

beforeAll(async () => {
  tenantA = (await createTenant('archive-a')).id;
  tenantB = (await createTenant('archive-b')).id;
  archived = logEvent({
    requestId: uuid7(T0 + 1_000),
    time: T0 + 1_000,
    tenantId: tenantA,
    payload: { request: 'the archived prompt', response: 'the archived answer', truncated: false },
  });
  sameTenant = logEvent({ requestId: uuid7(T0 + 2_000), time: T0 + 2_000, tenantId: tenantA });
  other = logEvent({ requestId: uuid7(T0 + 3_000), time: T0 + 3_000, tenantId: tenantB });
  await deliver(LOG_QUEUE, [archived, sameTenant, other]);
  const gone = await env.DB.prepare('DELETE FROM request_logs WHERE id = ?').bind(archived.requestId).run();
  expect(gone.meta.changes).toBe(1);
  b = new Browser();
  await b.signIn();
});

describe('find a request by id', () => {
  it('finds a request only the archive holds, with the tenant picked, and shows its payload', async () => {
    const res = await b.get(
      `/dashboard/logs/find?request_id=${archived.requestId}&tenant_id=${encodeURIComponent(tenantA)}`,
    );
    expect(res.status).toBe(303);
    expect(location(res)).toBe(`/dashboard/logs/${archived.requestId}?tenant_id=${tenantA}`);
    const page = await b.get(location(res));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`<code>${archived.requestId}</code>`);
    expect(html).toContain('<pre>the archived prompt</pre>');
    expect(html).toContain('<pre>the archived answer</pre>');
  });

  it('asks for the tenant when the request is not in the recent index and none was picked', async () => {
    const res = await b.get(`/dashboard/logs/find?request_id=${archived.requestId}&tenant_id=`);
    const page = await b.get(location(res));
    expect(page.status).toBe(404);
    const html = await page.text();
    expect(html).toContain('Pick its tenant to look for it in the archive');
    expect(html).toContain(`value="${archived.requestId}"`);
    expect(html).toContain(`<option value="${tenantA}">archive-a</option>`);
    expect(html).not.toContain('the archived prompt');
  });

  it('does not find it under another tenant', async () => {
    const page = await b.get(`/dashboard/logs/${archived.requestId}?tenant_id=${tenantB}`);
    expect(page.status).toBe(404);
    expect(await page.text()).not.toContain('Pick its tenant');
  });
});

describe('export', () => {
  it("streams the picked tenant's NDJSON lines, and none of another tenant's", async () => {
    const q = new URLSearchParams({ tenant_id: tenantA, from: utcInput(T0), to: utcInput(T0 + 3_600_000) });
    const res = await b.get(`/dashboard/logs/export?${q}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(res.headers.get('content-disposition')).toContain(`logs-${tenantA}.ndjson`);
    const lines = new TextDecoder()
      .decode(await res.arrayBuffer())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; tenant_id: string; request_payload: string | null });
    expect(lines.map((l) => l.id).sort()).toEqual([archived.requestId, sameTenant.requestId].sort());
    expect(lines.every((l) => l.tenant_id === tenantA)).toBe(true);
    expect(lines.find((l) => l.id === archived.requestId)?.request_payload).toBe('the archived prompt');
  });

  it("shows the API's refusal as a page when the range is wrong", async () => {
    const q = new URLSearchParams({ tenant_id: tenantA, from: utcInput(T0), to: utcInput(T0 - 60_000) });
    const res = await b.get(`/dashboard/logs/export?${q}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('from must be before to.');
  });

  it('asks for a tenant when none was picked', async () => {
    const res = await b.get(`/dashboard/logs/export?tenant_id=&from=${utcInput(T0)}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('pick it');
  });
});

describe('by role', () => {
  it('shows both forms to an owner', async () => {
    const html = await b.page('/dashboard/logs');
    expect(html).toContain('aria-label="Find a request"');
    expect(html).toContain('aria-label="Export logs"');
  });

  it("shows a tenant admin the forms for its tenant and refuses another tenant's export", async () => {
    const scoped = await createAdmin('tenant_admin', [tenantA]);
    const t = new Browser();
    await t.signIn(scoped.token);
    const html = await t.page('/dashboard/logs');
    expect(html).toContain('aria-label="Export logs"');
    const q = new URLSearchParams({ tenant_id: tenantB, from: utcInput(T0) });
    const refused = await t.get(`/dashboard/logs/export?${q}`);
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain(other.requestId);
  });
});
