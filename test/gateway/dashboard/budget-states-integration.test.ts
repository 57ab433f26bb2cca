/**
 * Budget states on the dashboard, the case: a key with a 6,000-token budget that refuses a
 * request it can no longer fit (spent below its limit, nothing in flight) shows "refusing", not
 * "active", in its tenant's key list and on its page; a tenant whose own budget refuses shows
 * "refusing" in the tenants list.
 */
import { describe, expect, it } from 'vitest';
import { admin, createKey, createTenant } from '../admin-helpers';
import { Browser } from '../dashboard-helpers';
import { post } from '../helpers';

const REFUSING = '<span class="badge refusing">refusing</span>';
const small = { model: 'mock/echo', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] };
// Its worst case (prompt + max_tokens) cannot fit what remains of 6,000 tokens.
const large = { ...small, max_tokens: 5990 };

const statusOf = async (path: string) => ((await admin('GET', path)).json as { status: string }).status;

describe('a budget that refuses a request below its limit', () => {
  it("shows the key as refusing on its tenant's key list and on its page", async () => {
    const tenant = await createTenant(`states-${crypto.randomUUID()}`);
    const { id, key } = await createKey(tenant.id, { budgets: { tokens: { total: 6000 } } });
    expect((await post('/v1/chat/completions', small, key)).status).toBe(200);
    expect((await post('/v1/chat/completions', large, key)).status).toBe(429);
    await expect.poll(() => statusOf(`/limits/keys/${id}`)).toBe('refusing');
    const report = (await admin('GET', `/limits/keys/${id}`)).json as {
      budget_usage: { tokens: { total: { spent: number; limit: number } } };
    };
    expect(report.budget_usage.tokens.total.spent).toBeLessThan(6000);
    const b = new Browser();
    await b.signIn();
    const keyPage = await b.page(`/dashboard/keys/${id}`);
    expect(keyPage).toContain(REFUSING);
    expect(keyPage).not.toContain('<span class="badge active">active</span>');
    const tenantPage = await b.page(`/dashboard/tenants/${tenant.id}`);
    expect(tenantPage.match(/<span class="badge refusing">refusing<\/span>/g)).toHaveLength(1);
  });

  it('shows a tenant refusing on its own budget as refusing in the tenants list', async () => {
    const tenant = await createTenant(`states-${crypto.randomUUID()}`, {
      budgets: { tokens: { total: 6000 } },
    });
    const { key } = await createKey(tenant.id);
    expect((await post('/v1/chat/completions', small, key)).status).toBe(200);
    expect((await post('/v1/chat/completions', large, key)).status).toBe(429);
    await expect.poll(() => statusOf(`/limits/tenants/${tenant.id}`)).toBe('refusing');
    const b = new Browser();
    await b.signIn();
    const list = await b.page('/dashboard/tenants');
    expect(list).toMatch(new RegExp(`${tenant.id}[\\s\\S]*?badge refusing`));
  });
});
