/** The model catalogue: the priced models (core/pricing.json) that the configured providers serve. */
import { PRICING } from '../core/pricing';

/** Model ids of the catalogue served by the given providers. */
export function catalogModels(providers: readonly string[]): string[] {
  const wanted = new Set(providers);
  return Object.keys(PRICING.models).filter((id) => wanted.has(id.slice(0, id.indexOf('/'))));
}
