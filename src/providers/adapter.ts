/**
 * The one adapter for table rows (src/providers/table.ts): OpenAI- and
 * Anthropic-format providers over HTTP differ only in their base URL, how the
 * key is presented, and Anthropic's version header. A client endpoint the row
 * does not serve natively is served through its other chat endpoint, the codecs
 * translating (an Anthropic row answers /v1/chat/completions via /messages).
 * The adapter keeps its key: it is sent upstream and scrubbed from what comes back.
 */
import { type ClientFormat, ENDPOINTS, type Endpoint } from '../core/endpoints';
import { headersFor } from './pass-headers';
import { scrubSecrets } from './scrub';
import type { ProviderRow } from './table';
import type { PrepareInput, ProviderAdapter, UpstreamTarget } from './types';

export const ANTHROPIC_VERSION = '2023-06-01';

export type HttpFetch = (url: string, init: RequestInit) => Promise<Response>;

export function authHeaders(format: ClientFormat, apiKey: string | null): Headers {
  const headers = new Headers({ 'content-type': 'application/json' });
  if (format === 'anthropic') {
    if (apiKey) headers.set('x-api-key', apiKey);
    headers.set('anthropic-version', ANTHROPIC_VERSION);
  } else if (apiKey) {
    headers.set('authorization', `Bearer ${apiKey}`);
  }
  return headers;
}

/**
 * The endpoint the row is called at for a client endpoint: its own, or another chat endpoint it
 * serves (the codecs translate). The Responses API is served natively only where a row says so
 * (OpenAI, the mock); elsewhere through Chat Completions, or Messages for an Anthropic row.
 */
function servedAs(row: ProviderRow, endpoint: Endpoint): Endpoint | null {
  if (row.serves[endpoint]) return endpoint;
  if (endpoint === 'embeddings') return null;
  if (endpoint !== 'chat' && row.serves.chat) return 'chat';
  if (endpoint !== 'messages' && row.serves.messages) return 'messages';
  return null;
}

export function tableAdapter(row: ProviderRow, apiKey: string | null, fetcher: HttpFetch): ProviderAdapter {
  const bases = new Map<Endpoint, { url: string; headers: Headers; format: ClientFormat }>();
  for (const endpoint of Object.keys(ENDPOINTS) as Endpoint[]) {
    const native = servedAs(row, endpoint);
    const format = native ? row.serves[native] : undefined;
    if (!native || !format) continue;
    const headers = authHeaders(format, apiKey);
    for (const [name, value] of Object.entries(row.headers ?? {})) headers.set(name, value);
    bases.set(endpoint, { url: row.baseUrl + ENDPOINTS[native].upstreamPath, headers, format });
  }
  return {
    id: row.id,
    requestIdHeader: row.requestIdHeader ?? null,
    prepare(input: PrepareInput): UpstreamTarget | null {
      const base = bases.get(input.endpoint);
      if (!base) return null;
      const extra = headersFor(base.format, input.passHeaders);
      let headers = base.headers;
      if (extra.length > 0) {
        headers = new Headers(base.headers);
        for (const [name, value] of extra) headers.set(name, value);
      }
      return {
        endpoint: input.endpoint,
        model: input.model,
        stream: input.stream,
        url: base.url,
        headers,
        format: base.format,
      };
    },
    send: (target, body, signal) =>
      fetcher(target.url, { method: 'POST', headers: target.headers, body, signal }),
    scrub: (message, maxChars) => scrubSecrets(message, apiKey ? [apiKey] : [], maxChars),
  };
}
