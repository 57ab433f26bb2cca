// The dashboard's usage page for one tenant, in real headless Chromium against `wrangler dev`: its top end
// users by spend, the search by id prefix, and the spend per value of a chosen tag key, each form keeping
// the other's choice. The rollup rows are written into the stack's D1 (the consumer that writes them from
// requests is tested in test/gateway/admin/resources/end-user-usage-integration.test.ts). Screenshots go to
// test-artifacts/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { d1Execute, startTestStack, usageRollupSql } from '../e2e/stack.mjs';
import { launch, shot } from './chromium.mjs';

let stack;
let browser;
let page;
let tenantId;

const url = (path) => `${stack.url}${path}`;

before(
  async () => {
    stack = await startTestStack(21387);
    const res = await fetch(url('/admin/tenants'), {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Usage Co' }),
    });
    assert.equal(res.status, 201);
    tenantId = (await res.json()).id;
    const day = new Date().toISOString().slice(0, 10);
    d1Execute(
      stack,
      usageRollupSql(
        tenantId,
        day,
        [
          ['u_ann', 3, 0.3],
          ['u_abe', 5, 1.5],
          ['u_bo', 2, 0.9],
          ['svc_cron', 40, 0.05],
        ],
        [
          ['team', 'search', 4, 2.0],
          ['team', 'ads', 2, 0.5],
          ['feature', 'chat', 6, 2.5],
        ],
      ),
    );
    browser = await launch();
    page = await browser.context.newPage();
    await page.goto(url('/dashboard/login'));
    await page.getByLabel('Admin token').fill(stack.adminToken);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/tenants$/);
  },
  { timeout: 180_000 },
);

after(async () => {
  await browser?.close();
  stack?.stop();
});

/** The row headers of a table, top to bottom. */
const firstColumn = (table) => table.getByRole('rowheader').allInnerTexts();

test("a tenant's top end users by spend, searched by id prefix", async () => {
  await page.goto(url(`/dashboard/usage?tenant_id=${tenantId}`));
  const table = page.getByRole('table', { name: 'Usage per end user, costliest first' });
  assert.deepEqual(await firstColumn(table), ['u_abe', 'u_bo', 'u_ann', 'svc_cron']);
  assert.match(await table.getByRole('row', { name: /u_abe/ }).innerText(), /\$1\.50\s+54\.\d+ %\s+5\b/);
  assert.ok(await page.getByRole('img', { name: /Cost per end user/ }).isVisible());
  assert.match(await page.locator('main').innerText(), /4 end users; all of them: \$2\.75 over 50 requests/);
  // Each end user links to their logs.
  const link = table.getByRole('link', { name: 'u_bo' });
  assert.equal(
    await link.getAttribute('href'),
    `/dashboard/logs?tenant_id=${encodeURIComponent(tenantId)}&end_user=u_bo`,
  );
  await shot(page, 'usage-end-users');

  await page.getByLabel('End user id starts with').fill('u_a');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL(/user_search=u_a/);
  assert.equal(new URL(page.url()).searchParams.get('tenant_id'), tenantId);
  assert.deepEqual(await firstColumn(table), ['u_abe', 'u_ann']);
  assert.match(await page.locator('main').innerText(), /2 end users; all of them: \$1\.80 over 8 requests/);
  assert.equal(await page.getByLabel('End user id starts with').inputValue(), 'u_a');

  await page.getByLabel('End user id starts with').fill('nobody');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL(/user_search=nobody/);
  await page.getByText('No end user with such an id has usage in this range.').waitFor();
});

test('spend per tag value, for the tag key chosen, keeping the end-user search', async () => {
  await page.goto(url(`/dashboard/usage?tenant_id=${tenantId}&user_search=u_a`));
  const pairs = page.getByRole('table', { name: 'Usage per tag and value' });
  assert.deepEqual(await firstColumn(pairs), ['feature', 'team', 'team']);

  const select = page.getByLabel('Tag key (cf-aig-metadata)');
  assert.deepEqual(await select.locator('option').allInnerTexts(), ['Every key', 'feature', 'team']);
  await select.selectOption('team');
  await page.getByRole('button', { name: 'Break down' }).click();
  await page.waitForURL(/tag=team/);
  const params = new URL(page.url()).searchParams;
  assert.equal(params.get('user_search'), 'u_a');
  assert.equal(params.get('tenant_id'), tenantId);
  const team = page.getByRole('table', { name: 'Usage per value of team' });
  const rows = await team.getByRole('row').allInnerTexts();
  assert.match(rows[1], /^team\s+search\s+\$2\.00\s+80 %\s+4\b/);
  assert.match(rows[2], /^team\s+ads\s+\$0\.5000\s+20 %\s+2\b/);
  assert.equal(await select.inputValue(), 'team');
  // The end-user table still shows the search.
  assert.deepEqual(
    await firstColumn(page.getByRole('table', { name: 'Usage per end user, costliest first' })),
    ['u_abe', 'u_ann'],
  );
  await shot(page, 'usage-tags');
});

test('without a tenant the page says to pick one, and shows no end users', async () => {
  await page.goto(url('/dashboard/usage'));
  await page.getByText('Pick a tenant to see its top end users and its usage per tag.').waitFor();
  assert.equal(await page.getByRole('heading', { name: 'Top end users by spend' }).count(), 0);
});
