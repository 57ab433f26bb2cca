/**
 * GET /admin/logs search: request id, model prefix (LIKE wildcards in it match themselves), error code and
 * metadata key=value (several, all required), each tenant-scoped; and the tenants' and keys' names beside
 * their ids, on the list and on one log.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { admin, createKey, createTenant } from '../../admin-helpers';
import { clearLogs, deliver, LOG_QUEUE, logEvent } from '../../log-fixtures';

const T0 = Date.UTC(2026, 5, 1);
type Entry = {
  id: string;
  tenant_id: string;
  key_id: string;
  tenant_name: string | null;
  key_name: string | null;
};
type List = { data: Entry[] };

let tenantA: string;
let tenantB: string;
let keyA: string;

const ids = async (query: string, token?: string) => {
  const res = await admin('GET', `/logs${query}`, undefined, token);
  expect(res.status, res.text).toBe(200);
  return (res.json as List).data.map((e) => e.id);
};

beforeAll(async () => {
  await clearLogs();
  tenantA = (await createTenant('Search Corp A')).id;
  tenantB = (await createTenant('Search Corp B')).id;
  keyA = (await createKey(tenantA, { name: 'search key a' })).id;
  const keyB = (await createKey(tenantB, { name: 'search key b' })).id;
  const a = { tenantId: tenantA, keyId: keyA };
  const b = { tenantId: tenantB, keyId: keyB };
  await deliver(LOG_QUEUE, [
    logEvent({ ...a, requestId: 's1', time: T0 + 1, model: 'gpt-4o', metadata: { team: 'red', n: 5 } }),
    logEvent({
      ...a,
      requestId: 's2',
      time: T0 + 2,
      model: 'gpt-4o-mini',
      metadata: { team: 'blue', beta: true },
    }),
    logEvent({ ...a, requestId: 's3', time: T0 + 3, model: 'gpt-35-turbo', metadata: { team: 'red', n: 6 } }),
    logEvent({
      ...a,
      requestId: 's4',
      time: T0 + 4,
      model: 'odd%_model',
      status: 429,
      errorCode: 'rate_limited',
    }),
    logEvent({
      ...a,
      requestId: 's5',
      time: T0 + 5,
      model: 'oddXYmodel',
      status: 502,
      errorCode: 'upstream_timeout',
    }),
    logEvent({ ...a, requestId: 's6', time: T0 + 6, model: 'odd\\model' }),
    logEvent({
      ...b,
      requestId: 'sb1',
      time: T0 + 7,
      model: 'gpt-4o',
      status: 429,
      errorCode: 'rate_limited',
      metadata: { team: 'red' },
    }),
    logEvent({ tenantId: 'ten_gone', keyId: 'key_gone', requestId: 'sg1', time: T0 + 8, model: 'gone' }),
  ]);
});

describe('GET /admin/logs search', () => {
  it('finds one request by its id, only within the tenant asked for', async () => {
    expect(await ids('?request_id=s3')).toEqual(['s3']);
    expect(await ids(`?request_id=s3&tenant_id=${tenantA}`)).toEqual(['s3']);
    expect(await ids(`?request_id=s3&tenant_id=${tenantB}`)).toEqual([]);
    expect(await ids('?request_id=s')).toEqual([]);
  });

  it('matches a model prefix given with a trailing *, and an exact model without it', async () => {
    expect(await ids(`?model=gpt-4*&tenant_id=${tenantA}`)).toEqual(['s2', 's1']);
    expect(await ids('?model=gpt-4*')).toEqual(['sb1', 's2', 's1']);
    expect(await ids(`?model=gpt-4*&tenant_id=${tenantB}`)).toEqual(['sb1']);
    expect(await ids(`?model=gpt-4o&tenant_id=${tenantA}`)).toEqual(['s1']);
    expect(await ids('?model=GPT-4O-*')).toEqual(['s2']);
  });

  it('treats % and _ (and \\) in a model prefix as themselves, not as LIKE wildcards', async () => {
    expect(await ids(`?model=${encodeURIComponent('odd%_*')}`)).toEqual(['s4']);
    expect(await ids(`?model=${encodeURIComponent('odd%*')}`)).toEqual(['s4']);
    expect(await ids(`?model=${encodeURIComponent('odd_*')}`)).toEqual([]);
    expect(await ids(`?model=${encodeURIComponent('gpt_4*')}`)).toEqual([]);
    expect(await ids(`?model=${encodeURIComponent('odd\\*')}`)).toEqual(['s6']);
    expect(await ids('?model=odd*')).toEqual(['s6', 's5', 's4']);
  });

  it('filters by error code, exactly, within the tenant', async () => {
    expect(await ids('?error_code=rate_limited')).toEqual(['sb1', 's4']);
    expect(await ids(`?error_code=rate_limited&tenant_id=${tenantA}`)).toEqual(['s4']);
    expect(await ids('?error_code=rate')).toEqual([]);
  });

  it('filters by metadata key=value, strings, numbers and booleans, several ANDed', async () => {
    expect(await ids(`?meta=team%3Dred&tenant_id=${tenantA}`)).toEqual(['s3', 's1']);
    expect(await ids('?meta=team%3Dred')).toEqual(['sb1', 's3', 's1']);
    expect(await ids('?meta=team%3Dred&meta=n%3D5')).toEqual(['s1']);
    expect(await ids('?meta=n%3D6')).toEqual(['s3']);
    expect(await ids('?meta=beta%3Dtrue')).toEqual(['s2']);
    expect(await ids('?meta=team%3Dgreen')).toEqual([]);
    expect(await ids('?meta=nokey%3Dred')).toEqual([]);
  });

  it("keeps a tenant_admin to its own tenant's logs whatever it searches for", async () => {
    const made = await admin('POST', '/admins', {
      name: 'search-ta',
      role: 'tenant_admin',
      tenant_ids: [tenantA],
    });
    expect(made.status).toBe(201);
    const token = (made.json as { token: string }).token;
    expect(await ids(`?error_code=rate_limited&tenant_id=${tenantA}`, token)).toEqual(['s4']);
    expect(
      (await admin('GET', `/logs?error_code=rate_limited&tenant_id=${tenantB}`, undefined, token)).status,
    ).toBe(403);
    expect((await admin('GET', '/logs?request_id=sb1', undefined, token)).status).toBe(403);
  });

  it('rejects malformed search parameters with a 400 naming them', async () => {
    for (const [query, param] of [
      ['?meta=novalue', 'meta'],
      ['?meta=%3Dx', 'meta'],
      ['?meta=a%3D1&meta=b%3D2&meta=c%3D3&meta=d%3D4&meta=e%3D5', 'meta'],
      [`?meta=${encodeURIComponent('a"b=1')}`, 'meta'],
      ['?model=*', 'model'],
      ['?model=gpt*4', 'model'],
      ['?error_code=', 'error_code'],
    ] as const) {
      const res = await admin('GET', `/logs${query}`);
      expect(res.status, query).toBe(400);
      expect((res.json as { error: { param: string } }).error.param, query).toBe(param);
    }
  });
});

describe('names beside ids', () => {
  it("lists each log with its tenant's and key's names, null when they no longer exist", async () => {
    const res = await admin('GET', '/logs?model=gpt-4o');
    const byId = new Map((res.json as List).data.map((e) => [e.id, e]));
    expect(byId.get('s1')).toMatchObject({ tenant_name: 'Search Corp A', key_name: 'search key a' });
    expect(byId.get('sb1')).toMatchObject({ tenant_name: 'Search Corp B', key_name: 'search key b' });
    const gone = ((await admin('GET', '/logs?request_id=sg1')).json as List).data[0];
    expect(gone).toMatchObject({ tenant_id: 'ten_gone', tenant_name: null, key_name: null });
  });

  it('shows the names on one log too', async () => {
    const res = await admin('GET', '/logs/s2');
    expect(res.json).toMatchObject({ id: 's2', tenant_name: 'Search Corp A', key_name: 'search key a' });
  });
});
