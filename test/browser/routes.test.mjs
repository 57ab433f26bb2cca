// Routes in real headless Chromium against `wrangler dev`: a route defined with the form (target rows, no
// JSON), traffic where its first target fails (the mock LLM's injected 503), and that target then shown
// open, with its breaker's time and a 100 % fallback rate, on the route's page and as a badge on the list —
// at 1280 px and at 390 px without horizontal overflow — and by the CLI's `routes health`.
// Screenshots go to test-artifacts/.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { ROOT } from '../../scripts/stack.mjs';
import { startTestStack } from '../e2e/stack.mjs';
import { launch, pollPage, shot } from './chromium.mjs';

const FAILING = 'mock/echo;status=503;key=browser-routes';
const REQUESTS = 7;

let stack;
let browser;
let page;
let key;
let routePath;

const url = (path) => `${stack.url}${path}`;

async function adminCall(method, path, body) {
  const res = await fetch(url(`/admin${path}`), {
    method,
    headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.ok(res.ok, `${method} ${path}: ${res.status}`);
  return res.json();
}

before(
  async () => {
    stack = await startTestStack(22887);
    const tenant = await adminCall('POST', '/tenants', { name: 'Routes Co' });
    key = (await adminCall('POST', '/keys', { tenant_id: tenant.id, name: 'routes' })).key;
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

test('a route defined with the form, its failing target shown open with its fallback rate', async () => {
  await page.goto(url('/dashboard/routes'));
  const form = page.locator('form', { has: page.getByRole('button', { name: 'Create route' }) }).first();
  await form.getByLabel('Route name').fill('shaky');
  await form.getByRole('group', { name: 'Target 1' }).getByLabel('Model or route').fill(FAILING);
  await form.getByRole('group', { name: 'Target 1' }).getByLabel('First-byte timeout (ms)').fill('5000');
  await form.getByRole('group', { name: 'Target 2' }).getByLabel('Model or route').fill('mock/echo');
  await form.getByRole('button', { name: 'Create route' }).click();
  await page.waitForURL(/\/dashboard\/routes\/rte_[^?]+\?notice=route-created$/);
  routePath = new URL(page.url()).pathname;
  await page.getByText('Route created').waitFor();
  assert.match(
    await page.locator('dl.facts').innerText(),
    /fallback: mock\/echo;status=503;key=browser-routes → mock\/echo/,
  );
  // Before any traffic both targets are idle.
  const health = page.getByRole('region', { name: 'Health' });
  assert.equal(await health.locator(`tr[data-target="${FAILING}"] .badge`).innerText(), 'idle');

  for (let i = 0; i < REQUESTS; i++) {
    const res = await fetch(url('/v1/chat/completions'), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'shaky', messages: [{ role: 'user', content: `hello ${i}` }] }),
    });
    const body = await res.text();
    assert.equal(res.status, 200, body);
    assert.equal(res.headers.get('x-edgeway-target'), 'mock/echo');
  }

  // Logs reach D1 through the queue: reload until every request is counted.
  const row = () => health.locator(`tr[data-target="${FAILING}"]`);
  await pollPage(page, async () => /\b7\s+100 %/.test(await row().innerText()));
  const text = await row().innerText();
  assert.equal(await row().locator('.badge').innerText(), 'open');
  assert.match(text, /open since \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
  assert.equal(await row().getAttribute('class'), 'unhealthy');
  const fallback = health.locator('tr[data-target="mock/echo"]');
  assert.equal(await fallback.locator('.badge').innerText(), 'healthy');
  assert.match(await fallback.innerText(), /\b7\s+0 %/);
  assert.match(await health.innerText(), /1 of 2 targets unhealthy/);
  await shot(page, 'routes-health');

  await page.goto(url('/dashboard/routes'));
  const listed = page.getByRole('row', { name: /shaky/ });
  assert.equal(await listed.locator('.badge').innerText(), 'open');
  assert.match(await listed.innerText(), /1 unhealthy/);
});

test('the route pages at 390 px: no horizontal overflow of the page', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    for (const path of ['/dashboard/routes', routePath]) {
      await page.goto(url(path));
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `${path} overflows by ${overflow} px at 390 px`);
    }
    await shot(page, 'routes-health-390');
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
});

test('the CLI: routes health by name, exit code 3 while a target is unhealthy', async () => {
  const run = (...args) =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        ['scripts/admin.mjs', ...args],
        { cwd: ROOT, env: { ...process.env, EDGEWAY_URL: stack.url, ADMIN_TOKEN: stack.adminToken } },
        (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }),
      );
    });
  const json = await run('routes', 'health', 'shaky', '--json');
  assert.equal(json.code, 3, json.stderr);
  const h = JSON.parse(json.stdout);
  assert.equal(h.status, 'open');
  assert.deepEqual(
    h.targets.map((t) => [t.model, t.status, t.last_hour.fallback_rate]),
    [
      [FAILING, 'open', 1],
      ['mock/echo', 'healthy', 0],
    ],
  );
  const table = await run('routes', 'health', 'shaky');
  assert.match(table.stdout, /^Route shaky \(rte_[^,]+, global\): open, 1 unhealthy target\(s\)$/m);
  assert.match(table.stdout, /^!\s+mock\/echo;status=503;key=browser-routes\s+open\s+open since/m);
});
