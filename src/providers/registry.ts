/** Builds the provider adapters this deployment can reach, from the table and the secrets. */
import { ConfigError, type ConfigProblem } from '../config';
import type { Bindings } from '../env';
import { tableAdapter } from './adapter';
import { BUILTIN_PROVIDERS, customProviderRows, mockProviderRow, type ProviderRow } from './table';
import type { ProviderAdapter } from './types';

export interface ProviderRegistry {
  /** The adapter for a provider id, or why there is none. */
  get(id: string): ProviderAdapter | 'unknown' | 'unconfigured';
  /** Ids of the providers that have a key configured. */
  configured(): string[];
}

/**
 * Without `problems` a broken EDGEWAY_PROVIDERS throws; with it (deps.ts) the
 * problem is recorded there and the registry is built from the other rows.
 */
export function buildRegistry(env: Bindings, problems?: ConfigProblem[]): ProviderRegistry {
  const rows: ProviderRow[] = [
    ...BUILTIN_PROVIDERS,
    mockProviderRow((env.MOCK_LLM_URL ?? '').replace(/\/+$/, '')),
    ...customRows(env, problems),
  ];
  const adapters = new Map<string, ProviderAdapter>();
  const known = new Set<string>();
  const secrets = env as unknown as Record<string, string | undefined>;
  for (const row of rows) {
    known.add(row.id);
    const apiKey = (row.keySecret ? secrets[row.keySecret] : undefined) ?? row.defaultKey;
    if (!apiKey) continue;
    const fetcher = row.id === 'mock' && env.MOCK_LLM ? bindFetch(env.MOCK_LLM) : globalFetch;
    adapters.set(row.id, tableAdapter(row, apiKey, fetcher));
  }
  return {
    get: (id) => adapters.get(id) ?? (known.has(id) ? 'unconfigured' : 'unknown'),
    configured: () => [...adapters.keys()],
  };
}

function customRows(env: Bindings, problems: ConfigProblem[] | undefined): ProviderRow[] {
  if (!problems) return customProviderRows(env);
  try {
    return customProviderRows(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.push({ variable: err.variable, message: err.message });
    return [];
  }
}

const globalFetch = (url: string, init: RequestInit) => fetch(url, init);
const bindFetch = (binding: Fetcher) => (url: string, init: RequestInit) => binding.fetch(url, init);
