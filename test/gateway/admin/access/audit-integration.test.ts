/**
 * The audit trail: each admin change leaves exactly one row, in the same
 * transaction as the change, naming the admin who made it, with before → after
 * and no secrets; a change that fails leaves none; changes made outside the
 * admin API are the 'system' actor's; a tenant_admin reads only its tenants' rows.
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditedDatabase } from '../../../../src/admin/access/audited-db';
import { AuditEntry } from '../../../../src/storage/audit-log';
import { BREAK_GLASS } from '../../../../src/core/admin-principal';
import { admin, createKey, createTenant } from '../../admin-helpers';

type List = { data: AuditEntry[]; has_more: boolean; next_cursor: string | null };

async function audit(query: string, token?: string): Promise<List> {
  const res = await admin('GET', `/audit?${query}`, undefined, token);
  expect(res.status, res.text).toBe(200);
  const list = res.json as List;
  for (const entry of list.data) AuditEntry.parse(entry);
  return list;
}

let owner: string;
let ownerId: string;

beforeAll(async () => {
  const res = await admin('POST', '/admins', { name: 'audit-owner', role: 'owner' });
  expect(res.status).toBe(201);
  ({ token: owner, id: ownerId } = res.json as { token: string; id: string });
});

describe('admin changes', () => {
  it('a tenant update is one row: who, what, before → after', async () => {
    const tenant = await createTenant('audit-t1');
    const res = await admin('PATCH', `/tenants/${tenant.id}`, { budgets: { usd: { day: 5 } } }, owner);
    expect(res.status).toBe(200);
    const { data } = await audit(`resource=tenant&resource_id=${tenant.id}`);
    expect(data.map((e) => e.change)).toEqual(['update', 'create']);
    const [update, create] = data;
    expect(update).toMatchObject({
      actor: { id: ownerId, name: 'audit-owner' },
      operation: 'PATCH /admin/tenants/{id}',
      tenant_id: tenant.id,
      before: { budgets: {} },
      after: { budgets: { usd: { day: 5 } } },
    });
    expect(create).toMatchObject({
      actor: { id: 'break-glass' },
      operation: 'POST /admin/tenants',
      before: null,
    });
  });

  it('key create, rotate and revoke are recorded without the secret or its hash', async () => {
    const tenant = await createTenant('audit-t2');
    const key = await createKey(tenant.id, { name: 'k' });
    const rotated = await admin('POST', `/keys/${key.id}/rotate`, undefined, owner);
    expect(rotated.status).toBe(200);
    const secret = (rotated.json as { key: string }).key;
    expect((await admin('DELETE', `/keys/${key.id}`, undefined, owner)).status).toBe(200);
    const res = await admin('GET', `/audit?resource=key&resource_id=${key.id}`);
    const list = res.json as List;
    expect(list.data.map((e) => e.operation)).toEqual([
      'DELETE /admin/keys/{id}',
      'POST /admin/keys/{id}/rotate',
      'POST /admin/keys',
    ]);
    expect(list.data[0]?.after).toMatchObject({ status: 'revoked' });
    for (const text of [res.text]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(key.key);
      expect(text).not.toMatch(/key_hash|previous_hash|[0-9a-f]{64}/);
    }
  });

  it('admins are audited without their tokens', async () => {
    const made = await admin('POST', '/admins', { name: 'audit-viewer', role: 'viewer' }, owner);
    const { id, token } = made.json as { id: string; token: string };
    await admin('PATCH', `/admins/${id}`, { status: 'disabled' }, owner);
    const res = await admin('GET', `/audit?resource=admin&resource_id=${id}`);
    const list = res.json as List;
    expect(list.data.map((e) => e.change)).toEqual(['update', 'create']);
    expect(list.data[0]).toMatchObject({ before: { status: 'active' }, after: { status: 'disabled' } });
    expect(res.text).not.toContain(token);
    expect(res.text).not.toContain('token_hash');
  });

  it('a provider key is audited without its ciphertext', async () => {
    const tenant = await createTenant('audit-t3');
    const put = await admin('PUT', `/tenants/${tenant.id}/provider-keys/openai`, {
      key: 'sk-audit-secret-9876',
    });
    expect([200, 201]).toContain(put.status);
    const res = await admin('GET', `/audit?resource=provider_key&tenant_id=${tenant.id}`);
    const list = res.json as List;
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ resource_id: `${tenant.id}/openai`, change: 'create' });
    expect(res.text).not.toContain('sk-audit-secret');
    expect(res.text).not.toContain('ciphertext');
  });

  it('a refused change leaves no row', async () => {
    const before = await audit('resource=admin&limit=200');
    const dup = await admin('POST', '/admins', { name: 'audit-owner', role: 'viewer' }, owner);
    expect(dup.status).toBe(409);
    const after = await audit('resource=admin&limit=200');
    expect(after.data.length).toBe(before.data.length);
  });
});

describe('the transaction', () => {
  it('a batch that fails part-way leaves neither the change nor its audit row', async () => {
    const tenant = await createTenant('audit-atomic');
    const db = auditedDatabase(env.DB, { who: BREAK_GLASS, operation: 'TEST', now: 1 });
    const count = async () =>
      (
        await env.DB.prepare('SELECT COUNT(*) AS n FROM audit_log WHERE resource_id = ?')
          .bind(tenant.id)
          .first<{ n: number }>()
      )?.n;
    const n0 = await count();
    await expect(
      db.batch([
        db.prepare("UPDATE tenants SET name = 'changed' WHERE id = ?").bind(tenant.id),
        db.prepare("UPDATE tenants SET status = 'not-a-status' WHERE id = ?").bind(tenant.id),
      ]),
    ).rejects.toThrow();
    expect(await count()).toBe(n0);
    const row = await env.DB.prepare('SELECT name FROM tenants WHERE id = ?')
      .bind(tenant.id)
      .first<{ name: string }>();
    expect(row?.name).toBe('audit-atomic');
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM audit_actor').first<{ n: number }>()).toEqual({
      n: 0,
    });
  });

  it("a change made outside the admin API is the system actor's", async () => {
    const tenant = await createTenant('audit-system');
    await env.DB.prepare("UPDATE tenants SET name = 'by-hand' WHERE id = ?").bind(tenant.id).run();
    const { data } = await audit(`resource=tenant&resource_id=${tenant.id}&limit=1`);
    expect(data[0]).toMatchObject({
      actor: { id: 'system', name: 'system' },
      operation: null,
      after: { name: 'by-hand' },
    });
  });

  it('a key used on /v1 (last_used_at) is not an audited change', async () => {
    const tenant = await createTenant('audit-used');
    const key = await createKey(tenant.id);
    await env.DB.prepare('UPDATE api_keys SET last_used_at = 5 WHERE id = ?').bind(key.id).run();
    const { data } = await audit(`resource=key&resource_id=${key.id}`);
    expect(data.map((e) => e.change)).toEqual(['create']);
  });
});

describe('reading the audit log', () => {
  it('filters by actor and pages by cursor', async () => {
    const tenant = await createTenant('audit-pages');
    for (const n of [1, 2, 3]) await admin('PATCH', `/tenants/${tenant.id}`, { name: `p${n}` }, owner);
    const first = await audit(`tenant_id=${tenant.id}&actor_id=${ownerId}&limit=2`);
    expect(first.data.map((e) => e.after?.name)).toEqual(['p3', 'p2']);
    expect(first.has_more).toBe(true);
    const second = await audit(
      `tenant_id=${tenant.id}&actor_id=${ownerId}&limit=2&cursor=${first.next_cursor}`,
    );
    expect(second.data.map((e) => e.after?.name)).toEqual(['p1']);
    expect(second.has_more).toBe(false);
  });

  it("a tenant_admin reads its tenants' rows only", async () => {
    const mine = await createTenant('audit-mine');
    const theirs = await createTenant('audit-theirs');
    const made = await admin('POST', '/admins', {
      name: 'audit-ta',
      role: 'tenant_admin',
      tenant_ids: [mine.id],
    });
    const { token } = made.json as { token: string };
    expect((await audit(`tenant_id=${mine.id}`, token)).data.length).toBeGreaterThan(0);
    expect((await admin('GET', `/audit?tenant_id=${theirs.id}`, undefined, token)).status).toBe(403);
    expect((await admin('GET', '/audit', undefined, token)).status).toBe(403);
  });

  it('400 for a bad cursor or resource', async () => {
    expect((await admin('GET', '/audit?cursor=abc')).status).toBe(400);
    expect((await admin('GET', '/audit?resource=planet')).status).toBe(400);
  });
});
