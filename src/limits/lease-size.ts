/**
 * How many requests a lease may admit (pure), decided by the tenant's Limiter
 * object when an isolate asks for `want` requests like the one in hand.
 *
 * A lease is a hold like a reservation's, of `requests` requests and that many
 * times the request's worst case in tokens and nano-dollars, which the isolate
 * then spends locally (src/limits/lease.ts). Because it is a hold, admission
 * stays exact: no lease is granted past `spent + held ≤ limit`, and budgets are
 * overspent only as a single reservation can be (by a request's use past its
 * own worst case). What leasing costs is stranded allowance: what one isolate
 * holds, another cannot spend until the lease closes. So a lease takes at most
 * 1/LEASE_SHARE of any limit's remaining headroom, and when that is less than
 * two requests' worth the grant is 1: a plain reservation, so a nearly spent
 * limit (or a small one) is decided request by request, exactly as without
 * leases. A concurrency limit counts requests in flight, which a lease cannot
 * know, so a scope with one is never leased.
 */
import { budgetsOf, type ScopeView } from './check';
import { downgradeCeiling } from './downgrade';
import type { Charge, Grant } from './protocol';
import { used } from './window';

/** A lease takes at most this fraction (1/n) of any limit's remaining headroom. */
export const LEASE_SHARE = 8;
/** The most requests one lease admits. */
export const MAX_LEASE_REQUESTS = 1_000;

/**
 * Requests to grant (1 … want); 1 is a plain reservation. A scope with a downgrade counts its budgets
 * only up to the downgrade's percent (unless the request was already downgraded).
 */
export function leaseSize(
  views: readonly ScopeView[],
  cost: Charge,
  want: number,
  now: number,
  downgraded = false,
): number {
  let n = Math.min(Math.floor(want), MAX_LEASE_REQUESTS);
  if (!(n >= 2)) return 1;
  const bound = (limit: number, usedSoFar: number, each: number) => {
    if (each <= 0) return;
    n = Math.min(n, Math.floor(Math.max(0, limit - usedSoFar) / (LEASE_SHARE * each)));
  };
  for (const view of views) {
    const { limits } = view.settings;
    if (limits.concurrent !== undefined) return 1;
    if (limits.rpm !== undefined) bound(limits.rpm, used(view.state.requests, now), 1);
    if (limits.tpm !== undefined) bound(limits.tpm, used(view.state.tokens, now), cost.tokens);
    for (const b of budgetsOf(view, cost, 1))
      bound(downgradeCeiling(b.limit, view, downgraded), b.used, b.amount);
  }
  return n >= 2 ? n : 1;
}

/** The hold of a grant of `requests` requests like one costing `cost`. */
export function grantOf(cost: Charge, requests: number): Grant {
  return { requests, tokens: cost.tokens * requests, nanos: cost.nanos * requests };
}
