/**
 * The OpenTelemetry export end to end in the Workers runtime: a request with a
 * traceparent through the real app (its log event kept by the harness), then
 * log batches through the worker's queue handler with real D1 and a collector
 * standing in for the Worker's outbound fetch, which decodes every OTLP/JSON
 * request it gets.
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LogEvent } from '../../../../src/core/log-event';
import type { Bindings } from '../../../../src/env';
import worker from '../../../../src/index';
import { consumeLogs } from '../../../../src/logs/consume/consumer';
import { EXPORT_ATTEMPTS } from '../../../../src/logs/otel/export';
import type { LogStore } from '../../../../src/logs/store';
import { harness } from '../../exchange-harness';
import { chatBody, seedKey } from '../../helpers';
import { bindings, clearLogs, DLQ, logCount, logEvent, LOG_QUEUE } from '../../log-fixtures';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';
const COLLECTOR_KEY = 'collector-secret-key';

const withOtel: Bindings = {
  ...bindings,
  OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector.test/',
  OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${encodeURIComponent(COLLECTOR_KEY)},x-team=gateway`,
  OTEL_SERVICE_NAME: 'edgeway-test',
};

type AnyValue = Record<string, unknown>;
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: AnyValue }[];
  status: { code: number };
}
interface Export {
  url: string;
  method: string;
  headers: Headers;
  text: string;
  resourceSpans: {
    resource: { attributes: { key: string; value: AnyValue }[] };
    scopeSpans: { scope: { name: string }; spans: Span[] }[];
  }[];
}

interface MetricsExport {
  url: string;
  headers: Headers;
  resourceMetrics: {
    resource: { attributes: { key: string; value: AnyValue }[] };
    scopeMetrics: {
      scope: { name: string };
      metrics: {
        name: string;
        unit: string;
        histogram: {
          aggregationTemporality: number;
          dataPoints: { attributes: { key: string; value: AnyValue }[]; count: string; sum: number }[];
        };
      }[];
    }[];
  }[];
}

/** What the collector got on /v1/metrics (always accepted), in the order it came. */
let metricsReceived: MetricsExport[] = [];

/**
 * A collector answering trace exports with `statuses` in turn (the last one repeats), keeping what it
 * decoded; metrics exports are kept apart in metricsReceived and accepted.
 */
function collector(statuses: number[] = [200]) {
  const received: Export[] = [];
  metricsReceived = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const text = await request.text();
    if (new URL(request.url).pathname === '/v1/metrics') {
      metricsReceived.push({ url: request.url, headers: request.headers, ...JSON.parse(text) });
      return new Response('{}');
    }
    received.push({
      url: request.url,
      method: request.method,
      headers: request.headers,
      text,
      ...JSON.parse(text),
    });
    const status = statuses[Math.min(received.length - 1, statuses.length - 1)]!;
    return new Response(status === 200 ? '{}' : 'busy', {
      status,
      headers: status === 200 ? {} : { 'retry-after': '0' },
    });
  });
  return received;
}

const spansOf = (e: Export) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
const attr = (span: Span, key: string) => span.attributes.find((a) => a.key === key)?.value;

