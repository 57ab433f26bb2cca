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
    mcp: null,
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
});
