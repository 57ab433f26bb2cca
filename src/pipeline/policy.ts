/**
 * Stage 2, policy: a pure decision on whether this principal may make this
 * request now. It runs before the route is resolved, so a key learns nothing
 * about providers it may not use.
 */
import { GatewayError } from '../core/errors';
import { modelAllowed, type Principal } from '../core/principal';
import type { ProxyRequest } from '../core/request';

export type PolicyDecision =
  | { allow: true }
  | { allow: false; status: number; code: string; message: string; param: string | null };

export function checkPolicy(principal: Principal, request: ProxyRequest, _now: number): PolicyDecision {
  if (!modelAllowed(principal.models, request.model)) {
    return {
      allow: false,
      status: 403,
      code: 'model_not_allowed',
      param: 'model',
      message: `This key may not use the model '${request.model}'.`,
    };
  }
  return { allow: true };
}

/** The decision as the pipeline needs it: nothing when allowed, the refusal thrown otherwise. */
export function enforcePolicy(principal: Principal, request: ProxyRequest, now: number): void {
  const decision = checkPolicy(principal, request, now);
  if (!decision.allow)
    throw new GatewayError(decision.status, decision.message, { code: decision.code, param: decision.param });
}
