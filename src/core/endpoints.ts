/** The public endpoints the gateway proxies, described once so one handler can serve them all. */
export type Endpoint = 'chat' | 'embeddings' | 'messages' | 'responses';

/**
 * The formats our public API speaks: OpenAI's Chat Completions (`openai`), OpenAI's Responses API
 * (`responses`) and Anthropic's Messages (`anthropic`); each has a client codec (src/codecs/).
 */
export const CLIENT_FORMATS = ['openai', 'anthropic', 'responses'] as const;
export type ClientFormat = (typeof CLIENT_FORMATS)[number];

/** Every wire format a provider may speak; each has a codec (src/codecs/). */
export type WireFormat = ClientFormat | 'responses' | 'gemini' | 'bedrock' | 'workers-ai';

export interface EndpointSpec {
  /** Path under the provider's base URL. */
  readonly upstreamPath: string;
  /** Wire format of request and response bodies, and of the errors on this route. */
  readonly format: ClientFormat;
  readonly streamable: boolean;
  /**
   * Answers may be stored and continued (the Responses API's `store` and `previous_response_id`,
   * src/pipeline/conversation.ts); false everywhere else, which then pays nothing for it.
   */
  readonly stored: boolean;
  /** The body field that caps output tokens on this endpoint (null: it has none). */
  readonly outputCapParam: 'max_tokens' | 'max_output_tokens' | null;
}

export const ENDPOINTS: Record<Endpoint, EndpointSpec> = {
  chat: {
    upstreamPath: '/chat/completions',
    format: 'openai',
    streamable: true,
    stored: false,
    outputCapParam: 'max_tokens',
  },
  embeddings: { upstreamPath: '/embeddings', format: 'openai', streamable: false, stored: false, outputCapParam: null },
  messages: {
    upstreamPath: '/messages',
    format: 'anthropic',
    streamable: true,
    stored: false,
    outputCapParam: 'max_tokens',
  },
  responses: {
    upstreamPath: '/responses',
    format: 'responses',
    streamable: true,
    stored: true,
    outputCapParam: 'max_output_tokens',
  },
};

/** The client format of a public path, for errors raised before its endpoint is known. */
export function formatForPath(path: string): ClientFormat {
  if (path.startsWith('/v1/messages')) return 'anthropic';
  return path.startsWith('/v1/responses') ? 'responses' : 'openai';
}

/** The paths that answer in either format, by the client's own headers: /v1/models and /v1/models/{id} (never an empty id). */
export function isModelsPath(path: string): boolean {
  return path === '/v1/models' || (path.startsWith('/v1/models/') && path.length > '/v1/models/'.length);
}

/**
 * The client format of a request, for its errors: its path's, except on the models paths, where a request
 * carrying `anthropic-version` (every Anthropic SDK sends it) is answered in Anthropic's format.
 */
export function formatForRequest(path: string, headers: Headers | null): ClientFormat {
  if (headers !== null && isModelsPath(path))
    return headers.has('anthropic-version') ? 'anthropic' : 'openai';
  return formatForPath(path);
}
