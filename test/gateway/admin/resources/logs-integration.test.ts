/** GET /admin/logs and /admin/logs/:request_id: filters, cursor pagination, tenant scoping, validation. */
import { beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../../admin-helpers';
import { clearLogs, deliver, logEvent, LOG_QUEUE } from '../../log-fixtures';

const T0 = Date.UTC(2026, 4, 1);
type Entry = {
  id: string;
  time: number;
  tenant_id: string;
  key_id: string;
  model: string;
  status: number;
  cache: string | null;
  request_payload?: unknown;
};
type List = { object: 'list'; data: Entry[]; has_more: boolean; next_cursor: string | null };

const events = [
  logEvent({
    requestId: 'a1',
    time: T0 + 1000,
    tenantId: 'ten_a',
    keyId: 'key_a1',
    model: 'mock/echo',
    status: 200,
    cache: 'MISS',
  }),
  logEvent({
    requestId: 'a2',
    time: T0 + 2000,
    tenantId: 'ten_a',
    keyId: 'key_a1',
    model: 'mock/mock-small',
    status: 429,
    errorSource: 'gateway',
    errorCode: 'rate_limited',
    cache: null,
  }),
  logEvent({
    requestId: 'a3',
    time: T0 + 3000,
    tenantId: 'ten_a',
    keyId: 'key_a2',
    model: 'mock/echo',
    status: 200,
    cache: 'HIT',
  }),
  logEvent({
    requestId: 'a4',
    time: T0 + 3000,
    tenantId: 'ten_a',
    keyId: 'key_a2',
    model: 'mock/echo',
    status: 200,
    stream: true,
    streamCompleted: false,
    errorSource: 'provider',
    errorCode: 'stream_incomplete',
  }),
  logEvent({
    requestId: 'a5',
    time: T0 + 86_400_000,
    tenantId: 'ten_a',
    keyId: 'key_a1',
    model: 'mock/echo',
    status: 502,
    errorSource: 'provider',
    errorCode: 'bad_upstream_response',
    payload: { request: '{"messages":[]}', response: 'oops', truncated: false },
  }),
  logEvent({
    requestId: 'b1',
    time: T0 + 1500,
    tenantId: 'ten_b',
    keyId: 'key_b1',
    model: 'mock/echo',
    status: 200,
    cache: 'MISS',
  }),
];

const ids = async (query: string) =>
  ((await admin('GET', `/logs${query}`)).json as List).data.map((e) => e.id);

beforeAll(async () => {
  await clearLogs();
  await deliver(LOG_QUEUE, events);
});

describe('GET /admin/logs', () => {
  it('lists newest first, without payload bodies', async () => {
    const res = await admin('GET', '/logs');
    expect(res.status).toBe(200);
    const list = res.json as List;
    expect(list).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(list.data.map((e) => e.id)).toEqual(['a5', 'a4', 'a3', 'a2', 'b1', 'a1']);
    expect(list.data[0]).not.toHaveProperty('request_payload');
    expect(list.data[0]).toMatchObject({ has_payload: true, stream: false, error_source: 'provider' });
  });

  it('filters by tenant, key, model, status, cache status and time range', async () => {
    expect(await ids('?tenant_id=ten_b')).toEqual(['b1']);
    expect(await ids('?tenant_id=ten_a&key_id=key_a2')).toEqual(['a4', 'a3']);
    expect(await ids('?tenant_id=ten_b&key_id=key_a2')).toEqual([]);
    expect(await ids('?model=mock%2Fmock-small')).toEqual(['a2']);
    expect(await ids('?status=429')).toEqual(['a2']);
    expect(await ids('?status=5xx')).toEqual(['a5']);
    expect(await ids('?status=error')).toEqual(['a5', 'a4', 'a2']);
    expect(await ids('?status=ok&tenant_id=ten_a')).toEqual(['a3', 'a1']);
    expect(await ids('?cache=hit')).toEqual(['a3']);
    expect(await ids('?cache=NONE&tenant_id=ten_a')).toEqual(['a2']);
    expect(await ids(`?from=${T0 + 1500}&to=${T0 + 3000}`)).toEqual(['a2', 'b1']);
    expect(await ids('?from=2026-05-02')).toEqual(['a5']);
    expect(await ids('?to=2026-05-01T00:00:02Z&tenant_id=ten_a')).toEqual(['a1']);
  });

  it('pages with a cursor that is stable across equal timestamps and new rows', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await admin('GET', `/logs?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      const page = res.json as List;
      seen.push(...page.data.map((e) => e.id));
      cursor = page.next_cursor;
      expect(page.has_more).toBe(cursor !== null);
      if (pages === 0)
        await deliver(LOG_QUEUE, [
          logEvent({ requestId: 'new', time: T0 + 99 * 86_400_000, tenantId: 'ten_c' }),
        ]);
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual(['a5', 'a4', 'a3', 'a2', 'b1', 'a1']);
    expect(pages).toBe(3);
  });

  it('rejects bad filters with a 400 naming the parameter', async () => {
    for (const [query, param] of [
      ['?status=teapot', 'status'],
      ['?cache=warm', 'cache'],
      ['?from=yesterday', 'from'],
      ['?limit=0', 'limit'],
      ['?cursor=nope', 'cursor'],
      ['?tenant=ten_a', 'tenant'],
    ] as const) {
      const res = await admin('GET', `/logs${query}`);
      expect(res.status, query).toBe(400);
      expect((res.json as { error: { param: string } }).error.param, query).toBe(param);
    }
  });

  it('requires the admin token', async () => {
    expect((await admin('GET', '/logs', undefined, null)).status).toBe(401);
    expect((await admin('GET', '/logs/a1', undefined, 'wrong')).status).toBe(401);
  });
});

describe('GET /admin/logs/:request_id', () => {
  it('returns one log with its payload', async () => {
    const res = await admin('GET', '/logs/a5');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: 'a5',
      tenant_id: 'ten_a',
      status: 502,
      request_payload: '{"messages":[]}',
      response_payload: 'oops',
      payload_truncated: false,
    });
  });

  it("is scoped by tenant_id: another tenant's log is a 404", async () => {
    expect((await admin('GET', '/logs/a1?tenant_id=ten_a')).status).toBe(200);
    const other = await admin('GET', '/logs/a1?tenant_id=ten_b');
    expect(other.status).toBe(404);
    expect(other.json).toMatchObject({ error: { code: 'log_not_found' } });
    expect((await admin('GET', '/logs/missing')).status).toBe(404);
  });
});
