// End to end: the gateway's metrics, both ways an operator collects them, against `wrangler dev`.
// - OpenTelemetry: OTEL_EXPORTER_OTLP_ENDPOINT points at a Node HTTP server on 127.0.0.1 standing in
//   for the collector, with OTEL_TRACES_EXPORTER=none so only metrics are sent; requests go through
//   the gateway, the local log queue and its consumer, which POSTs GenAI metrics to /v1/metrics.
// - Prometheus: GET /admin/metrics scraped as Prometheus does (a viewer admin's token as the bearer
//   credential) and read with a Prometheus text-format parser (parse-prometheus-text-format). The
//   usage_totals row it reads is seeded with SQL through wrangler (the rollup from requests is tested
//   with the log consumer); its model id is long and odd, to check the label escaping end to end.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { ROOT } from '../../scripts/stack.mjs';
import { d1Execute, startTestStack } from './stack.mjs';

const PORT = 22287;
const COLLECTOR_PORT = 22290;
const ODD_MODEL = `seeded/${'m'.repeat(300)} "q" \\ {x="y"}`;

let stack;
let collector;
/** Every POST the collector got: path and the decoded request. */
const posts = [];

before(
  async () => {
    collector = createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        posts.push({ path: req.url, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise((resolve) => collector.listen(COLLECTOR_PORT, '127.0.0.1', resolve));
    stack = await startTestStack(PORT, {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${COLLECTOR_PORT}`,
      OTEL_TRACES_EXPORTER: 'none',
      OTEL_SERVICE_NAME: 'edgeway-metrics-e2e',
    });
  },
  { timeout: 180_000 },
);

after(() => {
  stack?.stop();
  collector?.close();
});

function chat(content, stream = false) {
  return fetch(`${stack.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.key}` },
    body: JSON.stringify({ model: 'mock/echo', stream, messages: [{ role: 'user', content }] }),
  });
}

const metricsIn = (body) => body.resourceMetrics.flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
const attrs = (point) => Object.fromEntries(point.attributes.map((a) => [a.key, Object.values(a.value)[0]]));
/** The data points of `name` across every export so far, of the stack's tenant. */
function pointsOf(name) {
  return posts
    .filter((p) => p.path === '/v1/metrics')
    .flatMap((p) => metricsIn(p.body))
    .filter((m) => m.name === name)
    .flatMap((m) => m.histogram.dataPoints)
    .filter((p) => attrs(p)['edgeway.tenant_id'] === stack.tenantId);
}
const total = (points) => points.reduce((n, p) => n + Number(p.count), 0);

test('requests through the gateway are exported as OTLP GenAI metrics to /v1/metrics', async () => {
  const responses = await Promise.all([chat('one'), chat('two'), chat('three')]);
  const streamed = await chat('four', true);
  for (const res of [...responses, streamed]) assert.equal(res.status, 200);
  await streamed.text();

  const deadline = Date.now() + 60_000;
  while (total(pointsOf('gen_ai.client.operation.duration')) < 4) {
    if (Date.now() > deadline)
      assert.fail(`metrics not exported: ${JSON.stringify(posts.map((p) => p.path))}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.ok(
    posts.every((p) => p.path === '/v1/metrics'),
    'OTEL_TRACES_EXPORTER=none sends no spans',
  );
  const [first] = posts;
  assert.deepEqual(first.body.resourceMetrics[0].resource.attributes, [
    { key: 'service.name', value: { stringValue: 'edgeway-metrics-e2e' } },
  ]);
  for (const m of metricsIn(first.body)) assert.equal(m.histogram.aggregationTemporality, 1);

  const duration = pointsOf('gen_ai.client.operation.duration');
  assert.equal(total(duration), 4);
  assert.deepEqual(
    { ...attrs(duration[0]), 'edgeway.tenant_id': undefined },
    {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'mock',
      'gen_ai.system': 'mock',
      'gen_ai.request.model': 'echo',
      'gen_ai.response.model': 'echo',
      'edgeway.tenant_id': undefined,
    },
  );
  const usage = pointsOf('gen_ai.client.token.usage');
  const input = usage.filter((p) => attrs(p)['gen_ai.token.type'] === 'input');
  const output = usage.filter((p) => attrs(p)['gen_ai.token.type'] === 'output');
  assert.equal(total(input), 4);
  assert.equal(total(output), 4);
  assert.ok(input.every((p) => p.sum > 0));
  // The streamed request had a first token.
  assert.ok(total(pointsOf('gen_ai.server.time_to_first_token')) >= 1);
});

test('GET /admin/metrics scrapes as Prometheus does and parses with a Prometheus text-format parser', async () => {
  const q = (text) => `'${text.replaceAll("'", "''")}'`;
  d1Execute(
    stack,
    `INSERT INTO usage_totals (tenant_id, model, provider, requests, cost_usd, latency_sum_ms, lat_9)
     VALUES (${q(stack.tenantId)}, ${q(ODD_MODEL)}, 'seeded', 7, 0.5, 700, 7)`,
  );
  // d1Execute blocked this process: let fetch see the keep-alive sockets the server closed meanwhile.
  await new Promise((r) => setTimeout(r, 200));
  const made = await fetch(`${stack.url}/admin/admins`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.adminToken}` },
    body: JSON.stringify({ name: 'prometheus', role: 'viewer' }),
  });
  assert.equal(made.status, 201);
  const { token } = await made.json();

  assert.equal((await fetch(`${stack.url}/admin/metrics`)).status, 401);
  const res = await fetch(`${stack.url}/admin/metrics`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  const text = await res.text();
  assert.ok(!text.includes(stack.key), 'no gateway key in the metrics');

  const families = parsePrometheusTextFormat(text);
  const family = (name) => families.find((f) => f.name === name);
  for (const f of families) {
    assert.ok(f.help.length > 0, `${f.name} has HELP`);
    assert.notEqual(f.type, 'UNTYPED', `${f.name} has TYPE`);
  }
  const requests = family('edgeway_requests_total');
  assert.equal(requests.type, 'COUNTER');
  const seeded = requests.metrics.find((m) => m.labels.model === ODD_MODEL);
  assert.deepEqual(seeded, {
    labels: { tenant: stack.tenantId, model: ODD_MODEL, provider: 'seeded' },
    value: '7',
  });
  // The four requests of the first test, rolled up by the log consumer.
  const echo = requests.metrics.find(
    (m) => m.labels.tenant === stack.tenantId && m.labels.model === 'mock/echo',
  );
  assert.deepEqual(echo, {
    labels: { tenant: stack.tenantId, model: 'mock/echo', provider: 'mock' },
    value: '4',
  });
  assert.equal(family('edgeway_request_duration_seconds').type, 'HISTOGRAM');
  const info = family('edgeway_tenant_info').metrics.find((m) => m.labels.tenant === stack.tenantId);
  assert.equal(info.value, '1');

  // The CLI prints the same text, narrowed to one tenant.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['scripts/admin.mjs', 'metrics', '--tenant', stack.tenantId],
    { cwd: ROOT, env: { ...process.env, EDGEWAY_URL: stack.url, ADMIN_TOKEN: token } },
  );
  const cli = parsePrometheusTextFormat(stdout).find((f) => f.name === 'edgeway_requests_total');
  assert.ok(cli.metrics.some((m) => m.labels.model === ODD_MODEL));
  assert.ok(cli.metrics.every((m) => m.labels.tenant === stack.tenantId));
});
