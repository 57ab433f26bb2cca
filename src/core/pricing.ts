/** The price table, read from pricing.json (data, not code) and validated once: USD per 1M tokens by model id. */
import * as z from 'zod';
import data from './pricing.json';

export const Price = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cached: z.number().nonnegative(),
});
export type Price = z.infer<typeof Price>;

const Pricing = z.object({ updated: z.string(), default: Price, models: z.record(z.string(), Price) });

export const PRICING = Pricing.parse(data);
