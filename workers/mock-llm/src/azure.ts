/**
 * Azure OpenAI's deployment routes, `POST /openai/deployments/{deployment}/
 * chat/completions` and `…/embeddings`, checked as Azure checks them before
 * answering like the OpenAI routes: the `api-version` query parameter (absent →
 * 404 "Resource not found", Azure's answer; not a dated version → 400 "API
 * version not supported") and the `api-key` header (absent → 401). Azure's
 * own errors are `{"error":{"code","message"}}`; every answer carries
 * `apim-request-id` and `x-request-id`. A deployment exists when its name is a
 * model id the mock serves (else 404 DeploymentNotFound); the body's `model` is
 * ignored and the deployment's name answers as the model.
 *
 * Azure's v1 API serves the Responses API at `/openai/v1/responses` (and
 * `/{id}`, `/{id}/input_items`): no `api-version` needed (`preview`, `latest`
 * or a date accepted), the key in `api-key` or `Authorization: Bearer`, the
 * deployment named by the body's `model`; answered by the OpenAI route.
 */
import { handleChat } from './chat';
import { handleEmbeddings } from './embeddings';
import { handleResponses, handleStoredResponse } from './responses';
import { jsonResponse, newRequestId } from './http';
import { isServedModel } from './models';

const ROUTE = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/;
/** GA versions are dates, previews dates with `-preview` (learn.microsoft.com, API version lifecycle). */
const API_VERSION = /^\d{4}-\d{2}-\d{2}(-preview)?$/;

const ACCESS_DENIED =
  'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.';

const DEPLOYMENT_NOT_FOUND =
  'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.';

function azureError(status: number, code: string, message: string): Response {
  return jsonResponse({ error: { code, message } }, status, { 'apim-request-id': crypto.randomUUID() });
}

export async function handleAzure(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const route = ROUTE.exec(url.pathname);
  const version = url.searchParams.get('api-version');
  if (!route || version === null) return azureError(404, '404', 'Resource not found');
  if (!API_VERSION.test(version)) return azureError(400, 'BadRequest', 'API version not supported');
  const key = request.headers.get('api-key')?.trim();
  if (!key) return azureError(401, '401', ACCESS_DENIED);

  const deployment = decodeURIComponent(route[1] ?? '');
  if (!isServedModel(deployment)) return azureError(404, 'DeploymentNotFound', DEPLOYMENT_NOT_FOUND);
  const text = await request.text();
  let body = text;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      body = JSON.stringify({ ...parsed, model: deployment });
  } catch {
    // Not JSON: the OpenAI handler answers it with OpenAI's (and Azure's) 400.
  }
  const headers = new Headers(request.headers);
  headers.delete('api-key');
  headers.set('authorization', `Bearer ${key}`);
  const openAi = new Request(`${url.origin}/v1/${route[2]}`, { method: 'POST', headers, body });
  const answer = route[2] === 'embeddings' ? await handleEmbeddings(openAi) : await handleChat(openAi);
  const out = new Response(answer.body, answer);
  out.headers.set('apim-request-id', crypto.randomUUID());
  if (!out.headers.has('x-request-id')) out.headers.set('x-request-id', newRequestId());
  return out;
}

const V1_ROUTE = /^\/openai\/v1\/responses(\/[^/]+(?:\/input_items)?)?$/;
const V1_VERSION = /^(preview|latest|\d{4}-\d{2}-\d{2}(-preview)?)$/;

/** The deployment a v1 Responses body names (its `model`), or undefined when the body is not a JSON object with one. */
function bodyModel(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    const model =
      typeof parsed === 'object' && parsed !== null ? (parsed as { model?: unknown }).model : undefined;
    return typeof model === 'string' ? model : undefined;
  } catch {
    return undefined;
  }
}

/** Azure's v1 Responses routes, checked as Azure checks them, then answered by the OpenAI handlers. */
export async function handleAzureV1(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const route = V1_ROUTE.exec(url.pathname);
  const version = url.searchParams.get('api-version');
  if (!route) return azureError(404, '404', 'Resource not found');
  if (version !== null && !V1_VERSION.test(version))
    return azureError(400, 'BadRequest', 'API version not supported');
  const bearer = /^Bearer\s+(\S+)/i.exec(request.headers.get('authorization') ?? '')?.[1];
  const key = request.headers.get('api-key')?.trim() || bearer;
  if (!key) return azureError(401, '401', ACCESS_DENIED);
  const headers = new Headers(request.headers);
  headers.delete('api-key');
  headers.set('authorization', `Bearer ${key}`);
  const path = `${url.origin}/v1/responses${route[1] ?? ''}${url.search}`;
  let answer: Response;
  if (route[1] === undefined) {
    if (request.method !== 'POST') return azureError(405, '405', 'Method not allowed');
    const text = await request.text();
    const deployment = bodyModel(text);
    if (deployment !== undefined && !isServedModel(deployment))
      return azureError(404, 'DeploymentNotFound', DEPLOYMENT_NOT_FOUND);
    answer = await handleResponses(new Request(path, { method: 'POST', headers, body: text }));
  } else answer = await handleStoredResponse(new Request(path, { method: request.method, headers }));
  const out = new Response(answer.body, answer);
  out.headers.set('apim-request-id', crypto.randomUUID());
  if (!out.headers.has('x-request-id')) out.headers.set('x-request-id', newRequestId());
  return out;
}
