/**
 * One target's call, made ready just before it is tried: the key in force
 * (the tenant's own, the deployment's, as the target's `credential` says),
 * the provider's adapter and target, and the body, with the target's
 * overrides applied and translated when the provider speaks another format.
 * A target that cannot be prepared throws a GatewayError saying why; the
 * fallback loop decides whether that ends the request. A translation that
 * would drop fields or headers is such a target when the key's, its
 * tenant's or the route's `on_unsupported` policy refuses drops.
 */
import type { Principal } from '../../core/principal';
import { type ProxyRequest, parseProxyRequest } from '../../core/request';
import type { TargetOverrides } from '../../core/route-spec';
import { ENDPOINTS } from '../../core/endpoints';
import { GatewayError } from '../../core/errors';
import { unsupportedRefusal } from '../../core/unsupported-policy';
import type { Deps } from '../../ports';
import { mayBeLimited } from '../../limits/scopes';
import { outputCapFor } from '../../limits/worst-case';
import { headersNotFor } from '../../providers/pass-headers';
import { tenantProviderKey } from '../../providers/tenant-key';
import type { PlannedTarget } from '../../routing/plan';
import { providerOf, type Route, resolveRoute } from './resolve';
import { type AnswerTranslation, outbound } from './translate';

export interface PreparedCall {
  readonly planned: PlannedTarget;
  readonly route: Route;
  readonly body: string;
  readonly translation: AnswerTranslation | null;
  /** Client fields and headers the provider was not sent (x-edgeway-dropped). */
  readonly dropped: readonly string[];
}

export interface PrepareContext {
  readonly deps: Pick<Deps, 'providers' | 'limitsConfig'>;
  readonly principal: Principal;
  readonly request: ProxyRequest;
  readonly passHeaders: readonly (readonly [string, string])[];
  /** PROVIDER_KEYS_SECRET, to open the tenant's own keys. */
  readonly keysSecret: string | undefined;
  /** The id a translated answer is known by, where the client's format names answers (`resp_…`). */
  readonly responseId: string;
}

export async function prepareCall(ctx: PrepareContext, planned: PlannedTarget): Promise<PreparedCall> {
  const { deps, principal } = ctx;
  const outputCap = outputCapFor(principal, ctx.request, deps.limitsConfig.defaultMaxTokens);
  const request = planned.overrides ? withOverrides(ctx.request, planned.overrides, outputCap) : ctx.request;
  const route = resolveRoute(
    deps.providers,
    {
      endpoint: request.endpoint,
      model: planned.model,
      stream: request.stream,
      passHeaders: ctx.passHeaders,
    },
    await keyFor(ctx, planned),
  );
  const { body, translation, dropped } = outbound(
    request,
    route.target,
    {
      model: route.upstreamModel,
      providerId: route.providerId,
      outputCap,
      enforceCap: limited(principal),
      dropped: [],
    },
    ctx.responseId,
  );
  const headers = headersNotFor(route.target.format, ctx.passHeaders);
  const left = headers.length ? [...dropped, ...headers] : dropped;
  if (left.length > 0) {
    const policies = {
      key: principal.onUnsupported,
      tenant: principal.tenantOnUnsupported,
      route: planned.onUnsupported,
    };
    const refusal = unsupportedRefusal(left, policies, planned.model, route.target.format);
    if (refusal) throw refusal;
  }
  return { planned, route, body, translation, dropped: left };
}

/**
 * Whether the key has limits, once per key record: records come from the key store's isolate memory, the
 * same object for every request of a key until it is reloaded, and are never changed in place.
 */
const limitedKeys = new WeakMap<Principal, boolean>();
function limited(principal: Principal): boolean {
  let known = limitedKeys.get(principal);
  if (known === undefined) {
    known = mayBeLimited(principal);
    limitedKeys.set(principal, known);
  }
  return known;
}

/** The tenant's own key for a target's provider when the target may use it; null for the deployment's. */
export async function keyFor(
  ctx: Pick<PrepareContext, 'principal' | 'keysSecret'>,
  planned: PlannedTarget,
): Promise<string | null> {
  if (planned.credential === 'deployment') return null;
  const providerId = providerOf(planned.model);
  const key = providerId ? await tenantProviderKey(ctx.principal, providerId, ctx.keysSecret) : null;
  if (key === null && planned.credential === 'tenant') {
    throw new GatewayError(
      404,
      `This route's target '${planned.model}' uses the tenant's own key, and none is stored for it.`,
      { param: 'model', code: 'tenant_key_missing', type: 'invalid_request_error' },
    );
  }
  return key;
}

/**
 * The request with a target's overrides: temperature and top_p replace the
 * client's; max_tokens only lowers the cap (never above what the limits
 * stage reserved, so a fallback cannot spend more than was held).
 */
export function withOverrides(
  request: ProxyRequest,
  overrides: TargetOverrides,
  outputCap: number,
): ProxyRequest {
  if (request.endpoint === 'embeddings') return request;
  const body: Record<string, unknown> = { ...request.body };
  if (overrides.temperature !== undefined) body.temperature = overrides.temperature;
  if (overrides.top_p !== undefined) body.top_p = overrides.top_p;
  if (overrides.max_tokens !== undefined) {
    const cap = Math.min(overrides.max_tokens, request.maxOutputTokens ?? outputCap);
    body[request.maxOutputTokensParam ?? ENDPOINTS[request.endpoint].outputCapParam ?? 'max_tokens'] = cap;
  }
  return parseProxyRequest(request.endpoint, body);
}
