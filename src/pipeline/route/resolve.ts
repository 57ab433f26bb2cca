/**
 * Stage 5, route: a `provider/model` id resolved to the provider's adapter and
 * the target it prepares for this call; an unknown or unconfigured provider, or
 * one that does not serve the endpoint, is a 404 naming the model.
 */
import { ENDPOINTS } from '../../core/endpoints';
import { GatewayError } from '../../core/errors';
import type { ProviderRegistry } from '../../providers/registry';
import type { PrepareInput, ProviderAdapter, UpstreamTarget } from '../../providers/types';

export interface Route {
  readonly providerId: string;
  readonly upstreamModel: string;
  readonly adapter: ProviderAdapter;
  readonly target: UpstreamTarget;
  /** The call carries the tenant's own key (BYOK), not the deployment's. */
  readonly tenantKey: boolean;
}

/** The provider's id in a `provider/model` id, or null when the id is not of that shape. */
export function providerOf(model: string): string | null {
  const slash = model.indexOf('/');
  return slash <= 0 || slash === model.length - 1 ? null : model.slice(0, slash);
}

/**
 * `call` says what is being sent (endpoint, stream, allow-listed client
 * headers); `tenantKey` is the tenant's own key for the provider, if it stored one.
 */
export function resolveRoute(
  registry: ProviderRegistry,
  call: Omit<PrepareInput, 'model'> & { readonly model: string },
  tenantKey: string | null = null,
): Route {
  const { endpoint, model } = call;
  const slash = model.indexOf('/');
  if (slash <= 0 || slash === model.length - 1) {
    throw modelNotFound(
      `The model '${model}' does not exist. Name models as 'provider/model', e.g. 'openai/gpt-4o-mini'.`,
    );
  }
  const providerId = model.slice(0, slash);
  const adapter = registry.get(providerId, tenantKey);
  if (adapter === 'unknown')
    throw modelNotFound(`The model '${model}' does not exist: unknown provider '${providerId}'.`);
  if (adapter === 'unconfigured') {
    throw modelNotFound(
      `The model '${model}' is not available: provider '${providerId}' has no API key configured on this gateway.`,
      'provider_not_configured',
    );
  }
  const upstreamModel = model.slice(slash + 1);
  const target = adapter.prepare({ ...call, model: upstreamModel });
  if (!target)
    throw modelNotFound(
      `Provider '${providerId}' does not serve ${ENDPOINTS[endpoint].upstreamPath}.`,
      'unsupported_endpoint',
    );
  return { providerId, upstreamModel, adapter, target, tenantKey: tenantKey !== null };
}

function modelNotFound(message: string, code = 'model_not_found'): GatewayError {
  return new GatewayError(404, message, { param: 'model', code, type: 'invalid_request_error' });
}
