// The dashboard's Analytics page in real headless Chromium against `wrangler dev` and the mock LLM: real
// requests through the gateway (two keys, a streamed answer, a failed lookup, a 300-character model id),
// their logs through the queue into the rollups, then the page for the last hour — latency and TTFT
// percentiles per model, top spend with the keys' names, failed lookups, the CSV links — at 1280 and 390 px
// with no sideways scroll of the page. The CLI's `analytics` reads the same report. Screenshots go to
// test-artifacts/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { adminCli, startTestStack } from '../e2e/stack.mjs';
import { launch, pollPage, shot } from './chromium.mjs';

let stack;
let browser;
let page;
const consoleErrors = [];
const LONG_MODEL = `mock/${'long-model-id-'.repeat(22)}`;
let second;

const url = (path) => `${stack.url}${path}`;

async function api(method, path, body) {
  const res = await fetch(url(`/admin${path}`), {
    method,
    headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

async function chat(key, body) {
  const res = await fetch(url('/v1/chat/completions'), {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

const SENT = 9;

before(
  async () => {
    stack = await startTestStack(22087);
    const made = await api('POST', '/keys', { tenant_id: stack.tenantId, name: 'Second key' });
    assert.equal(made.status, 201);
    second = made.json;
    const hello = (content, extra = {}) => ({
      model: 'mock/echo',
      messages: [{ role: 'user', content }],
      ...extra,
    });
    for (let i = 0; i < 4; i++) assert.equal(await chat(stack.key, hello('spend '.repeat(300 + i))), 200);
    assert.equal(await chat(stack.key, hello('stream it', { stream: true })), 200);
    assert.equal(await chat(second.key, hello('a little')), 200);
    await chat(second.key, hello('long id', { model: LONG_MODEL }));
    assert.equal(await chat(second.key, hello('typo', { model: 'nosuch/model-x' })), 404);
    assert.equal(await chat(second.key, { messages: [{ role: 'user', content: 'no model' }] }), 400);
    browser = await launch();
    page = await browser.context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
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

test('the CLI reads the last hour once the logs are in', async () => {
  const deadline = Date.now() + 30_000;
  let report;
  for (;;) {
    report = await adminCli(stack, 'analytics', '--range', '1h', '--tenant', stack.tenantId);
    if (report.totals.requests >= SENT || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  assert.equal(report.totals.requests, SENT);
  assert.equal(report.granularity, 'minute');
  const echo = report.latency.find((r) => r.name === 'mock/echo');
  assert.ok(echo && echo.latency_p95_ms > 0, JSON.stringify(report.latency));
  assert.deepEqual(report.lookup_failures.map((f) => [f.model, f.error_code]).sort(), [
    ['', 'missing_required_parameter'],
    ['nosuch/model-x', 'model_not_found'],
  ]);
});

test('the page shows percentiles, top spend with names and failed lookups for 1 h', async () => {
  await page.goto(url(`/dashboard/analytics?tenant_id=${stack.tenantId}`));
  await page.getByRole('navigation', { name: 'Range' }).getByRole('link', { name: '1 h' }).click();
  await pollPage(page, async () => {
    await page.reload();
    return (await page.locator('#latency').count()) > 0;
  });
  assert.match(await page.locator('main h2').first().innerText(), /UTC to .* UTC/);
  assert.match(await page.locator('main').innerText(), /Per-minute buckets, 1 min per point\./);
  const latency = page.getByRole('table', { name: /Latency and time to first token per model/ });
  const echoRow = latency.getByRole('row', { name: /mock\/echo/ });
  const cells = await echoRow.getByRole('cell').allInnerTexts();
  // Requests, errors, p50, p95, p99, TTFT p50, TTFT p95.
  assert.equal(cells.length, 7, cells.join(' | '));
  for (const c of cells.slice(2, 6)) assert.match(c, /\d ms$/, cells.join(' | '));
  const keys = page.getByRole('table', { name: 'Cost per key' });
  assert.match(await keys.innerText(), /Second key/);
  assert.ok(await page.getByRole('table', { name: 'Cost per model' }).isVisible());
  const failures = page.getByRole('table', { name: /Failed lookups/ });
  assert.match(await failures.innerText(), /nosuch\/model-x\s+model_not_found\s+1/);
  assert.match(await failures.innerText(), /\(none\)\s+missing_required_parameter/);
  // The requests chart spans the hour: a label per few minutes, bars only where requests were.
  assert.ok(await page.getByRole('img', { name: /^Requests/ }).isVisible());
  const csv = await page.getByRole('link', { name: 'keys (CSV)' }).getAttribute('href');
  const res = await page.request.get(url(csv));
  assert.equal(res.status(), 200);
  assert.match(await res.text(), /^name,requests,cost_usd,tokens,groups\r\n/);
  await shot(page, 'analytics-1h');
});

test('fits 1280 and 390 px without the page scrolling sideways', async () => {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const range of ['1h', '30d']) {
      for (const group of ['model', 'route']) {
        await page.goto(
          url(`/dashboard/analytics?range=${range}&group_by=${group}&tenant_id=${stack.tenantId}`),
        );
        const wide = await page.evaluate(() =>
          [...document.body.querySelectorAll('*')]
            .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
            .filter(
              (el) => ![...el.children].some((c) => c.getBoundingClientRect().right > window.innerWidth + 1),
            )
            .slice(0, 5)
            .map((el) => `${el.tagName.toLowerCase()}: ${(el.textContent ?? '').trim().slice(0, 60)}`),
        );
        assert.ok(
          await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
          `${width}px ${range} ${group} scrolls sideways: ${wide.join(' | ')}`,
        );
      }
    }
    await page.goto(url(`/dashboard/analytics?range=1h&tenant_id=${stack.tenantId}`));
    await shot(page, `analytics-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('no page broke its Content-Security-Policy', () => {
  assert.deepEqual(
    consoleErrors.filter((e) => /Content.Security.Policy|Refused to/i.test(e)),
    [],
  );
});
