/** The limits stage's settings from [vars] (LIMITS_*), parsed once per isolate with safe defaults. */

/**
 * What a limited key's request gets when its tenant's Limiter cannot be reached.
 * "closed" (the default) refuses it with a 503: budgets are a promise of exact
 * spend, and a broken counter must not turn into unmetered spend. "open" lets
 * it through unmetered, for deployments that value availability over caps.
 * Keys without limits never reach the Limiter and are unaffected either way.
 */
export type FailMode = 'open' | 'closed';

export interface LimitsConfig {
  readonly failMode: FailMode;
  /** Output tokens reserved when neither the request nor the key/tenant sets max_tokens. */
  readonly defaultMaxTokens: number;
  /** An unsettled reservation is released after this long. */
  readonly reservationTtlMs: number;
  /** A Limiter call slower than this counts as a failure (and follows failMode). */
  readonly timeoutMs: number;
}

export interface LimitsVars {
  LIMITS_FAIL_MODE?: string;
  LIMITS_DEFAULT_MAX_TOKENS?: string;
  LIMITS_RESERVATION_TTL_S?: string;
  LIMITS_TIMEOUT_MS?: string;
}

function positive(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export function readLimitsConfig(vars: LimitsVars): LimitsConfig {
  return {
    failMode: vars.LIMITS_FAIL_MODE?.trim().toLowerCase() === 'open' ? 'open' : 'closed',
    defaultMaxTokens: Math.floor(positive(vars.LIMITS_DEFAULT_MAX_TOKENS, 4096)),
    reservationTtlMs: positive(vars.LIMITS_RESERVATION_TTL_S, 900) * 1000,
    timeoutMs: positive(vars.LIMITS_TIMEOUT_MS, 2000),
  };
}
