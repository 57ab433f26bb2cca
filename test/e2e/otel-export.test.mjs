// End to end: `wrangler dev` with OTEL_EXPORTER_OTLP_ENDPOINT pointed at a Node HTTP server on
// 127.0.0.1 acting as the OpenTelemetry collector. Requests go through the gateway, the local log
// queue and its consumer; the collector decodes every OTLP/JSON export it gets, refuses the first
// trace export with a 503 (the consumer must try again) and accepts the rest. Metrics exports
// (/v1/metrics) are accepted and not kept: test/e2e/metrics.test.mjs checks them.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { startTestStack } from './stack.mjs';

const COLLECTOR_PORT = 19389;
const COLLECTOR_KEY = 'e2e-collector-key';
const TRACE = '0af7651916cd43dd8448eb211c80319c';
const PARENT = 'b7ad6b7169203331';

let stack;
let collector;
/** Every trace POST the collector got: path, headers, body text and the decoded request. */
const exports = [];

before(
  async () => {
    collector = createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (req.url === '/v1/metrics') {
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
          return;
        }
        exports.push({
          path: req.url,
          method: req.method,
          headers: req.headers,
          text,
          body: JSON.parse(text),
        });
        if (exports.length === 1) {
          res.writeHead(503, { 'retry-after': '0' }).end('busy');
        } else {
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        }
      });
    });
    await new Promise((resolve) => collector.listen(COLLECTOR_PORT, '127.0.0.1', resolve));
    stack = await startTestStack(19387, {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${COLLECTOR_PORT}`,
      OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${COLLECTOR_KEY}`,
      OTEL_SERVICE_NAME: 'edgeway-e2e',
    });
  },
  { timeout: 180_000 },
);

after(() => {
  stack?.stop();
  collector?.close();
});

const spansIn = (e) => e.body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
const attr = (span, key) => span.attributes.find((a) => a.key === key)?.value;

function chat(content, headers = {}) {
  return fetch(`${stack.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.key}`, ...headers },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content }] }),
  });
}

/** The exported spans of `ids`, once every one has arrived in an accepted export (polls; gives up after 60 s). */
async function spansFor(ids) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const accepted = exports.slice(1).flatMap(spansIn);
    const found = ids.map((id) => accepted.find((s) => attr(s, 'edgeway.request_id')?.stringValue === id));
    if (found.every(Boolean)) return found;
    if (Date.now() > deadline)
      assert.fail(`spans not exported: ${ids.filter((_, i) => !found[i]).join(', ')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test('requests are exported as spans, retried after a 503, in the caller trace, without secrets', async () => {
  const responses = await Promise.all([
    chat('traced request', { traceparent: `00-${TRACE}-${PARENT}-01` }),
    chat('second request'),
    chat('third request'),
  ]);
  for (const res of responses) assert.equal(res.status, 200);
  const ids = responses.map((r) => r.headers.get('x-edgeway-request-id'));
  const [traced, second] = await spansFor(ids);

  // The refused export was sent again: the accepted ones hold every span the first one held.
  const refused = spansIn(exports[0]).map((s) => s.spanId);
  const accepted = new Set(
    exports
      .slice(1)
      .flatMap(spansIn)
      .map((s) => s.spanId),
  );
  assert.ok(refused.length > 0);
  for (const id of refused) assert.ok(accepted.has(id), `span ${id} of the refused export was not retried`);

  for (const e of exports) {
    assert.equal(e.method, 'POST');
    assert.equal(e.path, '/v1/traces');
    assert.equal(e.headers['content-type'], 'application/json');
    assert.equal(e.headers['x-api-key'], COLLECTOR_KEY);
    assert.ok(!e.text.includes(stack.key), 'the gateway key is never exported');
    assert.ok(!e.text.includes(stack.adminToken), 'the admin token is never exported');
    assert.ok(!e.text.includes(COLLECTOR_KEY), 'the collector key travels as a header only');
    assert.ok(!e.text.includes('traced request'), 'no prompt without payload logging');
    assert.deepEqual(e.body.resourceSpans[0].resource.attributes, [
      { key: 'service.name', value: { stringValue: 'edgeway-e2e' } },
    ]);
  }

  assert.equal(traced.traceId, TRACE);
  assert.equal(traced.parentSpanId, PARENT);
  assert.match(traced.spanId, /^[0-9a-f]{16}$/);
  assert.equal(second.traceId, ids[1].replaceAll('-', ''));
  assert.equal(traced.name, 'chat echo');
  assert.deepEqual(attr(traced, 'gen_ai.operation.name'), { stringValue: 'chat' });
  assert.deepEqual(attr(traced, 'gen_ai.provider.name'), { stringValue: 'mock' });
  assert.deepEqual(attr(traced, 'gen_ai.response.model'), { stringValue: 'echo' });
  assert.deepEqual(attr(traced, 'edgeway.tenant_id'), { stringValue: stack.tenantId });
  assert.ok(Number(attr(traced, 'gen_ai.usage.input_tokens').intValue) > 0);
  assert.ok(Number(attr(traced, 'gen_ai.usage.output_tokens').intValue) > 0);
  const start = BigInt(traced.startTimeUnixNano);
  const end = BigInt(traced.endTimeUnixNano);
  assert.ok(end >= start);
  // The span starts when the gateway received the request: within the last minute.
  assert.ok(Number(start / 1_000_000n) > Date.now() - 60_000);
});
