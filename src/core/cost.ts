/** What a request cost in USD, from the price table (pure). Unknown models use the default price, never zero. */
import { PRICING, type Price } from './pricing';
import type { Usage } from './usage';

export function priceOf(model: string, overrides: Readonly<Record<string, Price>> = {}): Price {
  return overrides[model] ?? PRICING.models[model] ?? PRICING.default;
}

export function costUsd(price: Price, usage: Usage): number {
  const uncached = Math.max(0, usage.inputTokens - usage.cachedTokens);
  const micro =
    uncached * price.input + usage.cachedTokens * price.cached + usage.outputTokens * price.output;
  return micro / 1_000_000;
}
