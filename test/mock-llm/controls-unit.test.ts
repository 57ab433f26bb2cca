import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTROLS, parseControls } from '../../workers/mock-llm/src/controls';
import { failureStatus } from '../../workers/mock-llm/src/faults';

describe('parseControls', () => {
  it('gives the defaults when mock is absent', () => {
    expect(parseControls(undefined)).toEqual({ ok: true, controls: DEFAULT_CONTROLS });
    expect(DEFAULT_CONTROLS).toMatchObject({
      tokens: 16,
      pace_ms: 0,
      latency_ms: 0,
      stall_ms: 30_000,
      tool_call: false,
    });
  });

  it('accepts every documented control', () => {
    const mock = {
      latency_ms: 5,
      tokens: 3,
      pace_ms: 1,
      status: 503,
      fail_first: 2,
      key: 'k',
      cut_after: 1,
      reset_after: 1,
      stall_after: 1,
      stall_ms: 10,
      malformed_after: 0,
      tool_call: true,
      chunk_chars: 3,
    };
    expect(parseControls(mock)).toEqual({ ok: true, controls: mock });
  });

  it.each([
    [[], 'mock'],
    [{ typo_ms: 1 }, 'mock.typo_ms'],
    [{ tokens: -1 }, 'mock.tokens'],
    [{ tokens: 1.5 }, 'mock.tokens'],
    [{ stall_ms: 120_001 }, 'mock.stall_ms'],
    [{ status: 399 }, 'mock.status'],
    [{ status: '500' }, 'mock.status'],
    [{ tool_call: 'yes' }, 'mock.tool_call'],
    [{ chunk_chars: 0 }, 'mock.chunk_chars'],
    [{ key: '' }, 'mock.key'],
    [{ fail_first: 1 }, 'mock.key'],
  ])('rejects %j naming %s', (mock, param) => {
    const result = parseControls(mock);
    expect(result).toMatchObject({ ok: false, param });
    expect(result.ok || result.message.includes(param)).toBe(true);
  });
});

describe('failureStatus', () => {
  const controls = (extra: object) => ({ ...DEFAULT_CONTROLS, ...extra });

  it('always fails with status alone', () => {
    expect(failureStatus(controls({ status: 502 }), 0)).toBe(502);
    expect(failureStatus(controls({}), 0)).toBeNull();
  });

  it('fails the first fail_first requests of a key, with status or 500', () => {
    const c = controls({ fail_first: 2, key: 'k', status: 429 });
    expect([1, 2, 3].map((n) => failureStatus(c, n))).toEqual([429, 429, null]);
    expect(failureStatus(controls({ fail_first: 1, key: 'k' }), 1)).toBe(500);
  });
});
