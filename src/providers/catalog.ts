/** The model catalogue and its prices, read from pricing.json (data, not code) and validated once. */
import { z } from 'zod';
import data from './pricing.json';

export const Price = z.object({ input: z.number().nonnegative(), output: z.number().nonnegative(), cached: z.number().nonnegative() });
export type Price = z.infer<typeof Price>;

const Pricing = z.object({ updated: z.string(), default: Price, models: z.record(z.string(), Price) });

export const PRICING = Pricing.parse(data);

/** Model ids of the catalogue served by the given providers. */
export function catalogModels(providers: readonly string[]): string[] {
  const wanted = new Set(providers);
  return Object.keys(PRICING.models).filter((id) => wanted.has(id.slice(0, id.indexOf('/'))));
}
