/**
 * Stage 2, policy: one pure decision, (principal, request, now) → allow or
 * refuse, on whether this principal may make this request: stream support of
 * the endpoint, the model allow-list, and the key's or tenant's `max_tokens`
 * cap. It runs before the route is resolved, so a key learns nothing about
 * providers it may not use, and before anything is reserved.
 *
 * The body's size cap is not here: it must cut the read while the body is
 * still arriving (src/api/read-body.ts, 413), before there is a request to judge.
 */
import { ENDPOINTS } from '../core/endpoints';
import { GatewayError } from '../core/errors';
import { modelAllowed, type Principal } from '../core/principal';
import type { ProxyRequest } from '../core/request';
import { maxTokensLimit } from '../limits/estimate';

/** A refusal; `code` is its reason, and the error code the client is sent. */
export interface PolicyRefusal {
  readonly allow: false;
  readonly status: 400 | 403;
  readonly code: 'invalid_value' | 'model_not_allowed' | 'max_tokens_exceeded';
  readonly param: string | null;
  readonly message: string;
}

export type PolicyDecision = { readonly allow: true } | PolicyRefusal;

const ALLOW: PolicyDecision = { allow: true };

/** The checks in the order they are reported: the first refusal wins. */
export function checkPolicy(principal: Principal, request: ProxyRequest, _now: number): PolicyDecision {
  if (request.stream && !ENDPOINTS[request.endpoint].streamable) {
    return {
      allow: false,
      status: 400,
      code: 'invalid_value',
      param: 'stream',
      message: `'stream' is not supported on this endpoint.`,
    };
  }
  if (!modelAllowed(principal.models, request.model)) {
    return {
      allow: false,
      status: 403,
      code: 'model_not_allowed',
      param: 'model',
      message: `This key may not use the model '${request.model}'.`,
    };
  }
  const cap = maxTokensLimit(principal.limits, principal.tenantLimits);
  if (cap && request.maxOutputTokens !== null && request.maxOutputTokens > cap.limit) {
    const param = request.maxOutputTokensParam ?? 'max_tokens';
    const owner = cap.scope === 'key' ? 'this key' : "this key's tenant";
    return {
      allow: false,
      status: 400,
      code: 'max_tokens_exceeded',
      param,
      message: `'${param}' is ${request.maxOutputTokens}, above the ${cap.limit} allowed for ${owner}.`,
    };
  }
  return ALLOW;
}

/** The decision as the pipeline needs it: nothing when allowed, the refusal thrown otherwise. */
export function enforcePolicy(principal: Principal, request: ProxyRequest, now: number): void {
  const decision = checkPolicy(principal, request, now);
  if (!decision.allow)
    throw new GatewayError(decision.status, decision.message, { code: decision.code, param: decision.param });
}
