/** normaliseEvent: whatever the exit built, the event validates and fits one queue message. */
import { describe, expect, it } from 'vitest';
import {
  LOG_FIELD_MAX,
  LOG_MAX_GUARDRAILS,
  LOG_MAX_TOOL_RESULTS,
  LOG_MAX_TRIES,
  type LogGuardrail,
  LogEvent,
  type LogMcp,
  type LogTry,
  TRUNCATED_MARK,
} from '../../../../src/core/log-event';
import { cut, jsonBytes, MAX_EVENT_BYTES, normaliseEvent } from '../../../../src/logs/produce/normalise';
import { logEvent } from '../../log-fixtures';

const NOW = Date.UTC(2026, 4, 1);

/** An MCP call whose every text is far past its cap, in 6-byte JSON escapes, and whose sizes are not counts. */
function hostileMcp(): LogMcp {
  const esc = (n: number) => '\u0001'.repeat(n);
  return {
    method: 'resources/read',
    server: esc(10_000),
    namespace: esc(10_000),
    name: esc(100_000),
    argsBytes: Number.POSITIVE_INFINITY,
    resultBytes: -3.5,
    isError: true,
  };
}

/** What the consumer sees: the event after JSON (Infinity → null), validated. */
function overTheWire(e: LogEvent) {
  return LogEvent.safeParse(JSON.parse(JSON.stringify(e)));
}

