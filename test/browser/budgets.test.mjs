// Budget states and tenant editing in real headless Chromium against `wrangler dev`: a key whose
// 6,000-token budget refuses a request it can no longer fit shows "refusing", its refusing alert's
// webhook delivery goes from retrying (a local webhook answering 500) to delivered, a tenant renamed to
// another's name is warned of, disabling asks for a ticked box first, a key's exact cache is turned on,
// and a price override is created on the pricing page. Screenshots go to test-artifacts/.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { startTestStack } from '../e2e/stack.mjs';
import { launch, pollPage, shot } from './chromium.mjs';

const HOOK_PORT = 22787;
let stack;
let browser;
let page;
let hook;
/** What the webhook answers next; the alerts it received. */
const webhook = { status: 500, received: [] };
const state = {};

before(
  async () => {
    hook = createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        webhook.received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(webhook.status).end();
      });
    });
    await new Promise((resolve) => hook.listen(HOOK_PORT, '127.0.0.1', resolve));
    stack = await startTestStack(22687, { ALERT_SIGNING_SECRET: 'browser-budgets-signing-secret' });
    browser = await launch();
    page = await browser.context.newPage();
  },
  { timeout: 180_000 },
);

after(async () => {
  await browser?.close();
  stack?.stop();
  hook?.close();
});

const url = (path) => `${stack.url}${path}`;
const heading = () => page.getByRole('heading', { level: 1 }).innerText();

async function api(method, path, body) {
  const res = await fetch(`${stack.url}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
  return res.json();
}

async function chat(key, maxTokens) {
  const res = await fetch(`${stack.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'mock/echo',
      max_tokens: maxTokens,
      messages: [{ role: 'user', content: 'hi' }],
    }),
  });
  await res.text();
  return res.status;
}

test('signs in', async () => {
  await page.goto(url('/dashboard/login'));
  await page.getByLabel('Admin token').fill(stack.adminToken);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/dashboard\/tenants$/);
});

