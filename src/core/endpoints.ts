/** The public endpoints the gateway proxies, described once so one handler can serve them all. */
export type Endpoint = 'chat' | 'embeddings' | 'messages';

/** The formats our public API speaks: OpenAI's and Anthropic's; each has a client codec (src/codecs/). */
export const CLIENT_FORMATS = ['openai', 'anthropic'] as const;
export type ClientFormat = (typeof CLIENT_FORMATS)[number];

/** Every wire format a provider may speak; each has a codec (src/codecs/). */
export type WireFormat = ClientFormat | 'gemini' | 'bedrock' | 'workers-ai';

export interface EndpointSpec {
  /** Path under the provider's base URL. */
  readonly upstreamPath: string;
  /** Wire format of request and response bodies, and of the errors on this route. */
  readonly format: ClientFormat;
  readonly streamable: boolean;
}

export const ENDPOINTS: Record<Endpoint, EndpointSpec> = {
  chat: { upstreamPath: '/chat/completions', format: 'openai', streamable: true },
  embeddings: { upstreamPath: '/embeddings', format: 'openai', streamable: false },
  messages: { upstreamPath: '/messages', format: 'anthropic', streamable: true },
};

/** The client format of a public path, for errors raised before its endpoint is known. */
export function formatForPath(path: string): ClientFormat {
  return path.startsWith('/v1/messages') ? 'anthropic' : 'openai';
}
