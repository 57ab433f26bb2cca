/**
 * Edgeway's mock LLM upstream: OpenAI- and Anthropic-compatible endpoints with
 * deterministic answers and fault injection, for dev, tests and benchmarks.
 * This file is routing only; each route lives in its own module.
 */
import { handleBedrock } from './bedrock';
import { handleAzure } from './azure';
import { handleChat } from './chat';
import { handleEmbeddings } from './embeddings';
import { handleGemini } from './gemini';
import { errorResponse } from './errors';
import type { Shape } from './http';
import { handleCountTokens, handleMessages } from './messages';
import { handleModels } from './models';

interface Route {
  readonly method: 'GET' | 'POST';
  readonly handle: (request: Request) => Response | Promise<Response>;
}

const ROUTES: ReadonlyMap<string, Route> = new Map<string, Route>([
  ['/v1/chat/completions', { method: 'POST', handle: handleChat }],
  ['/v1/embeddings', { method: 'POST', handle: handleEmbeddings }],
  ['/v1/models', { method: 'GET', handle: handleModels }],
  ['/v1/messages', { method: 'POST', handle: handleMessages }],
  ['/v1/messages/count_tokens', { method: 'POST', handle: handleCountTokens }],
]);

/**
 * Routes whose path carries a parameter (a model or deployment id), matched by
 * prefix in order: the other providers' native APIs. Each handler reads the
 * rest of the path itself.
 */
const PREFIX_ROUTES: readonly (readonly [string, Route])[] = [
  ['/v1beta/models/', { method: 'POST', handle: handleGemini }],
  ['/model/', { method: 'POST', handle: handleBedrock }],
  ['/openai/deployments/', { method: 'POST', handle: handleAzure }],
];

/** Anthropic's paths answer errors in Anthropic's envelope; everything else in OpenAI's. */
export function shapeForPath(path: string): Shape {
  return path === '/v1/messages' || path.startsWith('/v1/messages/') ? 'anthropic' : 'openai';
}

function notFound(shape: Shape, method: string, path: string): Response {
  return shape === 'openai'
    ? errorResponse(shape, 404, { type: 'invalid_request_error', message: `Invalid URL (${method} ${path})` })
    : errorResponse(shape, 404, { type: 'not_found_error', message: `Not Found: ${method} ${path}` });
}

function methodNotAllowed(shape: Shape, method: string, path: string, allowed: string): Response {
  return errorResponse(
    shape,
    405,
    {
      type: 'invalid_request_error',
      message: `Method ${method} is not allowed for ${path}; use ${allowed}.`,
    },
    { allow: allowed },
  );
}

export default {
  fetch(request: Request): Response | Promise<Response> {
    const path = new URL(request.url).pathname;
    const route = ROUTES.get(path) ?? PREFIX_ROUTES.find(([prefix]) => path.startsWith(prefix))?.[1];
    if (!route) return notFound(shapeForPath(path), request.method, path);
    if (request.method !== route.method)
      return methodNotAllowed(shapeForPath(path), request.method, path, route.method);
    return route.handle(request);
  },
} satisfies ExportedHandler;
