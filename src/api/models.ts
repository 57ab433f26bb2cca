/** GET /v1/models: the models the caller's key may use, in OpenAI's list shape. */
import type { Context } from 'hono';
import type { AppEnv } from '../context';
import { modelAllowed } from '../pipeline/policy';
import { catalogModels } from '../providers/catalog';

const CREATED = 1_700_000_000;

export function listModels(c: Context<AppEnv>): Response {
  const { deps, principal } = c.var;
  const configured = deps.providers.configured();
  const ids = new Set(catalogModels(configured).filter((id) => modelAllowed(principal.models, id)));
  // Exact ids on an allow-list are usable even when the catalogue does not know them.
  for (const id of principal.models ?? []) {
    if (!id.endsWith('/*') && configured.includes(id.slice(0, id.indexOf('/')))) ids.add(id);
  }
  const data = [...ids].sort().map((id) => ({ id, object: 'model', created: CREATED, owned_by: id.slice(0, id.indexOf('/')) }));
  return c.json({ object: 'list', data });
}
