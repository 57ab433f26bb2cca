/**
 * The price table, read from pricing.json (data, not code): USD per 1M tokens by model id. The table
 * ships in the bundle, so it is checked where it is edited, not by every isolate at start-up (a zod
 * parse there was the start-up's most expensive single step, DESIGN.md §5): its types by the compiler
 * here, its values (finite, non-negative) by `Pricing` in test/gateway/core/pricing-unit.test.ts.
 */
import * as z from 'zod';
import data from './pricing.json';

const rate = z.number().nonnegative();

/**
 * One model's prices: `input` for uncached prompt tokens, `cached` for cache reads, `cache_write` for
 * prompt-cache writes with the default 5-minute TTL, `cache_write_1h` for writes with a 1-hour TTL,
 * `output` for every generated token (reasoning included).
 */
export const Price = z.object({
  input: rate,
  output: rate,
  cached: rate,
  cache_write: rate,
  cache_write_1h: rate,
});
export type Price = z.infer<typeof Price>;

/** The prices an admin gives or an older store holds: the cache prices may be absent (see `priceWithDefaults`). */
export const PartialPrice = z.object({
  input: rate,
  output: rate,
  cached: rate.optional(),
  cache_write: rate.optional(),
  cache_write_1h: rate.optional(),
});
export type PartialPrice = z.infer<typeof PartialPrice>;

/**
 * Absent cache prices, as for a provider that discounts and charges nothing apart: a cache read or a
 * write costs what a plain prompt token does (the input price), and a 1-hour write what a 5-minute one does.
 */
export function priceWithDefaults(p: PartialPrice): Price {
  const cacheWrite = p.cache_write ?? p.input;
  return {
    input: p.input,
    output: p.output,
    cached: p.cached ?? p.input,
    cache_write: cacheWrite,
    cache_write_1h: p.cache_write_1h ?? cacheWrite,
  };
}

/** A stored price (KV, D1) written before cache writes were priced still reads, with the defaults. */
export const StoredPrice = PartialPrice.transform(priceWithDefaults);

export const Pricing = z.object({ updated: z.string(), default: Price, models: z.record(z.string(), Price) });
export type Pricing = z.infer<typeof Pricing>;

/** pricing.json without its `$comment`, as the schema reads it. */
export const PRICING: Pricing = { updated: data.updated, default: data.default, models: data.models };
