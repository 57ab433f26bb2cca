/**
 * Builds the providers this deployment can reach, from the table, the
 * bindings and the secrets; and, per request, the adapter for the key in
 * force: the deployment's secret, or the tenant's own key (BYOK).
 */
import { ConfigError, type ConfigProblem } from '../config';
import type { Bindings } from '../env';
import { setCapped } from '../util/capped-map';
import { type HttpFetch, tableAdapter } from './adapter';
import { azureEntry } from './azure';
import { bedrockEntry } from './bedrock';
import { fetcherFor } from './fetcher';
import { geminiEntry } from './gemini';
import { BUILTIN_PROVIDERS, customProviderRows, mockProviderRow, type ProviderRow } from './table';
import type { ProviderAdapter, ProviderEntry } from './types';
import { workersAiEntry } from './workers-ai';

export interface ProviderRegistry {
  /**
   * The adapter for a provider id, or why there is none. `tenantKey`, when
   * given, is used instead of the deployment's key (for providers that accept one).
   */
  get(id: string, tenantKey?: string | null): ProviderAdapter | 'unknown' | 'unconfigured';
  /** Ids of the providers usable with the deployment's own configuration (a key, a binding, or none needed). */
  configured(): string[];
  /** Every provider this deployment knows, configured or not. */
  entries(): readonly ProviderEntry[];
}

/** Adapters built for tenants' own keys, kept per isolate (a key's adapter is a few small objects). */
const MAX_TENANT_ADAPTERS = 512;

/**
 * Without `problems` a broken EDGEWAY_PROVIDERS throws; with it (deps.ts) the
 * problem is recorded there and the registry is built from the other rows.
 */
export function buildRegistry(env: Bindings, problems?: ConfigProblem[]): ProviderRegistry {
  const entries = providerEntries(env, problems);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const deployment = new Map<string, ProviderAdapter>();
  for (const entry of entries) {
    if (entry.deploymentKey !== null || entry.keyless)
      deployment.set(entry.id, entry.build(entry.deploymentKey));
  }
  const tenant = new Map<string, ProviderAdapter>();
  return {
    get(id, tenantKey) {
      const entry = byId.get(id);
      if (!entry) return 'unknown';
      if (!tenantKey || !entry.acceptsTenantKeys) return deployment.get(id) ?? 'unconfigured';
      const cacheKey = `${id}\n${tenantKey}`;
      let adapter = tenant.get(cacheKey);
      if (!adapter) {
        adapter = entry.build(tenantKey);
        setCapped(tenant, cacheKey, adapter, MAX_TENANT_ADAPTERS);
      }
      return adapter;
    },
    configured: () => [...deployment.keys()],
    entries: () => entries,
  };
}

/** Every provider kind this deployment can have, in listing order. */
function providerEntries(env: Bindings, problems: ConfigProblem[] | undefined): ProviderEntry[] {
  const secrets = env as unknown as Record<string, string | undefined>;
  const mockUrl = (env.MOCK_LLM_URL ?? '').replace(/\/+$/, '');
  const table = (rows: readonly ProviderRow[]) =>
    rows.map((row) => tableEntry(row, secrets, fetcherFor(env, row.baseUrl)));
  const entries = [
    ...table(BUILTIN_PROVIDERS),
    ...table(mockUrl ? [mockProviderRow(mockUrl)] : []),
    // Providers with a format or transport of their own, one module each.
    geminiEntry(env),
    bedrockEntry(env),
    workersAiEntry(env),
    azureEntry(env),
    ...table(customRows(env, problems)),
  ];
  return withoutClashes(entries, problems);
}

/**
 * A custom row may not take the id of another provider (a built-in one, the
 * mock, or an earlier row): the first keeps it, and the clash is a
 * configuration problem, or thrown when there is nowhere to record it.
 */
function withoutClashes(entries: ProviderEntry[], problems: ConfigProblem[] | undefined): ProviderEntry[] {
  const seen = new Set<string>();
  const kept: ProviderEntry[] = [];
  for (const entry of entries) {
    if (!seen.has(entry.id)) {
      seen.add(entry.id);
      kept.push(entry);
      continue;
    }
    const message = `EDGEWAY_PROVIDERS is invalid: the id '${entry.id}' is already a provider of this gateway.`;
    if (!problems) throw new ConfigError('EDGEWAY_PROVIDERS', message);
    problems.push({ variable: 'EDGEWAY_PROVIDERS', message });
  }
  return kept;
}

function tableEntry(
  row: ProviderRow,
  secrets: Record<string, string | undefined>,
  fetcher: HttpFetch,
): ProviderEntry {
  const key = (row.keySecret ? secrets[row.keySecret] : undefined) ?? row.defaultKey ?? null;
  return {
    id: row.id,
    deploymentKey: key,
    keyless: row.keyless === true,
    acceptsTenantKeys: row.tenantKeys === true,
    models: row.models ?? [],
    build: (apiKey) => tableAdapter(row, apiKey, fetcher),
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
