import { describe, expect, it } from 'vitest';
import { backoffMs, isRetryableStatus } from '../../../../src/pipeline/route/retry';
import { attemptsHeader, requestMetadata, requestTimeout } from '../../../../src/pipeline/request-headers';
import { GatewayError } from '../../../../src/core/errors';

describe('retry policy', () => {
  it('retries timeouts, conflicts, rate limits and server errors only', () => {
    expect([408, 409, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 413, 422].some(isRetryableStatus)).toBe(false);
  });

  it('backs off exponentially with jitter and honours a short retry-after', () => {
    expect(backoffMs(0, 0, null)).toBe(100);
    expect(backoffMs(0, 1, null)).toBe(200);
    expect(backoffMs(3, 1, null)).toBe(1600);
    expect(backoffMs(10, 1, null)).toBe(5000);
    expect(backoffMs(0, 0.5, '2')).toBe(2000);
    expect(backoffMs(0, 1, '3600')).toBe(200);
  });
});

describe('request headers', () => {
  const h = (entries: Record<string, string>) => new Headers(entries);

  it('parses cf-aig-request-timeout and cf-aig-max-attempts, rejecting bad values with 400', () => {
    expect(requestTimeout(h({}), 1000)).toBe(1000);
    expect(requestTimeout(h({ 'cf-aig-request-timeout': '250' }), 1000)).toBe(250);
    expect(() => requestTimeout(h({ 'cf-aig-request-timeout': 'soon' }), 1000)).toThrow(GatewayError);
    expect(attemptsHeader(h({ 'cf-aig-max-attempts': '3' }))).toBe(3);
    expect(() => attemptsHeader(h({ 'cf-aig-max-attempts': '99' }))).toThrow(/between 1 and 5/);
  });

  it('accepts flat metadata of at most 5 keys', () => {
    expect(requestMetadata(h({ 'cf-aig-metadata': '{"user":"u1","n":2,"ok":true}' }))).toEqual({
      user: 'u1',
      n: 2,
      ok: true,
    });
    expect(() => requestMetadata(h({ 'cf-aig-metadata': '{"a":{"b":1}}' }))).toThrow(
      /string, number or boolean/,
    );
    expect(() => requestMetadata(h({ 'cf-aig-metadata': '{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}' }))).toThrow(
      /at most 5/,
    );
    expect(() => requestMetadata(h({ 'cf-aig-metadata': 'nope' }))).toThrow(/JSON object/);
  });
});
