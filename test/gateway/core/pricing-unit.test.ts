import { describe, expect, it } from 'vitest';
import { PRICING, priceWithDefaults, Pricing, StoredPrice } from '../../../src/core/pricing';
import data from '../../../src/core/pricing.json';

describe('the shipped price table', () => {
  it('holds a finite, non-negative input, output, cached and cache-write price for the default and every model', () => {
    expect(Pricing.safeParse(data).success).toBe(true);
  });

  it('is pricing.json as the schema reads it', () => {
    expect(PRICING).toEqual(Pricing.parse(data));
  });

  it("prices Claude models (Anthropic's and Bedrock's) at Anthropic's multipliers: writes 1.25× and 2×, reads 0.1× input", () => {
    const claude = Object.entries(PRICING.models).filter(([id]) => id.includes('claude'));
    expect(claude.length).toBeGreaterThan(5);
    for (const [id, p] of claude) {
      expect([id, p.cache_write_1h]).toEqual([id, expect.closeTo(p.input * 2, 9)]);
      // Claude 3 Haiku is published off the multipliers: $0.30 writes and $0.03 reads on a $0.25 input.
      if (id.includes('claude-3-haiku')) continue;
      expect([id, p.cache_write]).toEqual([id, expect.closeTo(p.input * 1.25, 9)]);
      expect([id, p.cached]).toEqual([id, expect.closeTo(p.input * 0.1, 9)]);
    }
  });

  it('prices cache writes as plain input for every other provider (none charges them)', () => {
    for (const [id, p] of Object.entries(PRICING.models).filter(([m]) => !m.includes('claude'))) {
      expect([id, p.cache_write, p.cache_write_1h]).toEqual([id, p.input, p.input]);
    }
  });
});

describe('prices with cache prices left out', () => {
  it('reads a cache read or a write as the input price, and a 1-hour write as the 5-minute one', () => {
    expect(priceWithDefaults({ input: 3, output: 15 })).toEqual({
      input: 3,
      output: 15,
      cached: 3,
      cache_write: 3,
      cache_write_1h: 3,
    });
    expect(priceWithDefaults({ input: 3, output: 15, cached: 0.3, cache_write: 3.75 })).toEqual({
      input: 3,
      output: 15,
      cached: 0.3,
      cache_write: 3.75,
      cache_write_1h: 3.75,
    });
  });

  it('reads a stored price from before cache writes were priced', () => {
    expect(StoredPrice.parse({ input: 1, output: 2, cached: 0.5 })).toEqual({
      input: 1,
      output: 2,
      cached: 0.5,
      cache_write: 1,
      cache_write_1h: 1,
    });
  });
});
