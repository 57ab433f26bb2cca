/**
 * The stored responses' own routes, in OpenAI's shapes (docs/responses.md, "Stored responses"):
 *   GET    /v1/responses/{id}               the Responses object the client was answered with
 *   DELETE /v1/responses/{id}               {id, object: 'response', deleted: true}
 *   GET    /v1/responses/{id}/input_items   a page of that request's own input items (?limit, order, after)
 * Admitted like every /v1 route (a gateway key; the tenant is the key's), and logged by the exchange like
 * every request. A response that is missing, expired or another tenant's is the same 404
 * `response_not_found`: the store is only ever asked about the caller's own tenant.
 */
import { GatewayError, badRequest } from '../core/errors';
import type { ItemPageRequest } from '../core/item-page';
import { isResponseId } from '../core/stored-response';
import { admit } from './admit';
import type { GatewayCall } from './call';

const PREFIX = '/v1/responses/';

export async function getResponse(call: GatewayCall): Promise<Response> {
  const principal = await admit(call, false);
  const id = responseIdOf(call.request.url);
  const record = await call.deps.responses.get(principal.tenantId, id, Date.now());
  if (!record) throw responseNotFound(id);
  call.exchange.model = record.model;
  return Response.json(record.response);
}

export async function deleteResponse(call: GatewayCall): Promise<Response> {
  const principal = await admit(call, false);
  const id = responseIdOf(call.request.url);
  if (!(await call.deps.responses.delete(principal.tenantId, id, Date.now()))) throw responseNotFound(id);
  return Response.json({ id, object: 'response', deleted: true });
}

export async function listInputItems(call: GatewayCall): Promise<Response> {
  const principal = await admit(call, false);
  const id = responseIdOf(call.request.url);
  const page = pageRequestOf(new URL(call.request.url).searchParams);
  const items = await call.deps.responses.inputItems(principal.tenantId, id, Date.now(), page);
  if (!items) throw responseNotFound(id);
  return Response.json(items);
}

/** The `{id}` segment of /v1/responses/{id}[/input_items] (the router matched the path), percent-decoded. */
function responseIdOf(url: string): string {
  const segment = new URL(url).pathname.slice(PREFIX.length).split('/')[0] ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function responseNotFound(id: string): GatewayError {
  // Only an id of the shape responses have is echoed back (bounded, and never markup).
  const named = isResponseId(id) ? ` with id '${id}'` : '';
  return new GatewayError(404, `Response${named} not found.`, {
    code: 'response_not_found',
    type: 'invalid_request_error',
  });
}

/** The list's query, as OpenAI takes it: limit 1–100 (default 20), order asc|desc (default desc), after. */
export function pageRequestOf(query: URLSearchParams): ItemPageRequest {
  const rawLimit = query.get('limit');
  const limit = rawLimit === null ? 20 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw badRequest("'limit' must be a whole number from 1 to 100.", 'limit', 'invalid_value');
  }
  const order = query.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') {
    throw badRequest("'order' must be 'asc' or 'desc'.", 'order', 'invalid_value');
  }
  const after = query.get('after');
  return { limit, order, after: after === '' ? null : after };
}
