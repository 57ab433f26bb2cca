/** The OpenTelemetry GenAI metrics of a log batch: the ExportMetricsServiceRequest's shape, and its export. */
import { describe, expect, it } from 'vitest';
import type { LogEvent } from '../../../../src/core/log-event';
import { exportMetrics, SCOPE } from '../../../../src/logs/otel/export';
import {
  metricsRequest,
  OPERATION_DURATION,
  TEMPORALITY_DELTA,
  TIME_TO_FIRST_TOKEN,
  TOKEN_USAGE,
} from '../../../../src/logs/otel/metrics';
import { logEvent } from '../../log-fixtures';

const NOW = Date.UTC(2026, 4, 1, 12, 5, 0);

type Point = {
  attributes: { key: string; value: Record<string, unknown> }[];
  startTimeUnixNano: string;
  timeUnixNano: string;
  count: string;
  bucketCounts: string[];
  explicitBounds: number[];
  sum: number;
  min: number;
  max: number;
};
type Metric = {
  name: string;
  unit: string;
  description: string;
  histogram: { aggregationTemporality: number; dataPoints: Point[] };
};

function request(events: LogEvent[]) {
  const r = metricsRequest(events, 'edgeway-test', SCOPE, NOW);
  expect(r).not.toBeNull();
  // Through JSON, as the collector receives it.
  return JSON.parse(JSON.stringify(r)) as {
    resourceMetrics: {
      resource: { attributes: unknown[] };
      scopeMetrics: { scope: { name: string; version: string }; metrics: Metric[] }[];
    }[];
  };
}

const metricsOf = (events: LogEvent[]) => request(events).resourceMetrics[0]!.scopeMetrics[0]!.metrics;
const metric = (events: LogEvent[], name: string) => metricsOf(events).find((m) => m.name === name);
const attrs = (p: Point) => Object.fromEntries(p.attributes.map((a) => [a.key, Object.values(a.value)[0]]));
const points = (m: Metric | undefined, where: Record<string, unknown> = {}) =>
  (m?.histogram.dataPoints ?? []).filter((p) => Object.entries(where).every(([k, v]) => attrs(p)[k] === v));
/** The index of the one bucket that holds a value. */
const bucketOf = (p: Point) => p.bucketCounts.findIndex((c) => c !== '0');

