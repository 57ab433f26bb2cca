/**
 * What a request cost in USD, from the price table (pure). Unknown models use the default price, never zero.
 *
 * cost = uncached input × input + cache reads × cached + 5-minute writes × cache_write
 *      + 1-hour writes × cache_write_1h + output × output
 *
 * where uncached input is every prompt token that was neither read from nor written to the provider's
 * cache, and output includes reasoning tokens.
 */
import { PRICING, type Price } from './pricing';
import type { Usage } from './usage';

export function priceOf(model: string, overrides: Readonly<Record<string, Price>> = {}): Price {
  return overrides[model] ?? PRICING.models[model] ?? PRICING.default;
}

export function costUsd(price: Price, usage: Usage): number {
  const write = usage.cacheWriteTokens;
  const write1h = Math.min(usage.cacheWrite1hTokens, write);
  const uncached = Math.max(0, usage.inputTokens - usage.cachedTokens - write);
  const micro =
    uncached * price.input +
    usage.cachedTokens * price.cached +
    (write - write1h) * price.cache_write +
    write1h * price.cache_write_1h +
    usage.outputTokens * price.output;
  return micro / 1_000_000;
}
