/** The OpenTelemetry export's pure parts: settings, traceparent, span ids, the span itself, and the retries. */
import { describe, expect, it } from 'vitest';
import { parseConfig, parseHeaders } from '../../../../src/logs/otel/config';
import {
  EXPORT_ATTEMPTS,
  exportSpans,
  MAX_RETRY_AFTER_MS,
  retryAfterMs,
} from '../../../../src/logs/otel/export';
import { spanIds } from '../../../../src/logs/otel/ids';
import { operationName } from '../../../../src/logs/otel/gen-ai';
import { STATUS_ERROR, toSpan } from '../../../../src/logs/otel/span';
import { parseTraceParent } from '../../../../src/logs/otel/traceparent';
import { logEvent } from '../../log-fixtures';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

type Attr = { key: string; value: Record<string, unknown> };
const attrs = (span: { attributes: readonly Attr[] }) =>
  Object.fromEntries(span.attributes.map((a) => [a.key, Object.values(a.value)[0]]));

describe('OpenTelemetry settings', () => {
  it('appends /v1/traces and /v1/metrics to the base endpoint and uses a signal endpoint as it is', () => {
    expect(parseConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example:4318/' })).toMatchObject({
      tracesUrl: 'https://otel.example:4318/v1/traces',
      metricsUrl: 'https://otel.example:4318/v1/metrics',
    });
    expect(
      parseConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'https://base.example',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://otel.example/custom/path',
      }),
    ).toMatchObject({
      tracesUrl: 'https://otel.example/custom/path',
      metricsUrl: 'https://base.example/v1/metrics',
    });
    // A signal endpoint alone exports that signal alone.
    expect(parseConfig({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'https://m.example/ingest' })).toMatchObject({
      tracesUrl: null,
      metricsUrl: 'https://m.example/ingest',
    });
  });

  it('turns a signal off with OTEL_TRACES_EXPORTER or OTEL_METRICS_EXPORTER = none', () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c.test' };
    expect(parseConfig({ ...base, OTEL_METRICS_EXPORTER: 'none' })).toMatchObject({
      tracesUrl: 'http://c.test/v1/traces',
      metricsUrl: null,
    });
    expect(parseConfig({ ...base, OTEL_TRACES_EXPORTER: ' None ' })).toMatchObject({
      tracesUrl: null,
      metricsUrl: 'http://c.test/v1/metrics',
    });
    expect(parseConfig({ ...base, OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' })).toBeNull();
  });

  it('is off without an endpoint or with one that is not an http(s) URL', () => {
    expect(parseConfig({})).toBeNull();
    expect(parseConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeNull();
    expect(parseConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' })).toBeNull();
    expect(parseConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://otel.example' })).toBeNull();
  });

  it('names the service edgeway unless OTEL_SERVICE_NAME says otherwise', () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c.test' };
    expect(parseConfig(base)?.serviceName).toBe('edgeway');
    expect(parseConfig({ ...base, OTEL_SERVICE_NAME: 'gw-eu' })?.serviceName).toBe('gw-eu');
  });

  it('reads k=v,k2=v2 headers, percent-decoding values and skipping malformed entries', () => {
    expect(
      parseHeaders(
        ' Authorization = Basic%20abc%3D ,x-team=ops,novalue,=nokey,bad name=1,x-bad=%E0%A4%A,content-type=text/plain',
      ),
    ).toEqual({ authorization: 'Basic abc=', 'x-team': 'ops' });
    expect(parseHeaders('x-crlf=a%0D%0Ab')).toEqual({});
  });
});

describe('traceparent', () => {
  it('reads the trace and parent span of a version 00 header', () => {
    expect(parseTraceParent(`00-${TRACE}-${PARENT}-01`)).toEqual({ traceId: TRACE, parentSpanId: PARENT });
  });

  it('accepts later versions with extra fields', () => {
    expect(parseTraceParent(`01-${TRACE}-${PARENT}-00-extra`)).toEqual({
      traceId: TRACE,
      parentSpanId: PARENT,
    });
  });

  it.each([
    ['absent', null],
    ['upper case', `00-${TRACE.toUpperCase()}-${PARENT}-01`],
    ['all-zero trace', `00-${'0'.repeat(32)}-${PARENT}-01`],
    ['all-zero parent', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['version ff', `ff-${TRACE}-${PARENT}-01`],
    ['version 00 with extra fields', `00-${TRACE}-${PARENT}-01-x`],
    ['short trace id', `00-${TRACE.slice(1)}-${PARENT}-01`],
    ['garbage', 'hello'],
  ])('ignores a header that is %s', (_, header) => {
    expect(parseTraceParent(header)).toBeNull();
  });
});

describe('span ids', () => {
  it('are stable for a request id, so a redelivered event is the same span', () => {
    const e = { requestId: 'req-abc', traceId: null, parentSpanId: null };
    expect(spanIds(e)).toEqual(spanIds({ ...e }));
    expect(spanIds(e).spanId).not.toBe(spanIds({ ...e, requestId: 'req-abd' }).spanId);
    expect(spanIds(e).traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(spanIds(e).spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(spanIds(e).parentSpanId).toBe('');
  });

  it("use a UUID request id as the trace id, and the caller's trace when one came in", () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(spanIds({ requestId: id }).traceId).toBe('0f8fad5bd9cb469fa16570867728950e');
    expect(spanIds({ requestId: id, traceId: TRACE, parentSpanId: PARENT })).toMatchObject({
      traceId: TRACE,
      parentSpanId: PARENT,
    });
  });
});

describe('a log event as a span', () => {
  it('carries the GenAI and edgeway attributes, with times in nanoseconds as strings', () => {
    const event = logEvent({
      provider: 'anthropic',
      model: 'anthropic/claude-x',
      time: 1_700_000_000_123,
      latencyMs: 250.5,
      inputTokens: 12,
      outputTokens: 7,
      cachedTokens: 3,
      costUsd: 1,
      attempts: 2,
      route: null,
      cache: 'MISS',
      tries: [
        { target: 'anthropic/claude-y', status: 503, ttfbMs: 10, error: 'server_error' },
        { target: 'anthropic/claude-x', status: 200, ttfbMs: 40.4, error: null },
      ],
      guardrails: [
        {
          guardrail: 'pii',
          direction: 'request',
          action: 'redact',
          count: 2,
          kinds: { email: 2 },
          score: null,
          error: null,
        },
        {
          guardrail: 'injection',
          direction: 'tool',
          action: 'quarantine',
          count: 1,
          kinds: { tool_result: 1 },
          score: 0.9731,
          error: null,
          results: [{ index: 1, id: 'call_a', score: 0.9731 }],
        },
      ],
      metadata: { user: 'u-1', team: 'search' },
      endUser: 'u-1',
      tags: { team: 'search' },
    });
    const span = toSpan(event);
    expect(span.name).toBe('chat claude-x');
    expect(span.kind).toBe(2);
    expect(span.startTimeUnixNano).toBe('1700000000123000000');
    expect(span.endTimeUnixNano).toBe('1700000000373500000');
    expect(span.status.code).toBe(0);
    const a = attrs(span);
    expect(a).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.system': 'anthropic',
      'gen_ai.request.model': 'claude-x',
      'gen_ai.response.model': 'claude-x',
      'gen_ai.usage.input_tokens': '12',
      'gen_ai.usage.output_tokens': '7',
      'gen_ai.usage.cache_read.input_tokens': '3',
      'http.response.status_code': '200',
      'edgeway.request_id': event.requestId,
      'edgeway.tenant_id': 'ten_a',
      'edgeway.key_id': 'key_a',
      'edgeway.cache': 'MISS',
      'edgeway.attempts': '2',
      'edgeway.cost_usd': 1,
      'edgeway.metadata.user': 'u-1',
      'edgeway.end_user': 'u-1',
      'edgeway.tag.team': 'search',
    });
    expect(span.attributes.find((x) => x.key === 'edgeway.cost_usd')?.value).toEqual({ doubleValue: 1 });
    expect(a['edgeway.tries']).toEqual({
      values: [
        { stringValue: 'anthropic/claude-y 503 10ms server_error' },
        { stringValue: 'anthropic/claude-x 200 40ms' },
      ],
    });
    expect(a['edgeway.guardrails']).toEqual({
      values: [
        { stringValue: 'pii request redact 2 email=2' },
        { stringValue: 'injection tool quarantine 1 tool_result=1 score=0.9731 results=call_a#1:0.9731' },
      ],
    });
    expect(a).not.toHaveProperty('error.type');
    expect(a).not.toHaveProperty('edgeway.route');
    expect(a).not.toHaveProperty('edgeway.payload.request');
    const anonymous = attrs(toSpan(logEvent({})));
    expect(anonymous).not.toHaveProperty('edgeway.end_user');
    expect(Object.keys(anonymous).filter((k) => k.startsWith('edgeway.tag.'))).toEqual([]);
  });

  it('describes an MCP tool call by the MCP conventions: execute_tool, the tool as called, no model attributes', () => {
    const mcp = {
      method: 'tools/call' as const,
      server: 'mcp_1',
      namespace: 'github',
      name: 'search_issues',
      argsBytes: 42,
      resultBytes: 1234,
      isError: false,
    };
    const event = logEvent({
      endpoint: '/mcp',
      provider: 'mcp:github',
      model: 'github__search_issues',
      cache: null,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      endUser: 'u-1',
      mcp,
    });
    const span = toSpan(event);
    expect(span.name).toBe('tools/call github__search_issues');
    expect(span.status.code).toBe(0);
    const a = attrs(span);
    expect(a).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'github__search_issues',
      'edgeway.mcp.server': 'mcp_1',
      'edgeway.mcp.namespace': 'github',
      'edgeway.mcp.name': 'search_issues',
      'edgeway.mcp.args_bytes': '42',
      'edgeway.mcp.result_bytes': '1234',
      'edgeway.mcp.is_error': false,
      'http.response.status_code': '200',
      'url.path': '/mcp',
      'edgeway.end_user': 'u-1',
    });
    for (const key of [
      'gen_ai.provider.name',
      'gen_ai.system',
      'gen_ai.request.model',
      'gen_ai.usage.input_tokens',
      'gen_ai.prompt.name',
      'mcp.resource.uri',
      'error.type',
    ])
      expect(a, key).not.toHaveProperty(key);

    // A tool that ran and reported a failure: error.type tool_error, and the span is an error.
    const failed = toSpan(logEvent({ ...event, mcp: { ...mcp, isError: true } }));
    expect(attrs(failed)['error.type']).toBe('tool_error');
    expect(failed.status).toEqual({ code: STATUS_ERROR, message: 'tool_error' });
    // A call the gateway refused keeps its own code, and is not an error of the span (a 4xx).
    const refused = toSpan(
      logEvent({ ...event, status: 403, errorSource: 'gateway', errorCode: 'tool_not_permitted' }),
    );
    expect(attrs(refused)['error.type']).toBe('tool_not_permitted');
    expect(refused.status.code).toBe(0);
    // An upstream that timed out is.
    const timeout = toSpan(
      logEvent({ ...event, status: 504, errorSource: 'provider', errorCode: 'upstream_timeout' }),
    );
    expect(timeout.status).toEqual({ code: STATUS_ERROR, message: 'upstream_timeout' });
  });

  it('names prompts and resources by their own MCP attributes, never a resource URI in the span name', () => {
    const base = { endpoint: '/mcp', provider: 'mcp:docs', cache: null } as const;
    const prompt = toSpan(
      logEvent({
        ...base,
        model: 'docs__review',
        mcp: {
          method: 'prompts/get',
          server: 's',
          namespace: 'docs',
          name: 'review',
          argsBytes: 2,
          resultBytes: 9,
          isError: false,
        },
      }),
    );
    expect(prompt.name).toBe('prompts/get docs__review');
    expect(attrs(prompt)).toMatchObject({
      'mcp.method.name': 'prompts/get',
      'gen_ai.prompt.name': 'docs__review',
    });
    expect(attrs(prompt)).not.toHaveProperty('gen_ai.operation.name');
    expect(attrs(prompt)).not.toHaveProperty('gen_ai.tool.name');
    const uri = 'file:///srv/a.md';
    const resource = toSpan(
      logEvent({
        ...base,
        model: `docs+${uri}`,
        mcp: {
          method: 'resources/read',
          server: 's',
          namespace: 'docs',
          name: uri,
          argsBytes: 0,
          resultBytes: 9,
          isError: false,
        },
      }),
    );
    expect(resource.name).toBe('resources/read');
    expect(attrs(resource)).toMatchObject({ 'mcp.method.name': 'resources/read', 'mcp.resource.uri': uri });
    // A call refused before its server was known carries no mcp field: named by its model, still not a model span.
    const unknown = toSpan(
      logEvent({ ...base, model: 'nope__x', status: 403, errorCode: 'tool_not_permitted' }),
    );
    expect(unknown.name).toBe('nope__x');
    expect(attrs(unknown)).not.toHaveProperty('gen_ai.request.model');
  });

  it('carries cache writes and reasoning tokens when there are any, and leaves them out when there are none', () => {
    const a = attrs(
      toSpan(logEvent({ inputTokens: 900, outputTokens: 60, cacheWriteTokens: 800, reasoningTokens: 40 })),
    );
    expect(a).toMatchObject({
      'gen_ai.usage.cache_creation.input_tokens': '800',
      'gen_ai.usage.reasoning.output_tokens': '40',
    });
    const none = attrs(toSpan(logEvent({})));
    expect(none).not.toHaveProperty('gen_ai.usage.cache_creation.input_tokens');
    expect(none).not.toHaveProperty('gen_ai.usage.reasoning.output_tokens');
  });

  it('marks a 5xx and a provider failure as errors, and a gateway refusal only with error.type', () => {
    const failed = toSpan(logEvent({ status: 502, errorSource: 'provider', errorCode: 'upstream_timeout' }));
    expect(failed.status).toEqual({ code: STATUS_ERROR, message: 'upstream_timeout' });
    expect(attrs(failed)['error.type']).toBe('upstream_timeout');
    const cut = toSpan(logEvent({ status: 200, errorSource: 'provider', errorCode: 'stream_incomplete' }));
    expect(cut.status.code).toBe(STATUS_ERROR);
    const refused = toSpan(logEvent({ status: 429, errorSource: 'gateway', errorCode: 'rate_limited' }));
    expect(refused.status.code).toBe(0);
    expect(attrs(refused)['error.type']).toBe('rate_limited');
  });

  it('holds payload text only when the event has it (the key logs payloads)', () => {
    const span = toSpan(logEvent({ payload: { request: '{"q":1}', response: 'hi', truncated: false } }));
    expect(attrs(span)).toMatchObject({
      'edgeway.payload.request': '{"q":1}',
      'edgeway.payload.response': 'hi',
      'edgeway.payload.truncated': false,
    });
  });

  it('names operations by endpoint', () => {
    expect(operationName('/v1/chat/completions')).toBe('chat');
    expect(operationName('/v1/messages')).toBe('chat');
    expect(operationName('/v1/embeddings')).toBe('embeddings');
    expect(operationName('/v1/completions')).toBe('text_completion');
    expect(operationName('/v1beta/models/g:generateContent')).toBe('generate_content');
  });
});

