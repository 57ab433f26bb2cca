/** The provider contract: every upstream, whatever its wire format, is reached through this. */
import type { Endpoint, WireFormat } from '../core/endpoints';

export interface UpstreamTarget {
  readonly url: string;
  readonly headers: Headers;
  readonly format: WireFormat;
}

export interface ProviderAdapter {
  readonly id: string;
  /** Where and how to call this provider for an endpoint, or null if it does not serve it. */
  prepare(endpoint: Endpoint): UpstreamTarget | null;
  /** The fetch used to reach it (the global fetch, or a service binding); url + init, so no Request is built. */
  fetch(url: string, init: RequestInit): Promise<Response>;
  /** A provider message with this provider's key and anything credential-shaped removed (src/providers/scrub.ts). */
  scrub(message: string, maxChars?: number): string;
}
