/** The public endpoints the gateway proxies, described once so one handler can serve them all. */
import type { ErrorShape } from './errors';

export type Endpoint = 'chat' | 'embeddings' | 'messages';

/** The formats our public API speaks: OpenAI's and Anthropic's. */
export type ClientFormat = 'openai' | 'anthropic';

/** Every wire format a provider may speak; each has a codec (src/codecs/). */
export type WireFormat = ClientFormat | 'gemini' | 'bedrock' | 'workers-ai';

export interface EndpointSpec {
  /** Path under the provider's base URL. */
  readonly upstreamPath: string;
  /** Error envelope used on this route. */
  readonly shape: ErrorShape;
  /** Wire format of request and response bodies. */
  readonly format: ClientFormat;
  readonly streamable: boolean;
}

export const ENDPOINTS: Record<Endpoint, EndpointSpec> = {
  chat: { upstreamPath: '/chat/completions', shape: 'openai', format: 'openai', streamable: true },
  embeddings: { upstreamPath: '/embeddings', shape: 'openai', format: 'openai', streamable: false },
  messages: { upstreamPath: '/messages', shape: 'anthropic', format: 'anthropic', streamable: true },
};

export function shapeForPath(path: string): ErrorShape {
  return path.startsWith('/v1/messages') ? 'anthropic' : 'openai';
}
