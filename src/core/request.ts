/** Turns a parsed JSON body into the typed request every pipeline stage reads (pure). */
import type { z } from 'zod';
import { badRequest } from './errors';
import type { Endpoint } from './endpoints';
import { REQUEST_SCHEMAS } from './request-schemas';

export interface ProxyRequest {
  readonly endpoint: Endpoint;
  /** The validated body, unknown fields kept for the provider. */
  readonly body: Record<string, unknown>;
  /** The model id as the client wrote it (`provider/model` or an alias). */
  readonly model: string;
  readonly stream: boolean;
  /** Whether the client itself asked for the usage chunk of an OpenAI stream. */
  readonly clientWantsUsage: boolean;
  /** The client's cap on output tokens, if it set one. */
  readonly maxOutputTokens: number | null;
}

export function parseProxyRequest(endpoint: Endpoint, raw: unknown): ProxyRequest {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw badRequest('Request body must be a JSON object.', null, 'invalid_type');
  }
  const result = REQUEST_SCHEMAS[endpoint].safeParse(raw);
  if (!result.success) throw fromZod(result.error);
  const body = result.data as Record<string, unknown> & z.infer<(typeof REQUEST_SCHEMAS)['chat']>;
  const streamOptions = body.stream_options;
  const max = body.max_completion_tokens ?? body.max_tokens ?? null;
  return {
    endpoint,
    body,
    model: body.model,
    stream: body.stream === true,
    clientWantsUsage: streamOptions?.include_usage === true,
    maxOutputTokens: typeof max === 'number' ? max : null,
  };
}

function fromZod(error: z.ZodError) {
  const issue = error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  const what = issue?.message ?? 'Invalid request body';
  const missing = issue?.code === 'invalid_type' && /received undefined/.test(what);
  const message = path
    ? missing
      ? `Missing required parameter: '${path}'.`
      : `Invalid value for '${path}': ${what}.`
    : `Invalid request body: ${what}.`;
  return badRequest(message, path || null, missing ? 'missing_required_parameter' : 'invalid_value');
}
