/**
 * Turns a parsed JSON body into the typed request every pipeline stage reads
 * (pure). The numbers it lifts out for the limiter (output cap, choices) come
 * only from fields the endpoint's own schema validated: on /v1/messages that is
 * `max_tokens` alone, since the Messages API has no `max_completion_tokens`
 * or `n` (a client that sends them has them passed through, never counted).
 */
import type * as z from 'zod';
import { badRequest } from './errors';
import type { Endpoint } from './endpoints';
import { certainlyValid } from './request-check';
import { type ChatBody, type MessagesBody, REQUEST_SCHEMAS, type ResponsesBody } from './request-schemas';

export interface ProxyRequest {
  readonly endpoint: Endpoint;
  /** The validated body, unknown fields kept for the provider. */
  readonly body: Record<string, unknown>;
  /** The model id as the client wrote it (`provider/model` or an alias). */
  readonly model: string;
  readonly stream: boolean;
  /** Whether the client itself asked for the usage chunk of an OpenAI stream. */
  readonly clientWantsUsage: boolean;
  /** The client's cap on output tokens per choice, if it set one (1…MAX_OUTPUT_TOKENS). */
  readonly maxOutputTokens: number | null;
  /** The body field that cap came from, to name it in errors. */
  readonly maxOutputTokensParam: 'max_tokens' | 'max_completion_tokens' | 'max_output_tokens' | null;
  /** Choices the client asked for (chat's `n`, 1…MAX_CHOICES); 1 elsewhere. */
  readonly choices: number;
}

export function parseProxyRequest(endpoint: Endpoint, raw: unknown): ProxyRequest {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw badRequest('Request body must be a JSON object.', null, 'invalid_type');
  }
  const body = validBody(endpoint, raw as Record<string, unknown>) as Record<string, unknown> & {
    model: string;
    stream?: boolean | null;
  };
  return {
    endpoint,
    body,
    model: body.model,
    stream: body.stream === true,
    clientWantsUsage: endpoint === 'chat' && (body as ChatBody).stream_options?.include_usage === true,
    ...limitFields(endpoint, body),
  };
}

/** The body as parsed when it is certainly valid (no copy); else the schema's result, or its 400. */
function validBody(endpoint: Endpoint, raw: Record<string, unknown>): Record<string, unknown> {
  if (certainlyValid(endpoint, raw)) return raw;
  const result = REQUEST_SCHEMAS[endpoint].safeParse(raw);
  if (!result.success) throw fromZod(result.error);
  return result.data;
}

type LimitFields = Pick<ProxyRequest, 'maxOutputTokens' | 'maxOutputTokensParam' | 'choices'>;

/** The validated numbers the limiter reads, per endpoint. */
function limitFields(endpoint: Endpoint, body: Record<string, unknown>): LimitFields {
  if (endpoint === 'chat') {
    const chat = body as ChatBody;
    const param =
      chat.max_completion_tokens != null
        ? 'max_completion_tokens'
        : chat.max_tokens != null
          ? 'max_tokens'
          : null;
    return {
      maxOutputTokens: param ? (chat[param] ?? null) : null,
      maxOutputTokensParam: param,
      choices: chat.n ?? 1,
    };
  }
  if (endpoint === 'messages')
    return {
      maxOutputTokens: (body as MessagesBody).max_tokens,
      maxOutputTokensParam: 'max_tokens',
      choices: 1,
    };
  if (endpoint === 'responses') {
    const cap = (body as ResponsesBody).max_output_tokens ?? null;
    return {
      maxOutputTokens: cap,
      maxOutputTokensParam: cap === null ? null : 'max_output_tokens',
      choices: 1,
    };
  }
  return { maxOutputTokens: null, maxOutputTokensParam: null, choices: 1 };
}

/** A schema's first issue as the 400 naming its field. */
export function fromZod(error: z.ZodError) {
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
