/**
 * GET /v1/models and GET /v1/models/{id}: auth (the key as `Authorization:
 * Bearer` or `x-api-key`, since the Anthropic SDK sends the latter here too),
 * then the models this key may use, in Anthropic's shape when the request
 * carries `anthropic-version` (every Anthropic SDK sends it) and OpenAI's
 * otherwise. A model the key may not use is a 404 exactly like one that does
 * not exist: the key learns nothing about it. Ids hold slashes
 * (`openai/gpt-4o`); the id may also arrive percent-encoded (`openai%2Fgpt-4o`).
 */
import { anthropicModel, anthropicModelPage } from '../api/anthropic-models';
import { type ModelEntry, modelEntries, openAiModel } from '../api/models';
import { GatewayError } from '../core/errors';
import { MAX_MODEL_ID_LENGTH } from '../core/request-schemas';
import type { Principal } from '../core/principal';
import { type RouteName, routeNames } from '../storage/route-names';
import type { GatewayCall } from './call';
import { admit } from './admit';

const PREFIX = '/v1/models/';

export async function models(inbound: GatewayCall): Promise<Response> {
  const principal = await admit(inbound, true);
  const { request, exchange: x } = inbound;
  const anthropic = request.headers.has('anthropic-version');
  const url = new URL(request.url);
  const id = modelIdOf(url.pathname);
  if (id === null) {
    const entries = await usableModels(inbound, principal, true);
    return Response.json(
      anthropic
        ? anthropicModelPage(entries, url.searchParams)
        : { object: 'list', data: entries.map(openAiModel) },
    );
  }
  x.model = id;
  // A `provider/model` id is never a route's name (route names hold no slash): no route read for it.
  const entries = await usableModels(inbound, principal, !id.includes('/'));
  const found = entries.find((entry) => entry.id === id);
  if (!found) {
    // No model id is longer than a request may name one, so a longer one is not echoed back.
    const named = id.length <= MAX_MODEL_ID_LENGTH ? `'${id}'` : 'named';
    throw new GatewayError(404, `The model ${named} does not exist or you do not have access to it.`, {
      code: 'model_not_found',
      type: 'invalid_request_error',
      param: 'model',
    });
  }
  return Response.json(anthropic ? anthropicModel(found) : openAiModel(found));
}

async function usableModels(
  inbound: GatewayCall,
  principal: Principal,
  withRoutes: boolean,
): Promise<ModelEntry[]> {
  const { providers } = inbound.deps;
  const routes: RouteName[] = withRoutes ? await routeNames(inbound.env.DB, principal.tenantId) : [];
  return modelEntries(principal, providers.configured(), providers.entries(), routes);
}

/** The id a retrieve names (percent-decoded, once), or null for the list; an undecodable id names nothing. */
export function modelIdOf(pathname: string): string | null {
  if (!pathname.startsWith(PREFIX)) return null;
  const raw = pathname.slice(PREFIX.length);
  if (raw === '') return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
