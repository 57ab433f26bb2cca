/**
 * What LogStore.write puts in D1 is the row it was given, column for column:
 * rows travel to SQLite as positional JSON arrays, so a column read from the
 * wrong position, or a value whose JSON type SQLite would change, shows here.
 * Real D1 (and R2 for the rollups-only write).
 */
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { LOG_COLUMNS, type LogRow } from '../../../src/logs/rows';
import { LogStore } from '../../../src/logs/store';
import { clearLogs, usageRows } from '../log-fixtures';

beforeEach(clearLogs);

/** Every column set, each to a value that tells it apart from its neighbours. */
function fullRow(id: string, over: Partial<LogRow> = {}): LogRow {
  return {
    id,
    time: 1_795_000_000_123,
    day: '2026-11-23',
    tenant_id: 'ten_"quoted"',
    key_id: 'key_ünïcode_✓',
    endpoint: '/v1/chat/completions',
    provider: 'anthropic',
    model: 'claude-x',
    status: 502,
    error_source: 'provider',
    error_code: 'upstream_error',
    cache: 'MISS',
    stream: 1,
    stream_completed: 0,
    input_tokens: 1234,
    output_tokens: 567,
    cached_tokens: 89,
    cost_usd: 0.000123456789,
    saved_usd: 0.5,
    latency_ms: 21.75,
    ttft_ms: 3.5,
    attempts: 2,
    metadata: '{"team":"a,b","n":[1,2]}',
    request_payload: '{"messages":[{"role":"user","content":"line\\nbreak \\u2028"}]}',
    response_payload: 'not json at all, with "quotes" and \\ backslashes',
    payload_truncated: 1,
    route: 'main-route',
    tries: '[{"target":"a","status":500,"ttfb_ms":3,"error":null}]',
    guardrails: '[{"guardrail":"pii","action":"redact","count":2}]',
    archive_key: null,
    payload_archived: 0,
    cache_write_tokens: 45,
    cache_write_1h_tokens: 12,
    reasoning_tokens: 321,
    end_user: 'user_"ü"',
    tags: '{"team":"search","tier":"a,b"}',
    mcp: '{"method":"tools/call","server":"srv_\\"1\\"","namespace":"gh","name":"ü","args_bytes":1,"result_bytes":2,"is_error":false}',
    ...over,
  };
}

