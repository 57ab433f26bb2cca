/**
 * Azure OpenAI: OpenAI's wire format at a resource's deployment URLs. The
 * model part of `azure/<name>` is the deployment's name; the URL carries it
 * and the `api-version`, the key travels in `api-key`. Chat and Messages are
 * served at the deployment's chat completions (the codecs translate
 * /v1/messages); the Responses API at the resource's v1 surface
 * (`/openai/v1/responses`, no api-version), which names the deployment in the
 * body's `model`, as OpenAI's does, so it passes through untranslated. OpenAI's account headers (`openai-organization`,
 * `openai-project`) mean nothing to Azure and are not passed on.
 */
import type { Bindings } from '../env';
import type { HttpFetch } from './adapter';
import { fetcherFor } from './fetcher';
import { scrubSecrets } from './scrub';
import type { PrepareInput, ProviderAdapter, ProviderEntry, UpstreamTarget } from './types';

/** The latest generally available data-plane inference version for deployment URLs (learn.microsoft.com, Azure OpenAI REST reference). */
export const AZURE_DEFAULT_API_VERSION = '2024-10-21';

export function azureAdapter(
  baseUrl: string,
  apiVersion: string,
  apiKey: string | null,
  fetcher: HttpFetch,
): ProviderAdapter {
  const headers = new Headers({ 'content-type': 'application/json' });
  if (apiKey) headers.set('api-key', apiKey);
  const query = `?api-version=${encodeURIComponent(apiVersion)}`;
  return {
    id: 'azure',
    // Azure's correlation id, the one its diagnostic logs and support tickets use.
    requestIdHeader: 'apim-request-id',
    prepare(input: PrepareInput): UpstreamTarget {
      if (input.endpoint === 'responses') {
        return {
          endpoint: input.endpoint,
          model: input.model,
          stream: input.stream,
          url: `${baseUrl}/openai/v1/responses`,
          headers,
          format: 'responses',
        };
      }
      const path = input.endpoint === 'embeddings' ? 'embeddings' : 'chat/completions';
      return {
        endpoint: input.endpoint,
        model: input.model,
        stream: input.stream,
        url: `${baseUrl}/openai/deployments/${encodeURIComponent(input.model)}/${path}${query}`,
        headers,
        format: 'openai',
      };
    },
    send: (target, body, signal) =>
      fetcher(target.url, { method: 'POST', headers: target.headers, body, signal }),
    scrub: (message, maxChars) => scrubSecrets(message, apiKey ? [apiKey] : [], maxChars),
  };
}

/** `https://<resource>.openai.azure.com`, with any trailing slash or `/openai` (as the portal shows it) removed. */
export function azureBaseUrl(value: string | undefined): string | null {
  const trimmed = (value ?? '')
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/openai$/, '');
  return trimmed === '' ? null : trimmed;
}

/**
 * Configured by AZURE_OPENAI_BASE_URL and AZURE_OPENAI_API_KEY; a tenant may
 * bring its own key for the same resource. Without a base URL there is nowhere
 * to send a call, so the provider is unconfigured whatever keys exist.
 */
export function azureEntry(env: Bindings): ProviderEntry {
  const baseUrl = azureBaseUrl(env.AZURE_OPENAI_BASE_URL);
  const apiVersion = env.AZURE_OPENAI_API_VERSION || AZURE_DEFAULT_API_VERSION;
  const fetcher = fetcherFor(env, baseUrl ?? '');
  return {
    id: 'azure',
    deploymentKey: baseUrl ? env.AZURE_OPENAI_API_KEY || null : null,
    keyless: false,
    acceptsTenantKeys: baseUrl !== null,
    // Deployments are named by their owner: there is nothing to list before one is called.
    models: [],
    build: (key) => azureAdapter(baseUrl ?? '', apiVersion, key, fetcher),
  };
}