test('a key refusing at its 6,000-token budget shows "refusing" on the tenant and key pages', async () => {
  const tenant = await api('POST', '/tenants', {
    name: 'Budgets Co',
    alert_webhook: `http://127.0.0.1:${HOOK_PORT}/edgeway`,
  });
  state.tenantId = tenant.id;
  const key = await api('POST', '/keys', {
    tenant_id: tenant.id,
    name: 'six thousand',
    budgets: { tokens: { total: 6000 } },
  });
  state.keyId = key.id;
  assert.equal(await chat(key.key, 8), 200);
  assert.equal(await chat(key.key, 5990), 429);

  await page.goto(url(`/dashboard/tenants/${tenant.id}`));
  const keyRow = page.getByRole('row', { name: /six thousand/ });
  await pollPage(page, async () => (await keyRow.locator('.badge.refusing').count()) === 1);
  assert.equal(await keyRow.locator('.badge.refusing').innerText(), 'refusing');
  await page.getByRole('link', { name: 'six thousand' }).click();
  await page.waitForURL(/\/dashboard\/keys\//);
  assert.equal(await page.locator('.badge.refusing').first().innerText(), 'refusing');
  assert.equal(await page.locator('.badge.active').count(), 0);
  await shot(page, 'budgets-01-key-refusing');
});

test("the refusing alert's delivery shows retrying, then delivered", async () => {
  const alerts = url(`/dashboard/tenants/${state.tenantId}/alerts`);
  await page.goto(alerts);
  const row = page.getByRole('row').filter({ has: page.locator('.badge.refusing') });
  await pollPage(page, async () => (await row.locator('.badge.retrying').count()) === 1, {
    timeoutMs: 60_000,
  });
  assert.match(await row.innerText(), /retrying\s+1 attempt, last: HTTP 500; next/);
  assert.equal(webhook.received[0]?.type, 'budget.refusing');
  await shot(page, 'budgets-02-alert-retrying');
  webhook.status = 200;
  await pollPage(page, async () => (await row.locator('.badge.delivered').count()) === 1, {
    timeoutMs: 90_000,
  });
  assert.match(await row.innerText(), /delivered .* \(2 attempts\)/);
  await shot(page, 'budgets-03-alert-delivered');
});

test('a rename to the name of another tenant is made, with a warning', async () => {
  const other = await api('POST', '/tenants', { name: 'Shared Name' });
  await page.goto(url(`/dashboard/tenants/${state.tenantId}`));
  const rename = page.getByRole('region', { name: 'Rename the tenant' });
  await rename.getByLabel('Tenant name').fill('Shared Name');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await page.waitForURL(/notice=tenant-renamed/);
  assert.equal(await heading(), 'Shared Name');
  const warning = page.locator('#duplicate-name');
  assert.match(await warning.innerText(), /another tenant is already named “Shared Name”/);
  assert.equal(await warning.getByRole('link').getAttribute('href'), `/dashboard/tenants/${other.id}`);
  await shot(page, 'budgets-04-duplicate-name');
});

test("a key's exact cache is turned on with a TTL on its page", async () => {
  await page.goto(url(`/dashboard/keys/${state.keyId}`));
  const cache = page.getByRole('region', { name: 'Response cache' });
  assert.match(await cache.locator('#key-cache-now').innerText(), /exact cache off/);
  await cache.getByRole('checkbox', { name: /Exact cache: answer identical requests/ }).check();
  await cache.getByRole('spinbutton', { name: /Exact cache TTL/ }).fill('600');
  await cache.getByRole('button', { name: 'Save cache settings' }).click();
  await page.waitForURL(/notice=cache-saved/);
  assert.match(await page.locator('#key-cache-now').innerText(), /exact cache on, entries kept 600 s/);
  const stored = await api('GET', `/keys/${state.keyId}`);
  assert.deepEqual(stored.cache, { exact: true, ttl_seconds: 600 });
});

test('a price override is created on the pricing page', async () => {
  await page.goto(url('/dashboard/tenants'));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
  await page.waitForURL(/\/dashboard\/pricing$/);
  await page.getByLabel('Search models').fill('gpt-4o-mini');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL(/q=gpt-4o-mini/);
  await page.getByRole('link', { name: 'Override the price of openai/gpt-4o-mini' }).click();
  await page.waitForURL(/model=openai%2Fgpt-4o-mini/);
  assert.equal(await page.getByLabel(/^Model id/).inputValue(), 'openai/gpt-4o-mini');
  await page.getByLabel(/^Input, USD/).fill('0.2');
  await page.getByRole('button', { name: 'Save price' }).click();
  await page.waitForURL(/notice=price-saved/);
  const row = page
    .getByRole('region', { name: 'Price overrides' })
    .getByRole('row', { name: /openai\/gpt-4o-mini/ });
  assert.match(await row.innerText(), /\$0\.2\s+\$0\.6/);
  assert.equal((await api('GET', '/pricing/openai/gpt-4o-mini')).source, 'override');
  await shot(page, 'budgets-05-pricing');
});

test('disabling a tenant needs its confirmation box ticked', async () => {
  await page.goto(url(`/dashboard/tenants/${state.tenantId}`));
  await page.getByRole('button', { name: 'Disable tenant Shared Name' }).click();
  await page.waitForURL(/\/disable$/);
  assert.equal(await heading(), 'Disable tenant Shared Name?');
  assert.match(await page.locator('main').innerText(), /its 1 active key is refused/);
  // The box is required: the browser does not send the form unticked, and nothing changes.
  await page.getByRole('button', { name: 'Disable tenant' }).click();
  assert.equal(await page.locator('input[name=confirm]:invalid').count(), 1);
  assert.equal((await api('GET', `/tenants/${state.tenantId}`)).status, 'active');
  await shot(page, 'budgets-06-disable-confirm');
  await page.getByLabel(/I understand/).check();
  await page.getByRole('button', { name: 'Disable tenant' }).click();
  await page.waitForURL(/notice=tenant-disabled/);
  assert.equal((await api('GET', `/tenants/${state.tenantId}`)).status, 'disabled');
});
