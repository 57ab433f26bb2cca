// The dashboard as several admins with different roles (named admins, scoped tenant_admins), driven from
// dashboard.test.mjs, which owns the stack, the owner's signed-in page and the shared state.
import assert from 'node:assert/strict';
import { launch, shot } from './chromium.mjs';

/**
 * An owner adds a tenant_admin and a viewer from the Admins page; each signs in in its own browser profile
 * and sees only what its role allows; the audit trail names each of them.
 * ctx: { page (the owner's), url, heading, state, others (browsers to close), consoleErrors }.
 */
export async function ownerAddsScopedAdmins(ctx) {
  const { page, url, heading, state, others, consoleErrors } = ctx;
  /** Adds a named admin from the Admins page and returns the token shown once. */
  async function addAdmin(name, role, tenantIds = '') {
    await page.goto(url('/dashboard/tenants'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admins' }).click();
    assert.equal(await heading(), 'Admins');
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel(/^Role/).selectOption(role);
    await page.getByLabel(/^Tenants/).fill(tenantIds);
    await page.getByRole('button', { name: 'Create admin' }).click();
    await page.waitForURL(/\/dashboard\/admins\/adm_[^/]+\/token$/);
    await page.getByRole('alert').filter({ hasText: 'shown only this once' }).waitFor();
    const token = await page.locator('#secret').inputValue();
    assert.match(token, /^ewadm_/);
    await page.reload();
    assert.equal(await heading(), 'Token no longer shown');
    return token;
  }

  /** A fresh browser profile signed in with `token`. */
  async function signInElsewhere(token) {
    const other = await launch();
    others.push(other);
    const p = await other.context.newPage();
    p.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(msg.text());
    });
    await p.goto(url('/dashboard/login'));
    await p.getByLabel('Admin token').fill(token);
    await p.keyboard.press('Enter');
    await p.waitForURL(/\/dashboard\/tenants$/);
    return p;
  }

  const navOf = async (p) =>
    (await p.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts()).map((t) =>
      t.trim(),
    );
  const changeForms = (p) => p.locator('main form[method="post"]').count();

  await page.goto(url('/dashboard/tenants'));
  await page.getByLabel('Tenant name').fill('Other Co');
  await page.getByRole('button', { name: 'Create tenant' }).click();
  await page.waitForURL(/\/dashboard\/tenants\/ten_/);
  state.otherTenantId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop());

  const tessToken = await addAdmin('Tess', 'tenant_admin', state.tenantId);
  const vicToken = await addAdmin('Vic', 'viewer');
  await page.goto(url('/dashboard/admins'));
  assert.match(await page.getByRole('row', { name: /Tess/ }).innerText(), /tenant_admin\s+ten_/);
  await shot(page, '06a-admins');

  // The tenant_admin: its tenant only, key forms only, no routes, providers or admins.
  const tess = await signInElsewhere(tessToken);
  assert.match(await tess.locator('header').innerText(), /Signed in as Tess \(tenant_admin\)/);
  assert.deepEqual(await navOf(tess), [
    'Tenants & keys',
    'MCP servers',
    'Usage',
    'Analytics',
    'Logs',
    'Audit',
  ]);
  const rows = await tess.locator('main table tbody tr').allInnerTexts();
  assert.equal(rows.length, 1);
  assert.match(rows[0], /Browser Co/);
  assert.equal(await tess.getByRole('button', { name: 'Create tenant' }).count(), 0);
  await tess.goto(url(`/dashboard/tenants/${state.tenantId}`));
  assert.equal(await tess.getByRole('button', { name: /^Disable/ }).count(), 0);
  assert.equal(await tess.getByRole('button', { name: 'Save guardrails' }).count(), 0);
  await tess.getByLabel(/^Name/).fill('tess key');
  await tess.getByRole('button', { name: 'Create key' }).click();
  await tess.waitForURL(/\/dashboard\/keys\/key_[^/]+\/secret$/);
  await shot(tess, '06b-tenant-admin-key');
  await tess.goto(url(`/dashboard/tenants/${state.otherTenantId}`));
  assert.equal(await tess.getByRole('heading', { level: 1 }).innerText(), 'The admin API refused this');
  assert.match(await tess.getByRole('alert').innerText(), /outside its scope/);

  // The viewer: every read page, not one change form.
  const vic = await signInElsewhere(vicToken);
  assert.match(await vic.locator('header').innerText(), /Signed in as Vic \(viewer\)/);
  assert.deepEqual(await navOf(vic), [
    'Tenants & keys',
    'Routes',
    'Providers',
    'Pricing',
    'MCP servers',
    'Usage',
    'Analytics',
    'Logs',
    'Audit',
  ]);
  for (const path of [
    '/dashboard/tenants',
    `/dashboard/tenants/${state.tenantId}`,
    `/dashboard/keys/${state.keyId}`,
    '/dashboard/routes',
  ]) {
    await vic.goto(url(path));
    assert.equal(await changeForms(vic), 0, path);
  }
  await vic.goto(url(`/dashboard/tenants/${state.tenantId}`));
  await shot(vic, '06c-viewer-tenant');

  // The audit trail names each of them: the owner's and the tenant_admin's changes to the tenant.
  await page.goto(url('/dashboard/tenants'));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
  await page.getByLabel('Tenant').selectOption(state.tenantId);
  await page.getByRole('button', { name: 'Filter' }).click();
  const tessRow = page.getByRole('row', { name: /Tess/ }).filter({ hasText: 'POST /admin/keys' });
  assert.match(await tessRow.innerText(), /name: tess key/);
  const ownerRow = page
    .getByRole('row', { name: /break-glass/ })
    .filter({ hasText: 'PATCH /admin/tenants/{id}' });
  assert.ok((await ownerRow.count()) > 0);
  await shot(page, '06d-audit');

  // The tenant_admin reads the same trail for its tenant.
  await tess.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
  assert.ok((await tess.getByRole('row', { name: /Tess/ }).count()) > 0);
}
