/**
 * GET /v1/responses/{id}, DELETE /v1/responses/{id} and GET /v1/responses/{id}/input_items through the
 * Worker with real keys: OpenAI's shapes, the same 404 response_not_found for a missing, expired or other
 * tenant's response (never its content), the key required, the methods each path takes, and one log event
 * per request like every /v1 request.
 */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app';
import type { LogEvent } from '../../../src/core/log-event';
import type { StoredResponse } from '../../../src/core/stored-response';
import { getDeps } from '../../../src/deps';
import { StoredResponses } from '../../../src/storage/response-store';
import { seedKey } from '../helpers';
import { bindings } from '../log-fixtures';

const DAY = 86_400_000;
const store = new StoredResponses(env.DB, env.RESPONSES);

async function stored(tenantId: string, over: Partial<StoredResponse> = {}): Promise<StoredResponse> {
  const id = `resp_h_${crypto.randomUUID().replaceAll('-', '')}`;
  const record: StoredResponse = {
    v: 1,
    id,
    tenant_id: tenantId,
    key_id: 'key_h',
    created_at: Date.now(),
    expires_at: Date.now() + DAY,
    model: 'mock/echo',
    context: [{ type: 'message', role: 'user', content: 'earlier turn' }],
    input: ['a', 'b', 'c'].map((text, i) => ({
      id: `msg_${i}`,
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text }],
    })),
    response: { id, object: 'response', status: 'completed', model: 'mock/echo', output: [] },
    ...over,
  };
  await store.put(record, () => {});
  return record;
}

async function twoTenants() {
  const a = await seedKey({ tenantId: `ten_ra_${crypto.randomUUID().slice(0, 8)}` });
  const b = await seedKey({ tenantId: `ten_rb_${crypto.randomUUID().slice(0, 8)}` });
  return { a, b };
}

function call(method: string, path: string, key: string | null) {
  return SELF.fetch(`http://gw.test${path}`, {
    method,
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
}

describe('GET /v1/responses/{id}', () => {
  it('answers the stored Responses object to its tenant', async () => {
    const { a } = await twoTenants();
    const r = await stored(a.tenantId);
    const res = await call('GET', `/v1/responses/${r.id}`, a.secret);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(r.response);
  });

  it("is a 404 response_not_found for another tenant's, a missing or an expired response", async () => {
    const { a, b } = await twoTenants();
    const mine = await stored(a.tenantId);
    const expired = await stored(a.tenantId, { expires_at: Date.now() - 1 });
    for (const [key, id] of [
      [b.secret, mine.id],
      [a.secret, 'resp_nothing_here'],
      [a.secret, expired.id],
    ] as const) {
      const res = await call('GET', `/v1/responses/${id}`, key);
      expect(res.status).toBe(404);
      const body = await res.text();
      expect(JSON.parse(body)).toEqual({
        error: {
          message: `Response with id '${id}' not found.`,
          type: 'invalid_request_error',
          param: null,
          code: 'response_not_found',
        },
      });
      expect(body).not.toContain('mock/echo');
    }
  });

  it('requires a gateway key', async () => {
    const { a } = await twoTenants();
    const r = await stored(a.tenantId);
    expect((await call('GET', `/v1/responses/${r.id}`, null)).status).toBe(401);
  });

  it('takes GET and DELETE on a response, GET on its input items, and 405s the rest', async () => {
    const res = await call('POST', '/v1/responses/resp_x', null);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, DELETE');
    const items = await call('DELETE', '/v1/responses/resp_x/input_items', null);
    expect(items.status).toBe(405);
    expect(items.headers.get('allow')).toBe('GET');
    expect((await call('GET', '/v1/responses/resp_x/other', null)).status).toBe(404);
    expect((await call('GET', '/v1/responses/', null)).status).toBe(404);
  });
});

describe('DELETE /v1/responses/{id}', () => {
  it("deletes its tenant's response, which is then gone", async () => {
    const { a } = await twoTenants();
    const r = await stored(a.tenantId);
    const res = await call('DELETE', `/v1/responses/${r.id}`, a.secret);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: r.id, object: 'response', deleted: true });
    expect((await call('GET', `/v1/responses/${r.id}`, a.secret)).status).toBe(404);
    expect((await call('DELETE', `/v1/responses/${r.id}`, a.secret)).status).toBe(404);
  });

  it("cannot delete another tenant's response", async () => {
    const { a, b } = await twoTenants();
    const r = await stored(a.tenantId);
    const res = await call('DELETE', `/v1/responses/${r.id}`, b.secret);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('response_not_found');
    expect((await call('GET', `/v1/responses/${r.id}`, a.secret)).status).toBe(200);
  });
});

describe('GET /v1/responses/{id}/input_items', () => {
  it("lists the request's own input items, newest first, in OpenAI's list shape", async () => {
    const { a } = await twoTenants();
    const r = await stored(a.tenantId);
    const res = await call('GET', `/v1/responses/${r.id}/input_items`, a.secret);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      object: 'list',
      data: [...r.input].reverse(),
      first_id: 'msg_2',
      last_id: 'msg_0',
      has_more: false,
    });
  });

  it('pages with limit, order and after', async () => {
    const { a } = await twoTenants();
    const r = await stored(a.tenantId);
    const res = await call(
      'GET',
      `/v1/responses/${r.id}/input_items?order=asc&limit=1&after=msg_0`,
      a.secret,
    );
    expect(await res.json()).toMatchObject({ data: [r.input[1]], first_id: 'msg_1', has_more: true });
  });

  it('refuses a bad limit or order, naming it', async () => {
    const { a } = await twoTenants();
    const r = await stored(a.tenantId);
    for (const [query, param] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=x', 'limit'],
      ['order=up', 'order'],
    ]) {
      const res = await call('GET', `/v1/responses/${r.id}/input_items?${query}`, a.secret);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { param: string } }).error.param).toBe(param);
    }
  });

  it("is a 404 for another tenant's response", async () => {
    const { a, b } = await twoTenants();
    const r = await stored(a.tenantId);
    const res = await call('GET', `/v1/responses/${r.id}/input_items`, b.secret);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('input_text');
  });
});

describe('the log', () => {
  it('records each of these requests once, with its tenant, key, status and model', async () => {
    const events: LogEvent[] = [];
    const deps = { ...getDeps(bindings), logs: { send: async (e: LogEvent) => void events.push(e) } };
    const app = createApp({ deps: () => deps });
    const { a, b } = await twoTenants();
    const r = await stored(a.tenantId);
    const send = async (method: string, path: string, key: string) => {
      const ctx = createExecutionContext();
      const req = new Request(`http://gw.test${path}`, {
        method,
        headers: { authorization: `Bearer ${key}` },
      });
      const res = await app.fetch(req, bindings, ctx);
      await res.text();
      await waitOnExecutionContext(ctx);
    };
    await send('GET', `/v1/responses/${r.id}`, a.secret);
    await send('GET', `/v1/responses/${r.id}/input_items`, b.secret);
    await send('DELETE', `/v1/responses/${r.id}`, a.secret);
    expect(events.map((e) => [e.endpoint, e.status, e.tenantId, e.keyId, e.errorCode])).toEqual([
      [`/v1/responses/${r.id}`, 200, a.tenantId, a.id, null],
      [`/v1/responses/${r.id}/input_items`, 404, b.tenantId, b.id, 'response_not_found'],
      [`/v1/responses/${r.id}`, 200, a.tenantId, a.id, null],
    ]);
    expect(events[0]?.model).toBe('mock/echo');
  });
});
