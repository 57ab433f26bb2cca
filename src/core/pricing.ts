/**
 * The price table, read from pricing.json (data, not code): USD per 1M tokens by model id. The table
 * ships in the bundle, so it is checked where it is edited, not by every isolate at start-up (a zod
 * parse there was the start-up's most expensive single step, DESIGN.md §5): its types by the compiler
 * here, its values (finite, non-negative) by `Pricing` in test/gateway/core/pricing-unit.test.ts.
 */
import * as z from 'zod';
import data from './pricing.json';

export const Price = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cached: z.number().nonnegative(),
});
export type Price = z.infer<typeof Price>;

export const Pricing = z.object({ updated: z.string(), default: Price, models: z.record(z.string(), Price) });
export type Pricing = z.infer<typeof Pricing>;

/** pricing.json without its `$comment`, as the schema reads it. */
export const PRICING: Pricing = { updated: data.updated, default: data.default, models: data.models };
