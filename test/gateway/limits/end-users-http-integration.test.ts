/**
 * End users, model rules, tags and downgrades through the gateway's HTTP surface: the tenant's scopes
 * set with the admin API, requests sent as clients send them, refusals in each API's own envelope.
 */
import { describe, expect, it } from 'vitest';
import { admin, createKey, createTenant } from '../admin-helpers';
import { chatBody, post } from '../helpers';

type ErrorBody = {
  error: {
    code: string;
    type: string;
    param: string | null;
    limit: { scope: string; scope_id?: string; kind: string; limit: number; used: number };
  };
};

async function tenantWith(scopes: Record<string, unknown>) {
  const tenant = await createTenant(`scopes-${crypto.randomUUID()}`);
  const patched = await admin('PATCH', `/tenants/${tenant.id}`, scopes);
  expect(patched.status, patched.text).toBe(200);
  const key = await createKey(tenant.id);
  return { tenantId: tenant.id, secret: key.key };
}

const chat = (secret: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  post('/v1/chat/completions', chatBody('count me', extra), secret, headers);

async function statuses(responses: Promise<Response>[]): Promise<number[]> {
  const out: number[] = [];
  for (const r of responses) {
    const res = await r;
    out.push(res.status);
    await res.arrayBuffer();
  }
  return out;
}

describe('end users through the gateway', () => {
  it('reads the end user from the header and each body field, and counts each apart', async () => {
    const { secret } = await tenantWith({ end_users: { limits: {}, budgets: { requests: { day: 1 } } } });
    // One request each fits; the second of the same user is refused, naming where the user was read.
    const cases: [string, Record<string, unknown>, Record<string, string>][] = [
      ['x-edgeway-user', {}, { 'x-edgeway-user': 'alice' }],
      ['user', { user: 'bob' }, {}],
      ['safety_identifier', { safety_identifier: 'carol' }, {}],
    ];
    for (const [param, body, headers] of cases) {
      expect((await chat(secret, body, headers)).status).toBe(200);
      const refused = await chat(secret, body, headers);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-edgeway-limit-scope')).toBe('user');
      const err = ((await refused.json()) as ErrorBody).error;
      expect(err).toMatchObject({
        code: 'budget_exceeded',
        param,
        limit: { scope: 'user', kind: 'requests_day' },
      });
    }
    // Anthropic's metadata.user_id, refused in Anthropic's envelope.
    const message = (user: string) =>
      post(
        '/v1/messages',
        {
          model: 'mock/echo',
          max_tokens: 16,
          messages: [{ role: 'user', content: 'hi' }],
          metadata: { user_id: user },
        },
        secret,
      );
    expect((await message('dave')).status).toBe(200);
    const refused = await message('dave');
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as {
      type: string;
      error: { type: string; limit?: { scope: string } };
    };
    expect(body.type).toBe('error');
    expect(body.error.limit?.scope).toBe('user');
    // A request naming no end user is not in any end-user scope.
    expect(await statuses([chat(secret), chat(secret)])).toEqual([200, 200]);
  });

  it('counts a request naming two end users for the header, whatever the body says', async () => {
    const { secret } = await tenantWith({ end_users: { limits: {}, budgets: { requests: { day: 1 } } } });
    expect((await chat(secret, { user: 'spent' })).status).toBe(200);
    expect((await chat(secret, { user: 'spent' })).status).toBe(429);
    // The header names a fresh user: admitted, though the body names the spent one.
    expect((await chat(secret, { user: 'spent' }, { 'x-edgeway-user': 'fresh' })).status).toBe(200);
    const again = await chat(secret, { user: 'other' }, { 'x-edgeway-user': 'fresh' });
    expect(again.status).toBe(429);
    expect(((await again.json()) as ErrorBody).error).toMatchObject({
      param: 'x-edgeway-user',
      limit: { scope_id: 'fresh' },
    });
  });

  it('refuses an end-user id it cannot count with 400 naming the field', async () => {
    const { secret } = await tenantWith({ end_users: { limits: {}, budgets: {} } });
    const res = await chat(secret, { user: 'x'.repeat(300) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error).toMatchObject({
      code: 'invalid_end_user',
      param: 'user',
    });
  });

  it('holds an end user with an override set through the admin API to it', async () => {
    const { tenantId, secret } = await tenantWith({
      end_users: { limits: {}, budgets: { requests: { day: 1 } } },
    });
    const put = await admin('PUT', `/tenants/${tenantId}/end-users/vip`, {
      limits: {},
      budgets: { requests: { day: 3 } },
    });
    expect(put.status, put.text).toBe(200);
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await chat(secret, {}, { 'x-edgeway-user': 'vip' });
      seen.push(res.status);
      await res.arrayBuffer();
    }
    expect(seen).toEqual([200, 200, 200, 429]);
  });
});

describe('model rules and tags through the gateway', () => {
  it('refuses past a model rule, names it, and leaves other models alone', async () => {
    const { tenantId, secret } = await tenantWith({
      model_limits: [{ match: 'mock/echo', limits: { rpm: 1 }, budgets: {} }],
    });
    expect((await chat(secret)).status).toBe(200);
    const refused = await chat(secret);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as ErrorBody).error).toMatchObject({
      param: 'model',
      limit: { scope: 'model', scope_id: 'mock/echo', kind: 'rpm' },
    });
    expect((await chat(secret, { model: 'mock/mock-large' })).status).toBe(200);
    // The tenant's limits report shows the rule refusing, with its usage.
    const report = (await admin('GET', `/limits/tenants/${tenantId}`)).json as {
      status: string;
      rules: {
        scope: string;
        id: string;
        status: string;
        requests: { used: number };
        last_denial: { kind: string };
      }[];
    };
    expect(report.status).toBe('ok');
    expect(report.rules).toHaveLength(1);
    expect(report.rules[0]).toMatchObject({
      scope: 'model',
      id: 'mock/echo',
      status: 'refusing',
      requests: { used: 1 },
      last_denial: { kind: 'rpm' },
    });
  });

  it('counts a tag value from cf-aig-metadata', async () => {
    const { secret } = await tenantWith({ tag_limits: [{ tag: 'team', limits: { rpm: 1 }, budgets: {} }] });
    const team = (value: string) => ({ 'cf-aig-metadata': JSON.stringify({ team: value }) });
    expect((await chat(secret, {}, team('search'))).status).toBe(200);
    const refused = await chat(secret, {}, team('search'));
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as ErrorBody).error).toMatchObject({
      param: 'cf-aig-metadata.team',
      limit: { scope: 'tag', scope_id: 'team=search' },
    });
    expect((await chat(secret, {}, team('ads'))).status).toBe(200);
  });
});

