/** The provider contract: every upstream, whatever its wire format or transport, is reached through this. */
import type { Endpoint, WireFormat } from '../core/endpoints';

/** One call's destination, built per request by the provider's adapter. */
export interface UpstreamTarget {
  readonly endpoint: Endpoint;
  /** The provider's own model id (after `provider/`). */
  readonly model: string;
  readonly stream: boolean;
  readonly url: string;
  readonly headers: Headers;
  /** The wire format the provider speaks there; its codec writes the body and reads the answer. */
  readonly format: WireFormat;
}

export interface PrepareInput {
  readonly endpoint: Endpoint;
  readonly model: string;
  readonly stream: boolean;
  /** Client headers allowed through to this provider (src/providers/pass-headers.ts); usually empty. */
  readonly passHeaders: readonly (readonly [string, string])[];
}

export interface ProviderAdapter {
  readonly id: string;
  /** Where and how to call this provider, or null when it does not serve the endpoint. */
  prepare(input: PrepareInput): UpstreamTarget | null;
  /**
   * Sends one body. The answer is an HTTP response whatever the transport (a
   * binding, a signed request, a binary event stream): a stream's body is
   * Server-Sent Events, an error is the provider's status and error body.
   * A network failure rejects; `signal` aborts the call.
   */
  send(target: UpstreamTarget, body: string, signal: AbortSignal): Promise<Response>;
  /** A provider message with this provider's key and anything credential-shaped removed (src/providers/scrub.ts). */
  scrub(message: string, maxChars?: number): string;
  /** The response header holding the provider's request id, relayed as `x-edgeway-upstream-request-id`. */
  readonly requestIdHeader: string | null;
}

/**
 * A provider this deployment knows, before a key is chosen. `build` makes the
 * adapter for a key: the deployment's secret, or a tenant's own key (BYOK).
 */
export interface ProviderEntry {
  readonly id: string;
  /** The deployment's credential for it, or null when none is set. */
  readonly deploymentKey: string | null;
  /** Whether it works with no key at all (self-hosted servers, bindings). */
  readonly keyless: boolean;
  /** Whether a tenant may bring its own key for it. */
  readonly acceptsTenantKeys: boolean;
  /** Model ids it offers beyond the priced catalogue, for /v1/models (without the `provider/` prefix). */
  readonly models: readonly string[];
  build(key: string | null): ProviderAdapter;
}