describe('LogStore.write', () => {
  it('stores every column of a row as given, nulls and numbers included', async () => {
    const full = fullRow('req-full');
    const sparse = fullRow('req-sparse', {
      tenant_id: null,
      key_id: null,
      error_source: null,
      error_code: null,
      cache: null,
      stream: 0,
      stream_completed: null,
      cost_usd: 0,
      ttft_ms: null,
      metadata: null,
      request_payload: null,
      response_payload: null,
      payload_truncated: 0,
      route: null,
      tries: null,
      guardrails: null,
      end_user: null,
      tags: null,
      mcp: null,
    });
    const { inserted } = await new LogStore(env.DB).write([full, sparse], [], 1_795_000_001_000);
    expect(inserted).toBe(2);
    for (const row of [full, sparse]) {
      const stored = await env.DB.prepare('SELECT * FROM request_logs WHERE id = ?')
        .bind(row.id)
        .first<Record<string, unknown>>();
      expect(stored).not.toBeNull();
      for (const column of LOG_COLUMNS)
        expect({ column, value: stored?.[column] }).toEqual({ column, value: row[column] });
      expect(stored?.ingested_at).toBe(1_795_000_001_000);
    }
    const usage = (await usageRows()).find((u) => u.tenant_id === full.tenant_id);
    expect(usage).toMatchObject({
      key_id: full.key_id,
      model: full.model,
      requests: 1,
      input_tokens: 1234,
      output_tokens: 567,
      cached_tokens: 89,
      errors: 1,
    });
  });

  it('counts each row once in the rollups when only rollups are kept, redelivery included', async () => {
    const store = new LogStore(env.DB, env.LOG_ARCHIVE, { index: false });
    const archive_key = 'logs/2026-11-23/test-isolate/1.ndjson.gz';
    const rows = [
      fullRow('req-a', { status: 200, error_source: null, error_code: null, archive_key }),
      fullRow('req-b', { archive_key }),
    ];
    expect((await store.write(rows, [], 1_795_000_002_000)).inserted).toBe(2);
    expect((await store.write(rows, [], 1_795_000_003_000)).inserted).toBe(0);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM request_logs').first('n')).toBe(0);
    const usage = await usageRows();
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({
      tenant_id: 'ten_"quoted"',
      key_id: 'key_ünïcode_✓',
      model: 'claude-x',
      requests: 2,
      input_tokens: 2468,
      output_tokens: 1134,
      errors: 1,
    });
    expect(usage[0]?.cost_usd).toBeCloseTo(0.000246913578, 12);
    const guardrail = await env.DB.prepare('SELECT fired, redacted FROM guardrail_daily').first();
    expect(guardrail).toEqual({ fired: 2, redacted: 4 });
  });

  it('rolls MCP calls up per server and tool, apart from the model usage, once each, in both write modes', async () => {
    const mcp = (method: string, name: string, args: number, result: number, isError: boolean) =>
      JSON.stringify({
        method,
        server: 'srv_1',
        namespace: 'gh',
        name,
        args_bytes: args,
        result_bytes: result,
        is_error: isError,
      });
    const call = (id: string, over: Partial<LogRow>) =>
      fullRow(id, {
        endpoint: '/mcp',
        provider: 'mcp:gh',
        model: 'gh__search',
        status: 200,
        error_source: null,
        error_code: null,
        cache: null,
        input_tokens: 0,
        output_tokens: 0,
        cached_tokens: 0,
        cost_usd: 0,
        saved_usd: 0,
        latency_ms: 10,
        mcp: mcp('tools/call', 'search', 40, 400, false),
        ...over,
      });
    const rows = (prefix: string, archive_key: string | null) => [
      call(`${prefix}-1`, { archive_key }),
      call(`${prefix}-2`, { archive_key, latency_ms: 30, mcp: mcp('tools/call', 'search', 60, 600, true) }),
      call(`${prefix}-3`, {
        archive_key,
        status: 504,
        error_source: 'provider',
        error_code: 'upstream_timeout',
        mcp: mcp('tools/call', 'search', 5, 0, false),
      }),
      // Resources count per server (URIs are unbounded), whatever their model.
      call(`${prefix}-4`, {
        archive_key,
        model: 'gh+file:///a',
        mcp: mcp('resources/read', 'file:///a', 0, 7, false),
      }),
      call(`${prefix}-5`, {
        archive_key,
        model: 'gh+file:///b',
        mcp: mcp('resources/read', 'file:///b', 0, 8, false),
      }),
      // Refused before its server was known: no mcp field, the namespace from its provider.
      call(`${prefix}-6`, {
        archive_key,
        provider: 'mcp:other',
        model: 'other__x',
        status: 403,
        error_source: 'gateway',
        error_code: 'tool_not_permitted',
        mcp: null,
      }),
      // A model request in the same write still counts in usage_daily alone.
      fullRow(`${prefix}-model`, { archive_key }),
    ];
    const archive_key = 'logs/2026-11-23/test-isolate/2.ndjson.gz';
    const indexed = new LogStore(env.DB);
    const rollupsOnly = new LogStore(env.DB, env.LOG_ARCHIVE, { index: false });
    expect((await indexed.write(rows('i', null), [], 1_795_000_002_000)).inserted).toBe(7);
    expect((await indexed.write(rows('i', null), [], 1_795_000_003_000)).inserted).toBe(0);
    expect((await rollupsOnly.write(rows('r', archive_key), [], 1_795_000_004_000)).inserted).toBe(7);
    expect((await rollupsOnly.write(rows('r', archive_key), [], 1_795_000_005_000)).inserted).toBe(0);
    const { results } = await env.DB.prepare(
      'SELECT server, method, tool, calls, errors, tool_errors, args_bytes, result_bytes, latency_ms FROM usage_mcp_daily ORDER BY server, method, tool',
    ).all();
    // Two writes of each kind: every figure is twice one write's.
    expect(results).toEqual([
      {
        server: 'gh',
        method: 'resources/read',
        tool: '',
        calls: 4,
        errors: 0,
        tool_errors: 0,
        args_bytes: 0,
        result_bytes: 30,
        latency_ms: 40,
      },
      {
        server: 'gh',
        method: 'tools/call',
        tool: 'gh__search',
        calls: 6,
        errors: 2,
        tool_errors: 2,
        args_bytes: 210,
        result_bytes: 2000,
        latency_ms: 100,
      },
      {
        server: 'other',
        method: '',
        tool: 'other__x',
        calls: 2,
        errors: 2,
        tool_errors: 0,
        args_bytes: 0,
        result_bytes: 0,
        latency_ms: 20,
      },
    ]);
    const usage = await usageRows();
    expect(usage.map((u) => [u.model, u.requests])).toEqual([['claude-x', 2]]);
  });
});
