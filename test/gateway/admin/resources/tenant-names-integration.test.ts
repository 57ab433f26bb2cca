/**
 * Tenant names through the admin API: a rename with PATCH, and a create or rename to a name another
 * tenant has (ignoring case and outer spaces) is made, with a `duplicate_name` warning naming them.
 */
import { describe, expect, it } from 'vitest';
import { admin, asTenant } from '../../admin-helpers';

type Written = {
  id: string;
  name: string;
  warnings: { code: string; message: string; tenant_ids: string[] }[];
};

describe('tenant names', () => {
  it('creates a tenant with an unused name without warnings, and renames it', async () => {
    const name = `names-${crypto.randomUUID()}`;
    const created = await admin('POST', '/tenants', { name });
    expect(created.status).toBe(201);
    const t = created.json as Written;
    expect(t.warnings).toEqual([]);
    const renamed = await admin('PATCH', `/tenants/${t.id}`, { name: `${name}-renamed` });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ id: t.id, name: `${name}-renamed`, warnings: [] });
    expect(asTenant(await admin('GET', `/tenants/${t.id}`)).name).toBe(`${name}-renamed`);
  });

  it('warns, without refusing, when a create or a rename takes a name another tenant has', async () => {
    const name = `Names ${crypto.randomUUID()}`;
    const first = (await admin('POST', '/tenants', { name })).json as Written;
    const second = await admin('POST', '/tenants', { name: `  ${name.toUpperCase()} ` });
    expect(second.status).toBe(201);
    const dup = second.json as Written;
    expect(dup.warnings).toEqual([
      { code: 'duplicate_name', message: expect.stringContaining(first.id), tenant_ids: [first.id] },
    ]);
    const third = (await admin('POST', '/tenants', { name: `other-${crypto.randomUUID()}` })).json as Written;
    const renamed = await admin('PATCH', `/tenants/${third.id}`, { name });
    expect(renamed.status).toBe(200);
    expect((renamed.json as Written).warnings[0]?.tenant_ids.sort()).toEqual([first.id, dup.id].sort());
    // Renaming a tenant to its own name, or changing another field, warns of nothing of its own.
    const same = await admin('PATCH', `/tenants/${first.id}`, { metadata: { team: 'a' } });
    expect((same.json as Written).warnings).toEqual([]);
  });
});
