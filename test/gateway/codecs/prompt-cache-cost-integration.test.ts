/**
 * Prompt caching through the real gateway, priced: a turn that writes the provider's prompt cache
 * and the same turn again, which reads it, each logged with the provider's own counts and a cost
 * equal to the published arithmetic (uncached input, cache reads, 5-minute and 1-hour writes,
 * output). Claude's breakpoints from an OpenAI client reach the Anthropic-format provider; an
 * Anthropic client's reach it as they are; an OpenAI-format provider caches by itself.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { LogEvent } from '../../../src/core/log-event';
import { PRICING } from '../../../src/core/pricing';
import { harness } from '../exchange-harness';
import { seedKey } from '../helpers';

let key: string;
beforeAll(async () => {
  key = (await seedKey({ tenantId: 'ten_prompt_cache', limits: { rpm: 1000 } })).secret;
});

/** USD per 1M tokens, as the price table holds them (the mock's models are priced at its default). */
const P = PRICING.default;

/** The published arithmetic for one logged turn. */
function expectedCost(e: LogEvent): number {
  const writes5m = e.cacheWriteTokens - e.cacheWrite1hTokens;
  const uncached = e.inputTokens - e.cachedTokens - e.cacheWriteTokens;
  return (
    (uncached * P.input +
      e.cachedTokens * P.cached +
      writes5m * P.cache_write +
      e.cacheWrite1hTokens * P.cache_write_1h +
      e.outputTokens * P.output) /
    1_000_000
  );
}

/** A system prompt long enough to be worth caching, unique per test so no earlier test warmed it. */
const longText = (tag: string) => `${tag} `.repeat(400);

async function twice(body: (tag: string) => unknown, path?: string): Promise<LogEvent[]> {
  const tag = crypto.randomUUID();
  const events: LogEvent[] = [];
  for (let i = 0; i < 2; i++) {
    const h = harness();
    const { res } = await h.call(body(tag), key, (r) => r.text(), {}, path);
    expect(res.status).toBe(200);
    events.push(h.counts.events[0] as LogEvent);
  }
  return events;
}

describe('prompt caching, counted and priced', () => {
  it('an OpenAI client: its 1-hour breakpoint reaches Claude; the first turn writes, the second reads', async () => {
    const [first, second] = await twice((tag) => ({
      model: 'claude-only/echo;cache_min_tokens=16',
      messages: [
        {
          role: 'system',
          content: [{ type: 'text', text: longText(tag), cache_control: { type: 'ephemeral', ttl: '1h' } }],
        },
        { role: 'user', content: 'Hello' },
      ],
    }));
    expect(first?.cacheWrite1hTokens).toBeGreaterThan(0);
    expect(first?.cacheWriteTokens).toBe(first?.cacheWrite1hTokens);
    expect(first?.cachedTokens).toBe(0);
    expect(second?.cachedTokens).toBe(first?.cacheWriteTokens);
    expect(second?.cacheWriteTokens).toBe(0);
    expect(second?.inputTokens).toBe(first?.inputTokens);
    for (const e of [first, second] as LogEvent[]) expect(e.costUsd).toBeCloseTo(expectedCost(e), 12);
    // The read is the cheaper turn: 0.1× against 2× input for the cached prefix.
    expect((second as LogEvent).costUsd).toBeLessThan((first as LogEvent).costUsd);
  });

  it('an Anthropic client on an Anthropic-format provider: 5-minute writes and reads as the provider reports them', async () => {
    const [first, second] = await twice(
      (tag) => ({
        model: 'claude-only/echo;cache_min_tokens=16',
        max_tokens: 64,
        system: [{ type: 'text', text: longText(tag), cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: 'Hello' }],
      }),
      '/v1/messages',
    );
    expect(first?.cacheWriteTokens).toBeGreaterThan(0);
    expect(first?.cacheWrite1hTokens).toBe(0);
    expect(second?.cachedTokens).toBe(first?.cacheWriteTokens);
    for (const e of [first, second] as LogEvent[]) expect(e.costUsd).toBeCloseTo(expectedCost(e), 12);
  });

  it('an OpenAI-format provider caches by itself: the second turn reads, nothing is written', async () => {
    const [first, second] = await twice((tag) => ({
      model: 'gpt-only/echo;cache_min_tokens=16',
      messages: [
        { role: 'system', content: longText(tag) },
        { role: 'user', content: 'Hello' },
      ],
    }));
    expect(first?.cachedTokens).toBe(0);
    expect(second?.cachedTokens).toBeGreaterThan(0);
    expect(first?.cacheWriteTokens).toBe(0);
    for (const e of [first, second] as LogEvent[]) expect(e.costUsd).toBeCloseTo(expectedCost(e), 12);
  });
});
