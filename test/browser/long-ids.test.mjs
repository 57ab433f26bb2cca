// Readable with any data, in real headless Chromium against `wrangler dev`: a tenant and a key with
// 200-character names, requests to a 405-character model id with long metadata, then every page that
// shows them (logs, a log, usage, tenants, a tenant, a key, audit) at 1280 and 390 px: no page-level
// horizontal overflow (wide tables scroll inside their own box), chart labels drawn at a readable size,
// names beside ids on the logs. Also: the log search form (model prefix, error code, metadata), and a
// failed save's error in view at once at 390 px. Screenshots go to test-artifacts/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestStack } from '../e2e/stack.mjs';
import { launch, pollPage, shot } from './chromium.mjs';

const LONG_MODEL = `mock/${'m'.repeat(400)}`;
const TENANT_NAME = `Tenant${'N'.repeat(194)}`;
const KEY_NAME = `key${'k'.repeat(197)}`;
const WIDTHS = [1280, 390];

let stack;
let browser;
let page;
let tenantId;
let keyId;
let requestId;

const url = (path) => `${stack.url}${path}`;

async function admin(method, path, body) {
  const res = await fetch(url(`/admin${path}`), {
    method,
    headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  assert.ok(res.ok, JSON.stringify(json));
  return json;
}

async function chat(key, model, metadata) {
  const res = await fetch(url('/v1/chat/completions'), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'cf-aig-metadata': JSON.stringify(metadata),
    },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }] }),
  });
  await res.text();
  return res;
}

before(
  async () => {
    stack = await startTestStack(23087);
    tenantId = (await admin('POST', '/tenants', { name: TENANT_NAME })).id;
    const key = await admin('POST', '/keys', { tenant_id: tenantId, name: KEY_NAME });
    keyId = key.id;
    const meta = { team: 'search', note: 'x'.repeat(300) };
    for (let i = 0; i < 3; i++) {
      const res = await chat(key.key, LONG_MODEL, meta);
      requestId ??= res.headers.get('x-edgeway-request-id');
    }
    await chat(key.key, 'mock/echo', { team: 'ads' });
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

/** How the page lays out: its overflow, and the smallest chart label as drawn on screen, in px. */
const layout = () =>
  page.evaluate(() => {
    let smallest = Number.POSITIVE_INFINITY;
    for (const svg of document.querySelectorAll('svg.chart')) {
      const scale = svg.getScreenCTM()?.a ?? 1;
      for (const t of svg.querySelectorAll('text'))
        smallest = Math.min(smallest, Number.parseFloat(getComputedStyle(t).fontSize) * scale);
    }
    // What sticks out, when something does: the innermost elements wider than the window.
    const out = (el) => el.getBoundingClientRect().right > window.innerWidth + 1;
    const wide = [...document.body.querySelectorAll('*')]
      .filter((el) => out(el) && ![...el.children].some(out))
      .slice(0, 5)
      .map(
        (el) => `${el.tagName.toLowerCase()}.${el.className}: ${(el.textContent ?? '').trim().slice(0, 40)}`,
      )
      .join(' | ');
    return {
      wide,
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      charts: document.querySelectorAll('svg.chart').length,
      smallestLabel: smallest,
    };
  });

async function checkPage(path, name) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const res = await page.goto(url(path));
    assert.equal(res.status(), 200, `${path} at ${width}px`);
    const l = await layout();
    assert.ok(l.scrollWidth <= l.innerWidth, `${path} at ${width}px is ${l.scrollWidth}px wide: ${l.wide}`);
    if (l.charts) assert.ok(l.smallestLabel >= 10, `${path} at ${width}px: labels of ${l.smallestLabel}px`);
    await shot(page, `long-ids-${name}-${width}`);
  }
}