describe('export retries', () => {
  const config = {
    tracesUrl: 'http://c.test/v1/traces',
    metricsUrl: null,
    headers: { 'x-api-key': 'k' },
    serviceName: 'edgeway',
  };

  function collector(statuses: (number | Error)[], retryAfter?: string) {
    const calls: Request[] = [];
    const sleeps: number[] = [];
    const ports = {
      fetch: async (request: Request) => {
        calls.push(request);
        const next = statuses[Math.min(calls.length - 1, statuses.length - 1)]!;
        if (next instanceof Error) throw next;
        return new Response('{}', {
          status: next,
          headers: retryAfter ? { 'retry-after': retryAfter } : {},
        });
      },
      sleep: async (ms: number) => void sleeps.push(ms),
    };
    return { calls, sleeps, ports };
  }

  it('retries a 503 and a network failure, then succeeds', async () => {
    const c = collector([503, new TypeError('fetch failed'), 200]);
    const outcome = await exportSpans([logEvent()], config, c.ports);
    expect(outcome).toEqual({ ok: true, spans: 1, attempts: 3 });
    expect(c.sleeps).toEqual([500, 1000]);
  });

  it('waits what Retry-After says, capped', async () => {
    const c = collector([429, 200], '3');
    await exportSpans([logEvent()], config, c.ports);
    expect(c.sleeps).toEqual([3000]);
    expect(retryAfterMs('3600')).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT')).toBeNull();
  });

  it('gives up after EXPORT_ATTEMPTS, and at once on a refusal that retrying cannot fix', async () => {
    const down = collector([503]);
    expect(await exportSpans([logEvent()], config, down.ports)).toMatchObject({
      ok: false,
      attempts: EXPORT_ATTEMPTS,
      reason: 'HTTP 503',
    });
    expect(down.calls).toHaveLength(EXPORT_ATTEMPTS);
    const refused = collector([400]);
    expect(await exportSpans([logEvent()], config, refused.ports)).toMatchObject({ ok: false, attempts: 1 });
    expect(refused.calls).toHaveLength(1);
  });

  it('sends nothing for no events', async () => {
    const c = collector([200]);
    expect(await exportSpans([], config, c.ports)).toEqual({ ok: true, spans: 0, attempts: 0 });
    expect(c.calls).toHaveLength(0);
  });
});