async function consume(env_: Bindings, messages: unknown[], queue = LOG_QUEUE) {
  const batch = createMessageBatch(
    queue,
    messages.map((body, i) => ({
      id: `otel-${i}-${crypto.randomUUID()}`,
      timestamp: new Date(),
      attempts: 1,
      body,
    })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, env_);
  return getQueueResult(batch, ctx);
}

function batchOf(events: LogEvent[], seq = 1) {
  return { v: 2, isolate: `iso-${crypto.randomUUID()}`, seq, sent: events.length * seq, events };
}

let key: { id: string; secret: string; tenantId: string };
beforeAll(async () => {
  key = await seedKey({ tenantId: 'ten_otel' });
});
beforeEach(async () => {
  await clearLogs();
  await env.DB.exec('DELETE FROM log_batches');
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('OpenTelemetry export from the log consumer', () => {
  it("joins the caller's trace: traceparent on the request becomes the span's trace and parent", async () => {
    const h = harness();
    await h.call(chatBody('trace me'), key.secret, undefined, { traceparent: `00-${TRACE}-${PARENT}-01` });
    await h.call(chatBody('no trace'), key.secret, undefined, { traceparent: 'garbage' });
    const [traced, untraced] = h.counts.events;
    expect(traced).toMatchObject({ traceId: TRACE, parentSpanId: PARENT });
    expect(untraced).not.toHaveProperty('traceId');

    const received = collector();
    const result = await consume(withOtel, [batchOf([traced!, untraced!])]);
    expect(result.ackAll).toBe(true);
    const [span, own] = spansOf(received[0]!);
    expect(span).toMatchObject({ traceId: TRACE, parentSpanId: PARENT });
    expect(span!.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(span!.spanId).not.toBe(PARENT);
    // Without a traceparent the trace is the request's own id.
    expect(own).toMatchObject({ traceId: untraced!.requestId.replaceAll('-', ''), parentSpanId: '' });
    expect(attr(span!, 'edgeway.key_id')).toEqual({ stringValue: key.id });
    expect(attr(span!, 'edgeway.tenant_id')).toEqual({ stringValue: 'ten_otel' });
    expect(attr(span!, 'gen_ai.request.model')).toEqual({ stringValue: 'echo' });
    expect(attr(span!, 'gen_ai.usage.input_tokens')).toEqual({ intValue: String(traced!.inputTokens) });
    // No gateway key, no collector key, no prompt (this key does not log payloads).
    expect(received[0]!.text).not.toContain(key.secret);
    expect(received[0]!.text).not.toContain(COLLECTOR_KEY);
    expect(received[0]!.text).not.toContain('trace me');
  });

  it('sends one POST for every event of a batch, to <endpoint>/v1/traces with the configured headers', async () => {
    const received = collector();
    const events = [logEvent(), logEvent({ cache: 'HIT', costUsd: 0, savedUsd: 0.5 }), logEvent()];
    const single = logEvent();
    const result = await consume(withOtel, [batchOf(events), single, { not: 'an event' }]);
    expect(result.ackAll).toBe(true);
    expect(await logCount()).toBe(4);
    expect(received).toHaveLength(1);
    const [post] = received;
    expect(post!.url).toBe('http://otel-collector.test/v1/traces');
    expect(post!.method).toBe('POST');
    expect(post!.headers.get('content-type')).toBe('application/json');
    expect(post!.headers.get('x-api-key')).toBe(COLLECTOR_KEY);
    expect(post!.headers.get('x-team')).toBe('gateway');
    expect(post!.resourceSpans[0]!.resource.attributes).toContainEqual({
      key: 'service.name',
      value: { stringValue: 'edgeway-test' },
    });
    expect(post!.resourceSpans[0]!.scopeSpans[0]!.scope.name).toBe('edgeway');
    const spans = spansOf(post!);
    expect(spans.map((s) => attr(s, 'edgeway.request_id'))).toEqual(
      [...events, single].map((e) => ({ stringValue: e.requestId })),
    );
    const hit = spans[1]!;
    expect(attr(hit, 'edgeway.cache')).toEqual({ stringValue: 'HIT' });
    expect(attr(hit, 'edgeway.saved_usd')).toEqual({ doubleValue: 0.5 });
    for (const [i, span] of spans.entries()) {
      const e = [...events, single][i]!;
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(BigInt(span.startTimeUnixNano)).toBe(BigInt(e.time) * 1_000_000n);
      expect(BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano)).toBe(
        BigInt(Math.round(e.latencyMs * 1e6)),
      );
    }
  });

  it('retries a 503 from the collector with the same spans, and stores the rows once', async () => {
    const received = collector([503, 200]);
    const events = [logEvent(), logEvent()];
    const result = await consume(withOtel, [batchOf(events)]);
    expect(result.ackAll).toBe(true);
    expect(result.retryBatch.retry).toBe(false);
    expect(received).toHaveLength(2);
    expect(received[1]!.text).toBe(received[0]!.text);
    expect(await logCount()).toBe(2);
  });

  it('acks and keeps the D1 rows when the collector stays down (the spans are dropped and reported)', async () => {
    const received = collector([503]);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const result = await consume(withOtel, [batchOf([logEvent(), logEvent(), logEvent()])]);
    expect(received).toHaveLength(EXPORT_ATTEMPTS);
    expect(result.ackAll).toBe(true);
    expect(result.retryBatch.retry).toBe(false);
    expect(await logCount()).toBe(3);
    expect(errors.mock.calls.map((c) => String(c[0]))).toContain(
      'OpenTelemetry export failed; spans dropped',
    );
  });

  it('exports what the dead-letter consumer stores, in one POST for its batch', async () => {
    const received = collector();
    const first = [logEvent(), logEvent()];
    const second = logEvent();
    const result = await consume(withOtel, [batchOf(first), second], DLQ);
    expect(result.explicitAcks).toHaveLength(2);
    expect(await logCount()).toBe(3);
    expect(received).toHaveLength(1);
    expect(spansOf(received[0]!).map((s) => attr(s, 'edgeway.request_id'))).toEqual(
      [...first, second].map((e) => ({ stringValue: e.requestId })),
    );
  });

  it('exports the batch as GenAI metrics to <endpoint>/v1/metrics in the same pass, once for the batch', async () => {
    const received = collector();
    const events = [
      logEvent({ tenantId: 'ten_otel', inputTokens: 100, outputTokens: 7, latencyMs: 120, ttftMs: 30 }),
      logEvent({ tenantId: 'ten_otel', inputTokens: 50, outputTokens: 3, latencyMs: 80, ttftMs: 20 }),
      logEvent({ endpoint: '/mcp', provider: 'mcp:docs', model: 'docs__search' }),
    ];
    const result = await consume(withOtel, [batchOf(events)]);
    expect(result.ackAll).toBe(true);
    expect(received).toHaveLength(1);
    expect(metricsReceived).toHaveLength(1);
    const [post] = metricsReceived;
    expect(post!.url).toBe('http://otel-collector.test/v1/metrics');
    expect(post!.headers.get('x-api-key')).toBe(COLLECTOR_KEY);
    expect(post!.resourceMetrics[0]!.resource.attributes).toContainEqual({
      key: 'service.name',
      value: { stringValue: 'edgeway-test' },
    });
    const metrics = post!.resourceMetrics[0]!.scopeMetrics[0]!.metrics;
    const byName = Object.fromEntries(metrics.map((m) => [m.name, m]));
    const input = byName['gen_ai.client.token.usage']!.histogram.dataPoints.find((p) =>
      p.attributes.some((a) => a.key === 'gen_ai.token.type' && a.value.stringValue === 'input'),
    );
    expect(input).toMatchObject({ count: '2', sum: 150 });
    // The MCP call is not a model operation: two durations, not three.
    expect(byName['gen_ai.client.operation.duration']!.histogram).toMatchObject({
      aggregationTemporality: 1,
      dataPoints: [{ count: '2', sum: 0.2 }],
    });
    expect(byName['gen_ai.server.time_to_first_token']!.histogram.dataPoints[0]).toMatchObject({
      count: '2',
      sum: 0.05,
    });
  });

  it('turns metrics off with OTEL_METRICS_EXPORTER=none, spans still exported', async () => {
    const received = collector();
    await consume({ ...withOtel, OTEL_METRICS_EXPORTER: 'none' }, [batchOf([logEvent()])]);
    expect(received).toHaveLength(1);
    expect(metricsReceived).toHaveLength(0);
  });

  it('sends nothing when no endpoint is configured', async () => {
    const received = collector();
    const result = await consume(bindings, [batchOf([logEvent()])]);
    expect(result.ackAll).toBe(true);
    expect(received).toHaveLength(0);
    expect(metricsReceived).toHaveLength(0);
    expect(await logCount()).toBe(1);
  });

  it('exports nothing for a batch whose D1 write failed (it is retried, then exported once stored)', async () => {
    const received = collector();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const failing = {
      write: async () => {
        throw new Error('D1_ERROR: database is locked');
      },
    } as unknown as LogStore;
    const batch = createMessageBatch(LOG_QUEUE, [
      { id: 'm1', timestamp: new Date(), attempts: 1, body: batchOf([logEvent()]) },
    ]);
    const ctx = createExecutionContext();
    const config = {
      tracesUrl: 'http://otel-collector.test/v1/traces',
      metricsUrl: 'http://otel-collector.test/v1/metrics',
      headers: {},
      serviceName: 'edgeway',
    };
    await consumeLogs(batch, failing, Date.now(), { config, ports: { fetch: (r) => fetch(r) } });
    const result = await getQueueResult(batch, ctx);
    expect(result.retryBatch.retry).toBe(true);
    expect(received).toHaveLength(0);
    expect(metricsReceived).toHaveLength(0);
  });

  it('includes the payload only for a key that logs it, as the log row holds it', async () => {
    const received = collector();
    const event = logEvent({ payload: { request: '{"messages":[]}', response: 'answer', truncated: false } });
    await consume(withOtel, [batchOf([event, logEvent()])]);
    const [withPayload, without] = spansOf(received[0]!);
    expect(attr(withPayload!, 'edgeway.payload.response')).toEqual({ stringValue: 'answer' });
    expect(without!.attributes.some((a) => a.key.startsWith('edgeway.payload'))).toBe(false);
  });
});
