/**
 * The last quota each key saw in this isolate, so responses that never reach
 * the Limiter (a 400 before the reservation, a provider error after it) still
 * carry `x-ratelimit-*` headers without a Durable Object round trip. Values
 * are indicative (other isolates spend too) and age out at the window reset.
 * Isolate-wide and bounded: cleared when full, like the key cache.
 */
import type { Principal } from '../core/principal';
import { project, quotaHeaders, type QuotaSnapshot } from './headers';
import type { Quota } from './protocol';

const MAX_KEYS = 10_000;
const snapshots = new Map<string, QuotaSnapshot>();

export function remember(keyId: string, quota: Quota, now: number): void {
  if (!quota.requests && !quota.tokens) return;
  if (snapshots.size >= MAX_KEYS && !snapshots.has(keyId)) snapshots.clear();
  snapshots.set(keyId, { quota, at: now });
}

/** Headers for a response of this principal from what the isolate knows; only the limits when it knows nothing yet. */
export function knownHeaders(principal: Principal, now: number): Record<string, string> {
  const snapshot = snapshots.get(principal.id);
  if (snapshot) return quotaHeaders(project(snapshot, now));
  const out: Record<string, string> = {};
  const rpm = tightest(principal.limits.rpm, principal.tenantLimits.rpm);
  const tpm = tightest(principal.limits.tpm, principal.tenantLimits.tpm);
  if (rpm !== undefined) out['x-ratelimit-limit-requests'] = String(rpm);
  if (tpm !== undefined) out['x-ratelimit-limit-tokens'] = String(tpm);
  return out;
}

function tightest(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}
