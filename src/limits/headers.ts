/**
 * OpenAI-style rate-limit headers (pure): `x-ratelimit-limit-requests`,
 * `-remaining-requests`, `-reset-requests` and the `-tokens` variants, present
 * only for the windows the key or tenant actually has. Reset durations use
 * OpenAI's format ("20ms", "1s", "6m0s").
 */
import type { Allowance, Quota } from './protocol';

export function formatDuration(ms: number): string {
  if (ms <= 0) return '0s';
  if (ms < 1000) return `${Math.ceil(ms)}ms`;
  const total = Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  return m > 0 ? `${m}m${s}s` : `${s}s`;
}

export function quotaHeaders(quota: Quota): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (kind: 'requests' | 'tokens', a: Allowance | null) => {
    if (!a) return;
    out[`x-ratelimit-limit-${kind}`] = String(a.limit);
    out[`x-ratelimit-remaining-${kind}`] = String(a.remaining);
    out[`x-ratelimit-reset-${kind}`] = formatDuration(a.resetMs);
  };
  put('requests', quota.requests);
  put('tokens', quota.tokens);
  return out;
}

/** `retry-after` in whole seconds (at least 1); absent when waiting cannot help. */
export function retryAfterHeader(ms: number | null): Record<string, string> {
  return ms === null ? {} : { 'retry-after': String(Math.max(1, Math.ceil(ms / 1000))) };
}

/** A quota as seen at `at`, for answering later requests of the same key without asking again. */
export interface QuotaSnapshot {
  readonly quota: Quota;
  readonly at: number;
}

/** The snapshot moved forward to `now`: a window whose reset has passed is full again. */
export function project(snapshot: QuotaSnapshot, now: number): Quota {
  const elapsed = Math.max(0, now - snapshot.at);
  const move = (a: Allowance | null): Allowance | null => {
    if (!a) return null;
    if (elapsed >= a.resetMs) return { limit: a.limit, remaining: a.limit, resetMs: 0 };
    return { ...a, resetMs: a.resetMs - elapsed };
  };
  return { requests: move(snapshot.quota.requests), tokens: move(snapshot.quota.tokens) };
}
