/** Stage 2, policy: a pure decision on whether this principal may make this request now. */
import type { ProxyRequest } from '../api/request';
import type { Principal } from './auth';

export type PolicyDecision = { allow: true } | { allow: false; status: number; code: string; message: string; param: string | null };

/** True when `model` matches an allow-list entry: an exact id or a `provider/*` pattern. */
export function modelAllowed(allowed: readonly string[] | null, model: string): boolean {
  if (allowed === null) return true;
  return allowed.some((entry) => (entry.endsWith('/*') ? model.startsWith(entry.slice(0, -1)) : entry === model));
}

export function checkPolicy(principal: Principal, request: ProxyRequest, _now: number): PolicyDecision {
  if (!modelAllowed(principal.models, request.model)) {
    return { allow: false, status: 403, code: 'model_not_allowed', param: 'model', message: `This key may not use the model '${request.model}'.` };
  }
  return { allow: true };
}
