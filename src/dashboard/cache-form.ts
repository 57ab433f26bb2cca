/**
 * A key's response-cache settings (`cache` of the key record, src/core/settings.ts) ⇄ the key page's
 * cache form (pure). The form edits every field, so its body replaces `cache` whole; a value that is
 * not a number passes through for the API to refuse, naming the field (`cache.ttl_seconds`).
 */
import { DEFAULT_TTL_S } from '../cache/directives';
import type { CacheSettings } from '../core/settings';
import { type FormValues, numberish } from './forms';

const FLAGS = ['exact', 'semantic', 'semantic_tools', 'semantic_temperature'] as const;
const NUMBERS = ['ttl_seconds', 'threshold', 'semantic_max_turns'] as const;

export const cacheField = (name: (typeof FLAGS)[number] | (typeof NUMBERS)[number]) => `cache.${name}`;

export function cacheBody(values: FormValues): { cache: Record<string, unknown> } {
  const cache: Record<string, unknown> = {};
  for (const f of FLAGS) if (values[cacheField(f)] === 'on') cache[f] = true;
  for (const n of NUMBERS) {
    const v = numberish(values[cacheField(n)]);
    if (v !== undefined) cache[n] = v;
  }
  return { cache };
}

export function cacheFormValues(cache: CacheSettings | undefined): FormValues {
  const out: FormValues = {};
  for (const f of FLAGS) if (cache?.[f]) out[cacheField(f)] = 'on';
  for (const n of NUMBERS) if (cache?.[n] !== undefined) out[cacheField(n)] = String(cache[n]);
  return out;
}

/** The fields of the cache form among `values` (what goes back into it after a refusal). */
export function cacheFields(values: FormValues): FormValues {
  return Object.fromEntries(Object.entries(values).filter(([k]) => k.startsWith('cache.')));
}

/** The settings in words, for a reader who may not change them. */
export function describeCache(cache: CacheSettings | undefined): string {
  const exact = cache?.exact
    ? `exact cache on, entries kept ${cache.ttl_seconds ?? DEFAULT_TTL_S} s`
    : 'exact cache off (a request may still opt in with cf-aig-cache-ttl)';
  const semantic = cache?.semantic
    ? `semantic cache on${cache.threshold !== undefined ? ` at similarity ${cache.threshold}` : ''}`
    : 'semantic cache off';
  return `${exact} · ${semantic}`;
}
