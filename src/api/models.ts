/**
 * GET /v1/models: the models a principal may use (pure), as the ids a client
 * sends (`provider/model`, or a named route's name; never a provider's own id),
 * sorted by id, and OpenAI's list and retrieve shapes of them. Anthropic's
 * shapes of the same entries: ./anthropic-models.ts.
 */
import { modelAllowed, type Principal } from '../core/principal';
import { catalogModels } from '../providers/catalog';
import type { ProviderEntry } from '../providers/types';
import type { RouteName } from '../storage/route-names';

/** When the catalogue's and the providers' own models count as created (they carry no date of their own). */
export const CATALOGUE_CREATED_S = 1_700_000_000;

/** One listed model, format-free. */
export interface ModelEntry {
  readonly id: string;
  /** Epoch seconds. */
  readonly created: number;
  /** The provider's id, or `edgeway` for a named route. */
  readonly ownedBy: string;
}

export interface OpenAiModel {
  readonly id: string;
  readonly object: 'model';
  readonly created: number;
  readonly owned_by: string;
}

export interface ModelList {
  readonly object: 'list';
  readonly data: OpenAiModel[];
}

/**
 * `configured`: the providers usable with the deployment's own configuration;
 * `entries`: every provider it knows; `routes`: the named routes the tenant
 * can call. A provider the principal's tenant brought its own key for counts
 * as configured for that tenant. Listed: the priced catalogue and each
 * provider's own list (Workers AI's, Gemini's, Bedrock's, a custom row's
 * `models`), for the configured providers; the allow-list's exact ids of
 * configured providers; and the routes: all within the key's allow-list.
 */
export function modelEntries(
  principal: Principal,
  configured: readonly string[],
  entries: readonly ProviderEntry[] = [],
  routes: readonly RouteName[] = [],
): ModelEntry[] {
  const usable = new Set(configured);
  for (const entry of entries) {
    if (entry.acceptsTenantKeys && principal.providerKeys?.[entry.id]) usable.add(entry.id);
  }
  const offered = [
    ...catalogModels([...usable]),
    ...entries.filter((e) => usable.has(e.id)).flatMap((e) => e.models.map((m) => `${e.id}/${m}`)),
  ];
  const ids = new Set(offered.filter((id) => modelAllowed(principal.models, id)));
  // Exact ids on an allow-list are usable even when the catalogue does not know them.
  for (const id of principal.models ?? []) {
    if (id.includes('/') && !id.endsWith('/*') && usable.has(id.slice(0, id.indexOf('/')))) ids.add(id);
  }
  const listed: ModelEntry[] = [...ids].map((id) => ({
    id,
    created: CATALOGUE_CREATED_S,
    ownedBy: id.slice(0, id.indexOf('/')),
  }));
  for (const route of routes) {
    if (!modelAllowed(principal.models, route.name)) continue;
    listed.push({ id: route.name, created: Math.floor(route.createdAt / 1000), ownedBy: 'edgeway' });
  }
  return listed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function openAiModel(entry: ModelEntry): OpenAiModel {
  return { id: entry.id, object: 'model', created: entry.created, owned_by: entry.ownedBy };
}

/** OpenAI's list shape of the models a principal may use. */
export function modelList(
  principal: Principal,
  configured: readonly string[],
  entries: readonly ProviderEntry[] = [],
  routes: readonly RouteName[] = [],
): ModelList {
  return { object: 'list', data: modelEntries(principal, configured, entries, routes).map(openAiModel) };
}
