/**
 * The limits stage's settings from [vars] (LIMITS_*), parsed once per isolate.
 * A bad value falls back to its default and is recorded as a ConfigProblem
 * (src/config.ts), which stops /v1 with a 503 naming the variable.
 */
import { choiceVar, positiveVar, type ConfigProblem } from '../config';

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
  /** Whether busy keys are admitted from per-isolate leases (src/limits/lease-size.ts). */
  readonly leases: boolean;
  /** How long a lease admits requests before it reports back. */
  readonly leaseMs: number;
}

export interface LimitsVars {
  LIMITS_FAIL_MODE?: string;
  LIMITS_DEFAULT_MAX_TOKENS?: string;
  LIMITS_RESERVATION_TTL_S?: string;
  LIMITS_TIMEOUT_MS?: string;
  LIMITS_LEASES?: string;
  LIMITS_LEASE_MS?: string;
}

export function readLimitsConfig(vars: LimitsVars, problems: ConfigProblem[] = []): LimitsConfig {
  const raw = vars as Readonly<Record<string, string | undefined>>;
  return {
    failMode: choiceVar(raw, 'LIMITS_FAIL_MODE', ['closed', 'open'], 'closed', problems),
    defaultMaxTokens: positiveVar(raw, 'LIMITS_DEFAULT_MAX_TOKENS', 4096, problems, {
      integer: true,
      max: 10_000_000,
    }),
    reservationTtlMs: positiveVar(raw, 'LIMITS_RESERVATION_TTL_S', 900, problems, { max: 86_400 }) * 1000,
    timeoutMs: positiveVar(raw, 'LIMITS_TIMEOUT_MS', 2000, problems, { max: 60_000 }),
    leases: choiceVar(raw, 'LIMITS_LEASES', ['on', 'off'], 'on', problems) === 'on',
    // Its closing runs in waitUntil, which the runtime keeps up to 30 s after the response.
    leaseMs: positiveVar(raw, 'LIMITS_LEASE_MS', 2000, problems, { max: 20_000 }),
  };
}
