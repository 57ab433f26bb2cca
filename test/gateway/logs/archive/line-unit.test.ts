/** The archive line (pure): built by hand, it reads back exactly as the schema reads the same row. */
import { describe, expect, it } from 'vitest';
import { archiveLine } from '../../../../src/logs/archive/line';
import { detailOfRow } from '../../../../src/logs/read/logs';
import { toRow } from '../../../../src/logs/rows';
import { logEvent } from '../../log-fixtures';

const rows = [
  toRow(logEvent()),
  toRow(
    logEvent({
      tenantId: null,
      keyId: null,
      provider: null,
      model: null,
      status: 401,
      errorSource: 'gateway',
      errorCode: 'invalid_api_key',
      cache: null,
      ttftMs: null,
    }),
  ),
  toRow(
    logEvent({
      stream: true,
      streamCompleted: false,
      metadata: { team: 'a "quoted" team', n: 3, ok: true },
      endUser: 'user "ü" \n 1',
      tags: { team: 'a "quoted" team' },
      payload: { request: '{"q":"é\\n\\u2028"}', response: 'line 1\nline "2"', truncated: true },
      route: 'fast',
      tries: [
        { target: 'openai/gpt-4o', status: 503, ttfbMs: 12.5, error: 'upstream_error' },
        { target: 'mock/echo', status: 200, ttfbMs: 3, error: null },
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
          count: 2,
          kinds: { tool_result: 2 },
          score: 0.9731,
          error: null,
          results: [
            { index: 0, id: 'call_"a"', score: 0.9731 },
            { index: 2, id: null, score: 0.8812 },
          ],
        },
      ],
      costUsd: 1e-7,
      savedUsd: 0.125,
    }),
  ),
  toRow(
    logEvent({
      endpoint: '/mcp',
      provider: 'mcp:github',
      model: 'github__search_issues',
      cache: null,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      mcp: {
        method: 'tools/call',
        server: 'mcp_1',
        namespace: 'github',
        name: 'search "issues" ü',
        argsBytes: 42,
        resultBytes: 1234,
        isError: true,
      },
    }),
  ),
];

describe('archiveLine', () => {
  it.each(rows.map((r, i) => [i, r] as const))('row %i reads back as detailOfRow reads it', (_, row) => {
    const line = archiveLine(row);
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toEqual(detailOfRow(row));
  });

  it('carries an MCP call as the admin API shows it, and null for a model request', () => {
    expect(JSON.parse(archiveLine(rows[3]!)).mcp).toEqual({
      method: 'tools/call',
      server: 'mcp_1',
      namespace: 'github',
      name: 'search "issues" ü',
      args_bytes: 42,
      result_bytes: 1234,
      is_error: true,
    });
    expect(JSON.parse(archiveLine(rows[0]!)).mcp).toBeNull();
  });

  it('puts id first and time second (the export filters on the first "time")', () => {
    expect(archiveLine(rows[0]!)).toMatch(/^\{"id":"[^"]+","time":\d+,/);
  });
});