describe('normaliseEvent', () => {
  it('keeps a non-finite metadata number as its text, which JSON would have made null', () => {
    const raw = logEvent({
      metadata: { a: Number.POSITIVE_INFINITY, b: Number.NEGATIVE_INFINITY, c: Number.NaN, d: 7 },
    });
    expect(overTheWire(raw).success).toBe(false);
    const e = normaliseEvent(raw, NOW);
    expect(e.metadata).toEqual({ a: 'Infinity', b: '-Infinity', c: 'NaN', d: 7 });
    expect(overTheWire(e).success).toBe(true);
  });

  it('makes counts non-negative safe integers and amounts finite', () => {
    const e = normaliseEvent(
      logEvent({
        inputTokens: Number.POSITIVE_INFINITY,
        outputTokens: -5,
        cachedTokens: 2.6,
        attempts: Number.NaN,
        costUsd: Number.POSITIVE_INFINITY,
        savedUsd: -1,
        latencyMs: Number.NaN,
        ttftMs: Number.POSITIVE_INFINITY,
        time: Number.NaN,
        status: 200.5,
      }),
      NOW,
    );
    expect(e).toMatchObject({
      inputTokens: Number.MAX_SAFE_INTEGER,
      outputTokens: 0,
      cachedTokens: 3,
      attempts: 0,
      costUsd: 0,
      savedUsd: 0,
      latencyMs: 0,
      ttftMs: null,
      time: NOW,
      status: 200,
    });
    expect(overTheWire(e).success).toBe(true);
  });

  it('cuts a 200,000-character model id (and every other long text) with a marker', () => {
    const long = 'm'.repeat(200_000);
    const e = normaliseEvent(
      logEvent({ model: long, provider: long, endpoint: long, errorCode: long, tenantId: long, keyId: long }),
      NOW,
    );
    expect(e.model).toHaveLength(LOG_FIELD_MAX.model);
    expect(e.model!.endsWith(TRUNCATED_MARK)).toBe(true);
    expect(e.model!.startsWith('mmm')).toBe(true);
    expect(e.errorCode).toHaveLength(LOG_FIELD_MAX.errorCode);
    expect(overTheWire(e).success).toBe(true);
    expect(jsonBytes(e)).toBeLessThanOrEqual(MAX_EVENT_BYTES);
  });

  it('leaves an ordinary event as it was', () => {
    const raw = logEvent({ metadata: { user: 'u-1', n: 3, ok: true } });
    expect(normaliseEvent(raw, NOW)).toEqual(raw);
    const routed = logEvent({
      route: 'smart',
      tries: [
        { target: 'openai/gpt-4o', status: 429, ttfbMs: 12.5, error: 'rate_limit_error' },
        { target: 'anthropic/claude-sonnet-4', status: 200, ttfbMs: 300, error: null },
      ],
    });
    expect(normaliseEvent(routed, NOW)).toEqual(routed);
  });

  it('fits each try to its limits and keeps at most LOG_MAX_TRIES, never dropping the event', () => {
    const long = 't'.repeat(5_000);
    const hostile: LogTry = {
      target: long,
      status: Number.NaN,
      ttfbMs: Number.POSITIVE_INFINITY,
      error: long,
    };
    const tries = Array.from({ length: 30 }, (_, i) => (i === 0 ? hostile : { ...hostile, status: 500 + i }));
    const e = normaliseEvent(logEvent({ route: 'r'.repeat(500), tries }), NOW);
    expect(e.route).toHaveLength(LOG_FIELD_MAX.route);
    expect(e.tries).toHaveLength(LOG_MAX_TRIES);
    expect(e.tries[0]).toEqual({
      target: cut(long, LOG_FIELD_MAX.model),
      status: 0,
      ttfbMs: 0,
      error: cut(long, LOG_FIELD_MAX.errorCode),
    });
    expect(e.tries.map((t) => t.status).slice(1, 3)).toEqual([501, 502]);
    expect(overTheWire(e).success).toBe(true);
  });

  it('bounds the tool results a verdict lists: one list, at most LOG_MAX_TOOL_RESULTS, ids cut', () => {
    const hostileId = '\u0001'.repeat(5_000);
    const tool: LogGuardrail = {
      guardrail: 'injection',
      direction: 'tool',
      action: 'quarantine',
      count: 100,
      kinds: { tool_result: 100 },
      score: 0.99,
      error: null,
      results: Array.from({ length: 100 }, (_, i) => ({
        index: i,
        id: i === 1 ? null : hostileId,
        score: 0.99,
      })),
    };
    const e = normaliseEvent(logEvent({ guardrails: Array.from({ length: 12 }, () => tool) }), NOW);
    expect(e.guardrails).toHaveLength(LOG_MAX_GUARDRAILS);
    const [first, ...rest] = e.guardrails;
    expect(first!.results).toHaveLength(LOG_MAX_TOOL_RESULTS);
    expect(first!.results![0]!.id).toBe(cut(hostileId, LOG_FIELD_MAX.toolCallId));
    expect(first!.results![1]!.id).toBeNull();
    expect(first!.count).toBe(100);
    expect(rest.every((g) => g.results === undefined)).toBe(true);
    expect(jsonBytes(e)).toBeLessThanOrEqual(MAX_EVENT_BYTES);
    expect(overTheWire(e).success).toBe(true);
  });

  it("cuts an MCP call's server, namespace and name like text fields and makes its sizes counts", () => {
    const long = 'x'.repeat(5_000);
    const e = normaliseEvent(
      logEvent({
        endpoint: '/mcp',
        mcp: {
          method: 'tools/call',
          server: long,
          namespace: long,
          name: long,
          argsBytes: 12.6,
          resultBytes: Number.NaN,
          isError: false,
        },
      }),
      NOW,
    );
    expect(e.mcp).toEqual({
      method: 'tools/call',
      server: cut(long, LOG_FIELD_MAX.mcpServer),
      namespace: cut(long, LOG_FIELD_MAX.mcpNamespace),
      name: cut(long, LOG_FIELD_MAX.mcpName),
      argsBytes: 13,
      resultBytes: 0,
      isError: false,
    });
    expect(overTheWire(e).success).toBe(true);
    expect(normaliseEvent(logEvent(), NOW).mcp).toBeNull();
  });

  it('reads a queued event from before the mcp field as a model request (mcp null)', () => {
    const { mcp: _, ...older } = logEvent();
    expect(LogEvent.parse(JSON.parse(JSON.stringify(older))).mcp).toBeNull();
  });

  it('never cuts inside a surrogate pair', () => {
    const text = `${'a'.repeat(LOG_FIELD_MAX.errorCode - TRUNCATED_MARK.length - 1)}${'😀'.repeat(20)}`;
    const out = cut(text, LOG_FIELD_MAX.errorCode);
    expect(out.endsWith(`a${TRUNCATED_MARK}`)).toBe(true);
    expect(out.length).toBeLessThanOrEqual(LOG_FIELD_MAX.errorCode);
  });

  it('fits the worst case: every text field at its cap in 6-byte JSON escapes, plus a big payload', () => {
    const esc = (n: number) => '\u0001'.repeat(n);
    const metadata = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`${i}${esc(1000)}`, esc(50_000)]),
    );
    const e = normaliseEvent(
      logEvent({
        model: esc(10_000),
        provider: esc(10_000),
        endpoint: esc(10_000),
        errorCode: esc(10_000),
        tenantId: esc(10_000),
        keyId: esc(10_000),
        metadata,
        endUser: esc(10_000),
        tags: Object.fromEntries(Object.keys(metadata).map((k) => [k, esc(50_000)])),
        mcp: hostileMcp(),
        payload: { request: esc(65_536), response: esc(65_536), truncated: false },
      }),
      NOW,
    );
    expect(overTheWire(e).success).toBe(true);
    expect(jsonBytes(e)).toBeLessThanOrEqual(MAX_EVENT_BYTES);
    expect(e.payload?.truncated ?? true).toBe(true);
    expect(e.endUser).toHaveLength(LOG_FIELD_MAX.endUser);
    expect(e.mcp?.name).toHaveLength(LOG_FIELD_MAX.mcpName);
    expect(Object.values(e.tags ?? {}).map((v) => v.length)).toEqual(Array(8).fill(LOG_FIELD_MAX.tagValue));
  });

  it('fits twenty hostile tries next to the worst-case fields by dropping middle tries, first and last kept', () => {
    const esc = (n: number) => '\u0001'.repeat(n);
    const metadata = Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [`${i}${esc(1000)}`, esc(50_000)]),
    );
    const tries = Array.from({ length: LOG_MAX_TRIES }, (_, i) => ({
      target: `${i}${esc(10_000)}`,
      status: 500 + i,
      ttfbMs: i,
      error: esc(10_000),
    }));
    const e = normaliseEvent(
      logEvent({
        model: esc(10_000),
        provider: esc(10_000),
        endpoint: esc(10_000),
        errorCode: esc(10_000),
        tenantId: esc(10_000),
        keyId: esc(10_000),
        route: esc(10_000),
        metadata,
        endUser: esc(10_000),
        tags: Object.fromEntries(Object.keys(metadata).map((k) => [k, esc(50_000)])),
        mcp: hostileMcp(),
        tries,
        payload: { request: esc(65_536), response: esc(65_536), truncated: false },
      }),
      NOW,
    );
    expect(overTheWire(e).success).toBe(true);
    expect(jsonBytes(e)).toBeLessThanOrEqual(MAX_EVENT_BYTES);
    expect(e.payload).toBeNull();
    expect(e.tries.length).toBeGreaterThan(1);
    expect(e.tries.length).toBeLessThan(LOG_MAX_TRIES);
    expect(e.tries[0]?.status).toBe(500);
    expect(e.tries.at(-1)?.status).toBe(500 + LOG_MAX_TRIES - 1);
  });

  it('turns a thousand random hostile events into valid, sendable ones', () => {
    const nasty = [
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      -1,
      -0,
      2 ** 60,
      0.5,
      Number.MAX_VALUE,
    ];
    let seed = 42;
    const rand = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const str = () =>
      (rand() < 0.5 ? 'x' : pick(['\u0001', '😀', '"', 'é'])).repeat(Math.floor(rand() * 3_000));
    for (let i = 0; i < 1_000; i++) {
      const e = normaliseEvent(
        logEvent({
          model: str(),
          errorCode: rand() < 0.5 ? null : str(),
          inputTokens: pick(nasty),
          outputTokens: pick(nasty),
          cachedTokens: pick(nasty),
          costUsd: pick(nasty),
          savedUsd: pick(nasty),
          latencyMs: pick(nasty),
          ttftMs: rand() < 0.3 ? null : pick(nasty),
          attempts: pick(nasty),
          time: rand() < 0.1 ? pick(nasty) : NOW,
          metadata: rand() < 0.2 ? null : { [str()]: pick(nasty), s: str(), b: true },
          route: rand() < 0.5 ? null : str(),
          tries: Array.from({ length: Math.floor(rand() * 25) }, () => ({
            target: str(),
            status: pick(nasty),
            ttfbMs: pick(nasty),
            error: rand() < 0.5 ? null : str(),
          })),
          endUser: rand() < 0.3 ? null : str(),
          mcp:
            rand() < 0.5
              ? null
              : {
                  method: pick(['tools/call', 'resources/read', 'prompts/get'] as const),
                  server: str(),
                  namespace: str(),
                  name: str(),
                  argsBytes: pick(nasty),
                  resultBytes: pick(nasty),
                  isError: rand() < 0.5,
                },
          tags:
            rand() < 0.3
              ? null
              : Object.fromEntries(Array.from({ length: 12 }, (_, k) => [`${k}${str()}`, str()])),
        }),
        NOW,
      );
      const parsed = overTheWire(e);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(jsonBytes(e)).toBeLessThanOrEqual(MAX_EVENT_BYTES);
    }
  });
});

describe('jsonBytes', () => {
  it('counts the UTF-8 bytes of the JSON text, ASCII or not', () => {
    const utf8 = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).byteLength;
    for (const value of [
      { a: 'plain ascii', n: 1 },
      { a: 'café' },
      { a: '日本語', b: ['\u007f', '\u0080'] },
      { a: 'emoji 😀 pair' },
      { a: 'lone \ud800 surrogate' },
      { a: 'control \u0001 escaped' },
    ]) {
      expect(jsonBytes(value)).toBe(utf8(value));
    }
    expect(jsonBytes({ a: 'é' })).toBe(JSON.stringify({ a: 'é' }).length + 1);
  });
});