describe('GenAI metrics of a log batch', () => {
  it('is one resource and scope with delta histograms at the semantic conventions’ units and bounds', () => {
    const r = request([logEvent({ ttftMs: 80 })]);
    expect(r.resourceMetrics).toHaveLength(1);
    expect(r.resourceMetrics[0]!.resource.attributes).toEqual([
      { key: 'service.name', value: { stringValue: 'edgeway-test' } },
    ]);
    const [scope] = r.resourceMetrics[0]!.scopeMetrics;
    expect(scope!.scope).toEqual({ name: 'edgeway', version: '1' });
    const byName = Object.fromEntries(scope!.metrics.map((m) => [m.name, m]));
    expect(Object.keys(byName).sort()).toEqual([
      'gen_ai.client.operation.duration',
      'gen_ai.client.token.usage',
      'gen_ai.server.time_to_first_token',
    ]);
    expect(byName['gen_ai.client.token.usage']).toMatchObject({ unit: '{token}' });
    expect(byName['gen_ai.client.operation.duration']).toMatchObject({ unit: 's' });
    expect(byName['gen_ai.server.time_to_first_token']).toMatchObject({ unit: 's' });
    expect(TOKEN_USAGE.bounds).toEqual([
      1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
    ]);
    expect(OPERATION_DURATION.bounds).toEqual([
      0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
    ]);
    expect(TIME_TO_FIRST_TOKEN.bounds).toEqual([
      0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
    ]);
    for (const m of scope!.metrics) {
      expect(m.description).not.toBe('');
      expect(m.histogram.aggregationTemporality).toBe(TEMPORALITY_DELTA);
      const instrument = [TOKEN_USAGE, OPERATION_DURATION, TIME_TO_FIRST_TOKEN].find(
        (i) => i.name === m.name,
      )!;
      for (const p of m.histogram.dataPoints) {
        expect(p.explicitBounds).toEqual(instrument.bounds);
        expect(p.bucketCounts).toHaveLength(instrument.bounds.length + 1);
        // fixed64 as decimal strings; the counts add up to count.
        expect(p.count).toMatch(/^\d+$/);
        expect(p.bucketCounts.reduce((n, c) => n + Number(c), 0)).toBe(Number(p.count));
      }
    }
  });

  it('aggregates a batch into one point per attribute set, from its earliest request to the time it is consumed', () => {
    const first = logEvent({ time: NOW - 60_000, inputTokens: 1000, outputTokens: 10 });
    const second = logEvent({ time: NOW - 30_000, inputTokens: 3000, outputTokens: 20 });
    const usage = metric([first, second], 'gen_ai.client.token.usage');
    const [input] = points(usage, { 'gen_ai.token.type': 'input' });
    expect(points(usage)).toHaveLength(2);
    expect(input).toMatchObject({ count: '2', sum: 4000, min: 1000, max: 3000 });
    // 1000 in (256, 1024], 3000 in (1024, 4096].
    expect(input!.bucketCounts.slice(5, 7)).toEqual(['1', '1']);
    expect(BigInt(input!.startTimeUnixNano)).toBe(BigInt(NOW - 60_000) * 1_000_000n);
    expect(BigInt(input!.timeUnixNano)).toBe(BigInt(NOW) * 1_000_000n);
    expect(points(usage, { 'gen_ai.token.type': 'output' })[0]).toMatchObject({ count: '2', sum: 30 });
  });

  it('carries the span’s GenAI attributes and the tenant', () => {
    const event = logEvent({
      tenantId: 'ten_m',
      provider: 'bedrock',
      model: 'bedrock/anthropic.claude-3-haiku',
      tries: [{ target: 'bedrock/anthropic.claude-3-haiku-v1', status: 200, ttfbMs: 40, error: null }],
    });
    const [p] = points(metric([event], 'gen_ai.client.operation.duration'));
    expect(attrs(p!)).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'aws.bedrock',
      'gen_ai.system': 'aws.bedrock',
      'gen_ai.request.model': 'anthropic.claude-3-haiku',
      'gen_ai.response.model': 'anthropic.claude-3-haiku-v1',
      'edgeway.tenant_id': 'ten_m',
    });
  });

  it('records every request’s duration in seconds, a failed one apart with its error.type', () => {
    const ok = logEvent({ latencyMs: 250 });
    const timeout = logEvent({
      latencyMs: 30_000,
      status: 504,
      errorSource: 'provider',
      errorCode: 'upstream_timeout',
    });
    const refused = logEvent({ latencyMs: 3, status: 429, errorSource: 'gateway', errorCode: null });
    const duration = metric([ok, timeout, refused], 'gen_ai.client.operation.duration');
    const [fine] = points(duration).filter((p) => !('error.type' in attrs(p)));
    expect(fine).toMatchObject({ count: '1', sum: 0.25 });
    expect(bucketOf(fine!)).toBe(5); // (0.16, 0.32]
    const [slow] = points(duration, { 'error.type': 'upstream_timeout' });
    expect(slow).toMatchObject({ count: '1', sum: 30 });
    expect(bucketOf(slow!)).toBe(12); // (20.48, 40.96]
    expect(points(duration, { 'error.type': '429' })).toHaveLength(1);
  });

  it('counts no tokens and no first token for gateway cache hits, and no first token for failures', () => {
    const hit = logEvent({ cache: 'HIT', costUsd: 0, savedUsd: 0.1, ttftMs: 2 });
    const cut = logEvent({
      status: 200,
      errorSource: 'provider',
      errorCode: 'stream_incomplete',
      ttftMs: 90,
    });
    const streamed = logEvent({ ttftMs: 120, stream: true, streamCompleted: true });
    const metrics = metricsOf([hit, cut, streamed]);
    const usage = metrics.find((m) => m.name === 'gen_ai.client.token.usage');
    expect(points(usage, { 'gen_ai.token.type': 'input' })[0]?.count).toBe('2');
    const ttft = metrics.find((m) => m.name === 'gen_ai.server.time_to_first_token');
    expect(points(ttft)).toHaveLength(1);
    expect(points(ttft)[0]).toMatchObject({ count: '1', sum: 0.12 });
    expect(points(metrics.find((m) => m.name === 'gen_ai.client.operation.duration')).length).toBe(2);
  });

  it('leaves MCP calls out, and has nothing to send for a batch of MCP calls only', () => {
    const mcp = logEvent({ endpoint: '/mcp', provider: 'mcp:docs', model: 'docs__search' });
    expect(metricsRequest([mcp], 'edgeway', SCOPE, NOW)).toBeNull();
    const duration = metric([mcp, logEvent()], 'gen_ai.client.operation.duration');
    expect(points(duration).reduce((n, p) => n + Number(p.count), 0)).toBe(1);
  });
});

describe('metrics export', () => {
  const config = {
    tracesUrl: 'http://c.test/v1/traces',
    metricsUrl: 'http://c.test/v1/metrics',
    headers: { 'x-api-key': 'k' },
    serviceName: 'edgeway',
  };

  function collector(statuses: number[]) {
    const calls: Request[] = [];
    const ports = {
      fetch: async (request: Request) => {
        calls.push(request);
        return new Response('{}', { status: statuses[Math.min(calls.length - 1, statuses.length - 1)] });
      },
      sleep: async () => {},
    };
    return { calls, ports };
  }

  it('POSTs one OTLP/JSON request to the metrics URL with the configured headers, retried after a 503', async () => {
    const c = collector([503, 200]);
    const outcome = await exportMetrics([logEvent(), logEvent()], config, c.ports, NOW);
    expect(outcome).toEqual({ ok: true, attempts: 2, points: 3 });
    expect(c.calls.map((r) => r.url)).toEqual([config.metricsUrl, config.metricsUrl]);
    const [sent] = c.calls;
    expect(sent!.method).toBe('POST');
    expect(sent!.headers.get('content-type')).toBe('application/json');
    expect(sent!.headers.get('x-api-key')).toBe('k');
    const body = (await sent!.json()) as { resourceMetrics: unknown[] };
    expect(body.resourceMetrics).toHaveLength(1);
  });

  it('sends nothing when metrics are off or the batch holds no model request', async () => {
    const c = collector([200]);
    expect(await exportMetrics([logEvent()], { ...config, metricsUrl: null }, c.ports, NOW)).toEqual({
      ok: true,
      points: 0,
      attempts: 0,
    });
    expect(await exportMetrics([], config, c.ports, NOW)).toMatchObject({ points: 0, attempts: 0 });
    expect(c.calls).toHaveLength(0);
  });
});
