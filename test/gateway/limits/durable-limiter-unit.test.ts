import { describe, expect, it } from 'vitest';
import type { Price } from '../../../src/core/pricing';
import { parseProxyRequest } from '../../../src/core/request';
import { readLimitsConfig } from '../../../src/limits/config';
import { durableLimiter } from '../../../src/limits/durable-limiter';
import type { Charge, LimiterRpc, ReserveInput } from '../../../src/limits/protocol';
import { chatBody } from '../helpers';
import { principalWith } from '../limits-helpers';

/** A Limiter object that admits everything and records what it was asked. */
function recorder() {
  const calls = { reserve: [] as ReserveInput[], settle: [] as [string, Charge | null][] };
  const rpc: LimiterRpc = {
    reserve: async (input) => {
      calls.reserve.push(input);
      return {
        ok: true,
        id: `r${calls.reserve.length}`,
        quota: { requests: { limit: 10, remaining: 9, resetMs: 1000 }, tokens: null },
      };
    },
    settle: async (id, actual) => {
      calls.settle.push([id, actual]);
      return true;
    },
  };
  return { calls, rpc };
}

const principal = principalWith;

function limiterWith(rpc: LimiterRpc, overrides: Record<string, Price> = {}) {
  return durableLimiter({
    objectFor: () => rpc,
    prices: { overrides: async () => overrides, invalidate: () => {} },
    config: readLimitsConfig({ LIMITS_DEFAULT_MAX_TOKENS: '1000' }),
  });
}

describe('the limits adapter', () => {
  it('makes no Limiter call at all for a key and tenant without limits or budgets', async () => {
    const { calls, rpc } = recorder();
    const reservation = await limiterWith(rpc).reserve(
      principal({ limits: { max_tokens: 50 } }),
      parseProxyRequest('chat', chatBody('hi')),
    );
    await reservation.settle({
      inputTokens: 1,
      outputTokens: 1,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
    expect(calls.reserve).toHaveLength(0);
    expect(calls.settle).toHaveLength(0);
    expect(reservation.headers).toEqual({});
  });

  it('reserves the prompt estimate plus the output cap, priced with the admin override', async () => {
    const { calls, rpc } = recorder();
    const limiter = limiterWith(rpc, {
      'mock/echo': { input: 1000, output: 2000, cached: 0, cache_write: 1000, cache_write_1h: 1000 },
    });
    const reservation = await limiter.reserve(
      principal({ tenantLimits: { rpm: 10 } }),
      parseProxyRequest('chat', chatBody('Hello there, mock.')),
    );
    expect(calls.reserve[0]).toMatchObject({
      scopes: [
        { id: 'key:key_a', kind: 'key' },
        { id: 'tenant', kind: 'tenant' },
      ],
      cost: { tokens: 12 + 1000, nanos: (12 * 1000 + 1000 * 2000) * 1000 },
    });
    expect(reservation.outputCap).toBe(1000);
    expect(reservation.headers['x-ratelimit-remaining-requests']).toBe('9');
  });

  it('holds every prompt token at the dearest rate it may be billed at: a write only of the TTL its breakpoints ask for', async () => {
    const price = { input: 1000, output: 2000, cached: 100, cache_write: 1250, cache_write_1h: 2000 };
    const held = async (content: unknown) => {
      const { calls, rpc } = recorder();
      await limiterWith(rpc, { 'mock/echo': price }).reserve(
        principal({ tenantLimits: { rpm: 10 } }),
        parseProxyRequest('chat', { model: 'mock/echo', messages: [{ role: 'user', content }] }),
      );
      return calls.reserve[0]?.cost;
    };
    const text = 'Hello there, mock.';
    // No breakpoint: nothing can be written, the prompt is held at the input price (12 prompt tokens).
    expect(await held(text)).toMatchObject({ tokens: 12 + 1000, nanos: (12 * 1000 + 1000 * 2000) * 1000 });
    // A 5-minute breakpoint: held at the 5-minute write price.
    const marked = (cache_control: unknown) => [{ type: 'text', text, cache_control }];
    expect(await held(marked({ type: 'ephemeral' }))).toMatchObject({
      nanos: (12 * 1250 + 1000 * 2000) * 1000,
    });
    // A 1-hour breakpoint: held at the 1-hour write price.
    expect(await held(marked({ type: 'ephemeral', ttl: '1h' }))).toMatchObject({
      nanos: (12 * 2000 + 1000 * 2000) * 1000,
    });
  });

  it('leaves the output cap to the client when it set max_tokens', async () => {
    const { rpc } = recorder();
    const reservation = await limiterWith(rpc).reserve(
      principal({ limits: { rpm: 1 } }),
      parseProxyRequest('chat', chatBody('x', { max_tokens: 7 })),
    );
    expect(reservation.outputCap).toBeUndefined();
  });

  it('settles once: the real usage, an estimate for a cut stream, or a release', async () => {
    const { calls, rpc } = recorder();
    const limiter = limiterWith(rpc);
    const key = principal({ budgets: { tokens: { day: 1e6 } } });
    const request = parseProxyRequest('chat', chatBody('Hello there, mock.'));

    const json = await limiter.reserve(key, request);
    await json.settle({
      inputTokens: 12,
      outputTokens: 3,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
    await json.settle({
      inputTokens: 99,
      outputTokens: 99,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
    const cut = await limiter.reserve(key, request);
    await cut.settle(null, { completed: false, deliveredChars: 10 });
    const failed = await limiter.reserve(key, request);
    await failed.settle(null);

    expect(calls.settle.map(([id, charge]) => [id, charge?.tokens ?? null])).toEqual([
      ['r1', 15],
      ['r2', 12 + 3],
      ['r3', null],
    ]);
  });
});
