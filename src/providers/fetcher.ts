/**
 * How an adapter reaches its base URL: the global fetch, or, where the mock
 * LLM is bound as a service (tests), that binding for URLs on the mock's
 * origin, so any provider can be pointed at the mock's fake of its API.
 */
import type { Bindings } from '../env';
import type { HttpFetch } from './adapter';

export const globalFetch: HttpFetch = (url, init) => fetch(url, init);

export function fetcherFor(env: Pick<Bindings, 'MOCK_LLM' | 'MOCK_LLM_URL'>, baseUrl: string): HttpFetch {
  const binding = env.MOCK_LLM;
  if (!binding || !env.MOCK_LLM_URL) return globalFetch;
  let mockOrigin: string;
  try {
    mockOrigin = new URL(env.MOCK_LLM_URL).origin;
  } catch {
    return globalFetch;
  }
  if (!baseUrl.startsWith(mockOrigin)) return globalFetch;
  return (url, init) => binding.fetch(url, init);
}
