/**
 * docs/admins.md's table of which role may call which admin operation is
 * checked against the code: every operation in OPERATIONS, each cell what
 * `permits` answers for its access, so the docs cannot drift from the policy.
 */
import { describe, expect, it } from 'vitest';
import doc from '../../../docs/admins.md?raw';
import { OPERATIONS } from '../../../src/admin/openapi';
import type { Operation } from '../../../src/admin/operation';
import {
  type AdminPrincipal,
  type AdminRole,
  permits,
  type TenantLocator,
} from '../../../src/core/admin-principal';

const START = '<!-- roles table: checked by test/gateway/admin/admins-doc-unit.test.ts -->';
const END = '<!-- end of roles table -->';

const principal = (role: AdminRole): AdminPrincipal => ({
  id: `adm_${role}`,
  name: role,
  role,
  tenantIds: role === 'tenant_admin' ? ['ten_in'] : [],
});

const LOCATED_BY: Record<TenantLocator, string> = {
  path: 'the `{id}` in the path',
  query: 'the `tenant_id` query parameter',
  body: "the body's `tenant_id`",
  key: "the key's tenant",
  log: "the logged request's tenant",
  list: 'the list holds its tenants only',
  any: '—',
};

function tenantAdminCell(op: Operation): string {
  const who = principal('tenant_admin');
  const inScope = permits(who, op.access, 'ten_in');
  const outOfScope = permits(who, op.access, 'ten_out');
  if (!inScope) return '—';
  return outOfScope && op.access.tenant !== 'list' ? 'yes' : 'its tenants';
}

function row(op: Operation): string {
  const cells = [
    `\`${op.method.toUpperCase()} ${op.path}\``,
    op.summary,
    ...(['owner', 'admin', 'viewer'] as const).map((r) =>
      permits(principal(r), op.access, null) ? 'yes' : '—',
    ),
    tenantAdminCell(op),
    tenantAdminCell(op) === '—' ? '—' : LOCATED_BY[op.access.tenant ?? 'any'],
  ];
  return `| ${cells.join(' | ')} |`;
}

function rolesTable(): string {
  return [
    '| Operation | What it does | owner | admin | viewer | tenant_admin | tenant_admin: tenant from |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...OPERATIONS.map(row),
  ].join('\n');
}

describe('docs/admins.md', () => {
  it('lists every admin operation with the roles permits() lets call it', () => {
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    expect(start, `docs/admins.md needs the markers ${START} … ${END}`).toBeGreaterThanOrEqual(0);
    const inDoc = doc.slice(start + START.length, end).trim();
    expect(inDoc, `replace the table in docs/admins.md with:\n\n${rolesTable()}\n`).toBe(rolesTable());
  });
});
