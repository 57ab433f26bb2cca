/**
 * The dashboard calls the admin API in-process, as the admin signed in to it.
 * It registers each Request it builds here with that admin; the admin API's
 * guard takes the principal from here instead of a token. Only code in this
 * isolate can put a Request in the map, and only the exact object: a request
 * from the network is never in it, whatever its headers say.
 */
import type { AdminPrincipal } from '../../core/admin-principal';

const delegated = new WeakMap<Request, AdminPrincipal>();

export function actAs(request: Request, who: AdminPrincipal): Request {
  delegated.set(request, who);
  return request;
}

export function delegatedPrincipal(request: Request): AdminPrincipal | null {
  return delegated.get(request) ?? null;
}
