/**
 * Stage 3, limits: reserve the worst case before the upstream call, settle the
 * real usage after it. The Limiter port is filled by the per-tenant Durable
 * Object; a key with no limits configured has nothing to reserve.
 */
import type { ProxyRequest } from '../api/request';
import type { Usage } from '../sse/observer';
import type { Principal } from './auth';

export interface Reservation {
  /** Headers describing the caller's remaining allowance (`x-ratelimit-*`). */
  readonly headers: Readonly<Record<string, string>>;
  /** Record what the request really used; null when nothing was delivered. */
  settle(usage: Usage | null): Promise<void>;
}

export interface Limiter {
  /** Reserves capacity for the request, or throws a 429 GatewayError naming the limit hit. */
  reserve(principal: Principal, request: ProxyRequest): Promise<Reservation>;
}

const NOTHING_RESERVED: Reservation = { headers: {}, settle: async () => {} };

/** For deployments and keys without limits: every request is within bounds. */
export const unlimited: Limiter = {
  reserve: async () => NOTHING_RESERVED,
};
