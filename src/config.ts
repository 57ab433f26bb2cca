/** Numeric settings from [vars], parsed once per isolate with safe defaults. */
import type { Bindings } from './env';

export interface Config {
  readonly maxBodyBytes: number;
  readonly ttfbTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly maxAttempts: number;
}

function positive(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export function readConfig(env: Bindings): Config {
  return {
    maxBodyBytes: positive(env.MAX_BODY_BYTES, 1_048_576),
    ttfbTimeoutMs: positive(env.UPSTREAM_TTFB_TIMEOUT_MS, 60_000),
    idleTimeoutMs: positive(env.UPSTREAM_IDLE_TIMEOUT_MS, 30_000),
    maxAttempts: 1,
  };
}
