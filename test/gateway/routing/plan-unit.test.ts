/** Route selection: fallback order, weighted draws over 10,000 seeded requests, nesting, health, standbys. */
import { describe, expect, it } from 'vitest';
import { RouteSpec } from '../../../src/core/route-spec';
import { planTargets } from '../../../src/routing/plan';

/** mulberry32: a small seeded PRNG, so the draws are the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const spec = (value: unknown) => RouteSpec.parse(value);
const healthy = (models: readonly string[]) => models.map(() => 1);
const none = () => null;
const models = (s: ReturnType<typeof spec>, opts: Partial<Parameters<typeof planTargets>[1]> = {}) =>
  planTargets(s, { random: Math.random, factors: healthy, route: none, ...opts }).map((t) => t.model);

/** How often each model comes first over n plans. */
function firstShares(
  s: ReturnType<typeof spec>,
  n: number,
  factors: (models: readonly string[]) => number[] = healthy,
): Record<string, number> {
  const random = seeded(42);
  const counts: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    const first = planTargets(s, { random, factors, route: none })[0]?.model ?? 'none';
    counts[first] = (counts[first] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v / n]));
}

describe('planTargets', () => {
  it('keeps a fallback route in its order, with each target settings', () => {
    const s = spec({
      strategy: 'fallback',
      attempts: 2,
      targets: [
        { model: 'openai/gpt-4o', ttfb_timeout_ms: 5000, overrides: { max_tokens: 100 } },
        { model: 'anthropic/claude-sonnet-4-5', attempts: 1, credential: 'tenant' },
      ],
    });
    expect(planTargets(s, { random: Math.random, factors: healthy, route: none })).toEqual([
      {
        model: 'openai/gpt-4o',
        attempts: 2,
        ttfbTimeoutMs: 5000,
        credential: 'auto',
        overrides: { max_tokens: 100 },
        onUnsupported: 'drop',
      },
      {
        model: 'anthropic/claude-sonnet-4-5',
        attempts: 1,
        ttfbTimeoutMs: null,
        credential: 'tenant',
        overrides: null,
        onUnsupported: 'drop',
      },
    ]);
  });

  it('draws a loadbalance group by weight: within 1.5 points of 70/20/10 over 10,000 requests', () => {
    const s = spec({
      strategy: 'loadbalance',
      targets: [
        { model: 'a/x', weight: 7 },
        { model: 'b/x', weight: 2 },
        { model: 'c/x', weight: 1 },
      ],
    });
    const shares = firstShares(s, 10_000);
    expect(shares['a/x']).toBeCloseTo(0.7, 1);
    expect(Math.abs((shares['a/x'] ?? 0) - 0.7)).toBeLessThan(0.015);
    expect(Math.abs((shares['b/x'] ?? 0) - 0.2)).toBeLessThan(0.015);
    expect(Math.abs((shares['c/x'] ?? 0) - 0.1)).toBeLessThan(0.015);
  });

  it('lists every target of a weighted group, the drawn one first and the rest as its fallbacks', () => {
    const s = spec({
      strategy: 'loadbalance',
      targets: [{ model: 'a/x' }, { model: 'b/x' }, { model: 'c/x' }],
    });
    for (let i = 0; i < 50; i++) expect(models(s).sort()).toEqual(['a/x', 'b/x', 'c/x']);
  });

  it('treats a weighted group as one step of a fallback (nested groups)', () => {
    const s = spec({
      strategy: 'fallback',
      targets: [
        {
          strategy: 'loadbalance',
          targets: [
            { model: 'a/x', weight: 1 },
            { model: 'b/x', weight: 1 },
          ],
        },
        { model: 'c/x' },
      ],
    });
    const random = seeded(7);
    let aFirst = 0;
    for (let i = 0; i < 10_000; i++) {
      const order = planTargets(s, { random, factors: healthy, route: none }).map((t) => t.model);
      expect(order.at(-1)).toBe('c/x');
      if (order[0] === 'a/x') aFirst++;
    }
    expect(Math.abs(aFirst / 10_000 - 0.5)).toBeLessThan(0.015);
  });

  it('puts zero-weight targets last, as standbys', () => {
    const s = spec({
      strategy: 'loadbalance',
      targets: [
        { model: 'standby/x', weight: 0 },
        { model: 'a/x', weight: 1 },
      ],
    });
    for (let i = 0; i < 20; i++) expect(models(s)).toEqual(['a/x', 'standby/x']);
  });

  it('sends less traffic to an unhealthy target, within its configured weight', () => {
    const s = spec({ strategy: 'loadbalance', targets: [{ model: 'a/x' }, { model: 'b/x' }] });
    const shares = firstShares(s, 10_000, (ms) => ms.map((m) => (m === 'b/x' ? 0.25 : 1)));
    expect(Math.abs((shares['a/x'] ?? 0) - 0.8)).toBeLessThan(0.015);
  });

  it('expands a named route in place and tries a target listed twice once', () => {
    const fast = spec({
      strategy: 'fallback',
      targets: [{ model: 'groq/llama' }, { model: 'openai/gpt-4o-mini' }],
    });
    const s = spec({
      strategy: 'fallback',
      targets: [{ model: 'openai/gpt-4o-mini' }, { model: 'fast' }, { model: 'anthropic/claude' }],
    });
    expect(models(s, { route: (name) => (name === 'fast' ? fast : null) })).toEqual([
      'openai/gpt-4o-mini',
      'groq/llama',
      'anthropic/claude',
    ]);
  });

  it('skips a named route that no longer exists, and stops at the depth bound', () => {
    const s = spec({ strategy: 'fallback', targets: [{ model: 'gone' }, { model: 'a/x' }] });
    expect(models(s)).toEqual(['a/x']);
    const loop = spec({ strategy: 'fallback', targets: [{ model: 'loop' }, { model: 'a/x' }] });
    expect(models(loop, { route: () => loop })).toEqual(['a/x']);
  });

  it('gives every target the strictest on_unsupported of the routes it is reached through', () => {
    const strict = spec({ strategy: 'fallback', on_unsupported: 'refuse', targets: [{ model: 'b/x' }] });
    const loose = spec({ strategy: 'fallback', targets: [{ model: 'c/x' }] });
    const named = (name: string) => (name === 'strict' ? strict : name === 'loose' ? loose : null);
    const policies = (s: RouteSpec) =>
      planTargets(s, { random: Math.random, factors: healthy, route: named }).map((t) => [
        t.model,
        t.onUnsupported,
      ]);
    const top = spec({
      strategy: 'fallback',
      targets: [{ model: 'a/x' }, { model: 'strict' }, { model: 'loose' }],
    });
    expect(policies(top)).toEqual([
      ['a/x', 'drop'],
      ['b/x', 'refuse'],
      ['c/x', 'drop'],
    ]);
    // A route that refuses refuses for all of its targets, named routes included.
    expect(policies({ ...top, on_unsupported: 'refuse' }).map(([, p]) => p)).toEqual([
      'refuse',
      'refuse',
      'refuse',
    ]);
  });
});