test('the logs show the long model ellipsised, with the tenant and key by name beside their ids', async () => {
  await page.goto(url(`/dashboard/logs?tenant_id=${tenantId}`));
  await pollPage(page, async () => (await page.locator('tbody tr').count()) >= 4);
  const row = page.locator('tbody tr').filter({ hasText: 'mmmm' }).first();
  const model = row.locator(`.id[title="${LONG_MODEL}"]`);
  assert.equal(await model.count(), 1);
  const box = await model.boundingBox();
  assert.ok(box && box.width < 300, `the model cell is ${box?.width}px wide`);
  const tenant = row.locator('a.id').first();
  assert.equal(await tenant.getAttribute('title'), `${TENANT_NAME} (${tenantId})`);
  assert.equal(await tenant.getAttribute('href'), `/dashboard/tenants/${tenantId}`);
  assert.equal(await row.locator('a.id').nth(1).getAttribute('title'), `${KEY_NAME} (${keyId})`);
  // At 1280 px every column fits: the table does not even scroll inside its own box.
  const box1280 = await page
    .locator('.scroll', { has: page.getByRole('table', { name: 'Requests, newest first' }) })
    .evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  assert.ok(box1280.scroll <= box1280.client, `the logs table is ${box1280.scroll}px in ${box1280.client}px`);
  // The start of each id stays visible beside a long name.
  const keyIdBox = await row.locator('a.id').nth(1).locator('code').boundingBox();
  assert.ok(keyIdBox && keyIdBox.width >= 20, 'the key id is visible beside its long name');
  await checkPage(`/dashboard/logs?tenant_id=${tenantId}`, 'logs');
});

test("a log's page, usage, tenants, the tenant, the key, audit and the other pages fit 1280 and 390 px", async () => {
  await checkPage(`/dashboard/logs/${requestId}`, 'log');
  const facts = await page.locator('dl.facts').first().innerText();
  assert.match(facts, new RegExp(`${TENANT_NAME}\\s+${tenantId}`));
  await checkPage(`/dashboard/usage?tenant_id=${tenantId}`, 'usage');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url(`/dashboard/usage?tenant_id=${tenantId}`));
  assert.ok(
    await page.locator(`svg.chart text title`).filter({ hasText: LONG_MODEL }).count(),
    'the cut chart label carries the full model id',
  );
  await checkPage('/dashboard/tenants', 'tenants');
  await checkPage(`/dashboard/tenants/${tenantId}`, 'tenant');
  await checkPage(`/dashboard/keys/${keyId}`, 'key');
  await checkPage('/dashboard/audit', 'audit');
  await checkPage('/dashboard/routes', 'routes');
  await checkPage('/dashboard/providers', 'providers');
  await checkPage('/dashboard/mcp-servers', 'mcp-servers');
  await checkPage('/dashboard/admins', 'admins');
  await checkPage(`/dashboard/tenants/${tenantId}/end-users`, 'end-users');
});

test('the logs search by model prefix, error code and metadata', async () => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url(`/dashboard/logs?tenant_id=${tenantId}`));
  await page.getByLabel(/^Model/).fill('mock/mmm*');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/model=mock%2Fmmm\*/);
  assert.equal(await page.locator('tbody tr').count(), 3);
  await page.getByLabel(/^Model/).fill('');
  await page.getByLabel(/^Metadata/).fill('team=ads');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/meta=team%3Dads/);
  assert.equal(await page.locator('tbody tr').count(), 1);
  assert.match(await page.locator('tbody tr').innerText(), /mock\/echo/);
  await page.getByLabel(/^Metadata/).fill('');
  await page.getByLabel('Request id', { exact: true }).fill(requestId);
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/request_id=/);
  assert.equal(await page.locator('tbody tr').count(), 1);
  await page.getByLabel('Request id', { exact: true }).fill('');
  await page.getByLabel(/^Error code/).fill('no_such_code');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/error_code=no_such_code/);
  assert.match(await page.locator('main').innerText(), /No requests match/);
});

test('a failed save shows its error in view at once at 390 px, focused, without script', async () => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(url(`/dashboard/tenants/${tenantId}`));
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Create key' }) });
  await form.getByLabel(/^Name/).fill('n'.repeat(250));
  await form.getByRole('button', { name: 'Create key' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'The key was not created' });
  await alert.waitFor();
  await page.waitForFunction(() => document.activeElement?.id === 'form-error');
  const inView = await alert.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  });
  assert.ok(inView, 'the error is in the viewport');
  const l = await layout();
  assert.ok(l.scrollWidth <= l.innerWidth);
  await shot(page, 'long-ids-failed-save-390');
});
