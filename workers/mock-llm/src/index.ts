/**
 * Edgeway's mock LLM upstream: OpenAI- and Anthropic-compatible endpoints with
 * deterministic answers and fault injection, for dev, tests and benchmarks, plus
 * two upstream MCP servers (src/mcp/). This file is routing only; each route
 * lives in its own module.
 */
import { handleBedrock } from './bedrock';
import { handleAzure, handleAzureV1 } from './azure';
import { handleChat } from './chat';
import { handleEmbeddings } from './embeddings';
import { handleGemini } from './gemini';
import { errorResponse } from './errors';
import type { Shape } from './http';
import { handleCountTokens, handleMessages } from './messages';
import { handleMcpFaulty } from './mcp/faulty';
import { handleMcpHealthy } from './mcp/healthy';
import { handleModels } from './models';
import { handleResponses, handleStoredResponse } from './responses';

interface Route {
  readonly methods: readonly ('GET' | 'POST' | 'DELETE')[];
  readonly handle: (request: Request) => Response | Promise<Response>;
}

const ROUTES: ReadonlyMap<string, Route> = new Map<string, Route>([
  ['/v1/chat/completions', { methods: ['POST'], handle: handleChat }],
  ['/v1/embeddings', { methods: ['POST'], handle: handleEmbeddings }],
  ['/v1/models', { methods: ['GET'], handle: handleModels }],
  ['/v1/messages', { methods: ['POST'], handle: handleMessages }],
  ['/v1/messages/count_tokens', { methods: ['POST'], handle: handleCountTokens }],
  ['/v1/responses', { methods: ['POST'], handle: handleResponses }],
  ['/mcp/healthy', { methods: ['POST', 'GET', 'DELETE'], handle: handleMcpHealthy }],
  ['/mcp/faulty', { methods: ['POST', 'GET', 'DELETE'], handle: handleMcpFaulty }],
]);

/**
 * Routes whose path carries a parameter (a model, deployment or response id),
 * matched by prefix in order: the other providers' native APIs and the stored
 * responses. Each handler reads the rest of the path itself.
 */
const PREFIX_ROUTES: readonly (readonly [string, Route])[] = [
  ['/v1beta/models/', { methods: ['POST'], handle: handleGemini }],
  ['/model/', { methods: ['POST'], handle: handleBedrock }],
  ['/openai/deployments/', { methods: ['POST'], handle: handleAzure }],
  ['/openai/v1/responses', { methods: ['GET', 'POST', 'DELETE'], handle: handleAzureV1 }],
  ['/v1/responses/', { methods: ['GET', 'DELETE'], handle: handleStoredResponse }],
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
    if (!(route.methods as readonly string[]).includes(request.method))
      return methodNotAllowed(shapeForPath(path), request.method, path, route.methods.join(', '));
    return route.handle(request);
  },
} satisfies ExportedHandler;
