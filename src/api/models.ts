/** GET /v1/models: the models a principal may use, in OpenAI's list shape (pure). */
import { modelAllowed, type Principal } from '../core/principal';
import { catalogModels } from '../providers/catalog';
import type { ProviderEntry } from '../providers/types';

const CREATED = 1_700_000_000;

export interface ModelList {
  readonly object: 'list';
  readonly data: { id: string; object: 'model'; created: number; owned_by: string }[];
}

/**
 * `configured`: the providers usable with the deployment's own configuration;
 * `entries`: every provider it knows. A provider the principal's tenant
 * brought its own key for counts as configured for that tenant. Listed: the
 * priced catalogue and each provider's own list (Workers AI's models), for the
 * configured providers, within the key's allow-list; plus the allow-list's
 * exact ids of configured providers.
 */
export function modelList(
  principal: Principal,
  configured: readonly string[],
  entries: readonly ProviderEntry[] = [],
): ModelList {
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
    if (!id.endsWith('/*') && usable.has(id.slice(0, id.indexOf('/')))) ids.add(id);
  }
  const data = [...ids].sort().map((id) => ({
    id,
    object: 'model' as const,
    created: CREATED,
    owned_by: id.slice(0, id.indexOf('/')),
  }));
  return { object: 'list', data };
}
