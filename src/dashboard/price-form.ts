/**
 * The pricing page's forms ⇄ the admin API (pure): a price override's fields as a PUT
 * /admin/pricing/{model} body (blank cache prices left out, so the API's defaults apply; a value that
 * is not a number passes through for the API to refuse, naming the field), a stored price as the
 * form's values, the admin API path of a model id (its slashes kept), and the built-in table searched.
 */
import type { Price } from '../core/pricing';
import { type FormValues, numberish } from './forms';

export const PRICE_FIELDS = ['input', 'output', 'cached', 'cache_write', 'cache_write_1h'] as const;
export type PriceField = (typeof PRICE_FIELDS)[number];

export function priceBody(values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of PRICE_FIELDS) {
    const v = numberish(values[f]);
    if (v !== undefined) body[f] = v;
  }
  return body;
}

export function priceFormValues(model: string, price: Price | null): FormValues {
  const out: FormValues = { model };
  if (price) for (const f of PRICE_FIELDS) out[f] = String(price[f]);
  return out;
}

/** `/pricing/openai/gpt-4o`: each segment escaped, the slashes kept (the API's `:model` takes the rest). */
export function pricingPath(model: string): string {
  return `/pricing/${model.split('/').map(encodeURIComponent).join('/')}`;
}

/** The built-in prices whose model id contains `query` (any case), in id order. */
export function searchPrices(
  models: Readonly<Record<string, Price>>,
  query: string,
): { model: string; price: Price }[] {
  const q = query.trim().toLowerCase();
  return Object.entries(models)
    .filter(([model]) => q === '' || model.toLowerCase().includes(q))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([model, price]) => ({ model, price }));
}
