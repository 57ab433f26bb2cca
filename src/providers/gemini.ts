/**
 * Google Gemini through its native Generative Language API: chat (both client
 * endpoints, translated by the Gemini codec) and embeddings. The URL names the
 * model and the method; the key travels in `x-goog-api-key`, never in the URL
 * (URLs end up in logs and error messages). Gemini sends no request id header.
 */
import type { Bindings } from '../env';
import type { HttpFetch } from './adapter';
import { fetcherFor } from './fetcher';
import { scrubSecrets } from './scrub';
import type { PrepareInput, ProviderAdapter, ProviderEntry, UpstreamTarget } from './types';

export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';

/** Listed in /v1/models when Gemini is configured; any other model id is passed through as asked. */
export const GEMINI_MODELS: readonly string[] = [
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'gemini-2.5-flash-lite',
  'gemini-2.0-flash',
  'gemini-2.0-flash-lite',
  'gemini-embedding-001',
  'text-embedding-004',
];

/** The Gemini method serving a call, with its query string. */
function method(input: PrepareInput): string {
  if (input.endpoint === 'embeddings') return 'batchEmbedContents';
  return input.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
}

export function geminiAdapter(baseUrl: string, apiKey: string | null, fetcher: HttpFetch): ProviderAdapter {
  const headers = new Headers({ 'content-type': 'application/json' });
  if (apiKey) headers.set('x-goog-api-key', apiKey);
  return {
    id: 'gemini',
    requestIdHeader: null,
    prepare(input: PrepareInput): UpstreamTarget {
      const model = encodeURIComponent(input.model);
      return {
        endpoint: input.endpoint,
        model: input.model,
        stream: input.stream,
        url: `${baseUrl}/v1beta/models/${model}:${method(input)}`,
        headers,
        format: 'gemini',
      };
    },
    send: (target, body, signal) =>
      fetcher(target.url, { method: 'POST', headers: target.headers, body, signal }),
    scrub: (message, maxChars) => scrubSecrets(message, apiKey ? [apiKey] : [], maxChars),
  };
}

/** Configured by GEMINI_API_KEY (a tenant may bring its own); GEMINI_BASE_URL points it elsewhere (tests, proxies). */
export function geminiEntry(env: Bindings): ProviderEntry {
  const baseUrl = (env.GEMINI_BASE_URL || GEMINI_BASE_URL).replace(/\/+$/, '');
  const fetcher = fetcherFor(env, baseUrl);
  return {
    id: 'gemini',
    deploymentKey: env.GEMINI_API_KEY || null,
    keyless: false,
    acceptsTenantKeys: true,
    models: GEMINI_MODELS,
    build: (key) => geminiAdapter(baseUrl, key, fetcher),
  };
}
