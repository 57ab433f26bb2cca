/** GET /v1/models: the models a principal may use, in OpenAI's list shape (pure). */
import { modelAllowed, type Principal } from '../core/principal';
import { catalogModels } from '../providers/catalog';

const CREATED = 1_700_000_000;

export interface ModelList {
  readonly object: 'list';
  readonly data: { id: string; object: 'model'; created: number; owned_by: string }[];
}

/** `configured`: the providers this deployment has keys for. */
export function modelList(principal: Principal, configured: readonly string[]): ModelList {
  const ids = new Set(catalogModels(configured).filter((id) => modelAllowed(principal.models, id)));
  // Exact ids on an allow-list are usable even when the catalogue does not know them.
  for (const id of principal.models ?? []) {
    if (!id.endsWith('/*') && configured.includes(id.slice(0, id.indexOf('/')))) ids.add(id);
  }
  const data = [...ids].sort().map((id) => ({
    id,
    object: 'model' as const,
    created: CREATED,
    owned_by: id.slice(0, id.indexOf('/')),
  }));
  return { object: 'list', data };
}
