/**
 * The one adapter for table-driven providers. Wire formats differ only in how
 * the key is presented (and Anthropic's version header); bodies pass through.
 * The adapter keeps its key: it is sent upstream and scrubbed from what comes back.
 */
import { ENDPOINTS, type Endpoint, type WireFormat } from '../core/endpoints';
import { scrubSecrets } from './scrub';
import type { ProviderRow } from './table';
import type { ProviderAdapter, UpstreamTarget } from './types';

const ANTHROPIC_VERSION = '2023-06-01';

export function authHeaders(format: WireFormat, apiKey: string): Headers {
  const headers = new Headers({ 'content-type': 'application/json' });
  if (format === 'anthropic') {
    headers.set('x-api-key', apiKey);
    headers.set('anthropic-version', ANTHROPIC_VERSION);
  } else {
    headers.set('authorization', `Bearer ${apiKey}`);
  }
  return headers;
}

export function tableAdapter(
  row: ProviderRow,
  apiKey: string,
  fetcher: (url: string, init: RequestInit) => Promise<Response>,
): ProviderAdapter {
  const targets = new Map<Endpoint, UpstreamTarget>();
  for (const [endpoint, format] of Object.entries(row.serves) as [Endpoint, WireFormat][]) {
    targets.set(endpoint, {
      url: row.baseUrl + ENDPOINTS[endpoint].upstreamPath,
      headers: authHeaders(format, apiKey),
      format,
    });
  }
  return {
    id: row.id,
    prepare: (endpoint) => targets.get(endpoint) ?? null,
    fetch: fetcher,
    scrub: (message, maxChars) => scrubSecrets(message, [apiKey], maxChars),
  };
}