describe('spend-triggered downgrades through the gateway', () => {
  it('sends an end user past the percent to the cheaper route, names it, then refuses when the budget is spent', async () => {
    const tenant = await createTenant(`downgrade-${crypto.randomUUID()}`);
    const route = await admin('POST', '/routes', {
      name: 'cheap',
      tenant_id: tenant.id,
      spec: { strategy: 'fallback', targets: [{ model: 'mock/mock-small' }] },
    });
    expect(route.status, route.text).toBe(201);
    const patched = await admin('PATCH', `/tenants/${tenant.id}`, {
      end_users: {
        limits: {},
        budgets: { requests: { day: 4 } },
        downgrade: { at_percent: 50, route: 'cheap' },
      },
    });
    expect(patched.status, patched.text).toBe(200);
    const { key } = await createKey(tenant.id);
    const seen: { status: number; route: string | null; downgraded: string | null }[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await chat(key, {}, { 'x-edgeway-user': 'eve' });
      seen.push({
        status: res.status,
        route: res.headers.get('x-edgeway-route'),
        downgraded: res.headers.get('x-edgeway-downgraded'),
      });
      await res.arrayBuffer();
    }
    // 4 a day, downgraded from the request that brings it to 50 %: the 2nd.
    expect(seen.map((s) => s.status)).toEqual([200, 200, 200, 200, 429]);
    expect(seen[0]).toMatchObject({ route: null, downgraded: null });
    for (const s of seen.slice(1, 4)) {
      expect(s.route).toBe('cheap');
      expect(s.downgraded).toBe('cheap; user:eve:requests_day@50');
    }
  });
});
