/**
 * Settings from [vars], read once per isolate (src/deps.ts), and the one shape
 * a configuration mistake takes: a ConfigProblem naming the variable and what
 * is wrong with its value, never the value itself (some variables are secrets).
 * A bad value falls back to its default so the adapters can still be built,
 * but the problem is kept: /v1 then answers 503 `configuration_error` and
 * /healthz reports it (src/health.ts), instead of silently running on defaults.
 */
import { GatewayError } from './core/errors';
import type { Bindings } from './env';

export interface Config {
  readonly maxBodyBytes: number;
  readonly ttfbTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly maxAttempts: number;
  /** How long an isolate's log batch that does not fill waits before it is sent (LOG_BATCH_WAIT_MS). */
  readonly logBatchWaitMs: number;
  /** Days a stored response is kept when its tenant sets none (RESPONSES_RETENTION_DAYS; 0 stores none). */
  readonly responsesRetentionDays: number;
}

export interface ConfigProblem {
  /** The variable or secret at fault, e.g. `MAX_BODY_BYTES`. */
  readonly variable: string;
  /** A sentence naming the variable and the problem, without its value. */
  readonly message: string;
}

/** Thrown by parsers of a single variable; deps.ts turns it into a ConfigProblem. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

export interface NumberRule {
  readonly integer?: boolean;
  readonly max?: number;
}

/**
 * A positive number from a variable: absent or blank → the default, silently;
 * anything else that is not a positive (integer) number within `max` → the
 * default, and a problem recorded.
 */
export function positiveVar(
  vars: Readonly<Record<string, string | undefined>>,
  name: string,
  fallback: number,
  problems: ConfigProblem[],
  rule: NumberRule = {},
): number {
  const raw = vars[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  const wrong = !Number.isFinite(n)
    ? 'is not a number'
    : n <= 0
      ? 'must be greater than 0'
      : rule.integer && !Number.isInteger(n)
        ? 'must be a whole number'
        : rule.max !== undefined && n > rule.max
          ? `must be at most ${rule.max}`
          : null;
  if (wrong === null) return n;
  problems.push({ variable: name, message: `${name} ${wrong}.` });
  return fallback;
}

/** One of a fixed set of words: absent or blank → the default; anything else is a problem. */
export function choiceVar<T extends string>(
  vars: Readonly<Record<string, string | undefined>>,
  name: string,
  choices: readonly T[],
  fallback: T,
  problems: ConfigProblem[],
): T {
  const raw = vars[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  const hit = choices.find((c) => c === raw);
  if (hit) return hit;
  problems.push({
    variable: name,
    message: `${name} must be one of ${choices.join(', ')}.`,
  });
  return fallback;
}

const DAY_MS = 86_400_000;
/** The default of RESPONSES_RETENTION_DAYS: OpenAI keeps stored responses 30 days. */
export const RESPONSES_RETENTION_DAYS = 30;
/** The longest retention a deployment or tenant may set for stored responses: ten years. */
export const MAX_RETENTION_DAYS = 3650;

/** A whole number of days, 0 to MAX_RETENTION_DAYS: absent or blank → the default; anything else is a problem. */
function daysVar(
  vars: Readonly<Record<string, string | undefined>>,
  name: string,
  fallback: number,
  problems: ConfigProblem[],
): number {
  const raw = vars[name]?.trim();
  if (!raw) return fallback;
  if (/^\d{1,5}$/.test(raw) && Number(raw) <= MAX_RETENTION_DAYS) return Number(raw);
  problems.push({
    variable: name,
    message: `${name} must be a whole number of days from 0 to ${MAX_RETENTION_DAYS}.`,
  });
  return fallback;
}
/** The default of LOG_BATCH_WAIT_MS (src/logs/produce/batcher.ts says what the wait costs and saves). */
export const LOG_BATCH_WAIT_MS = 1000;

export function readConfig(env: Bindings, problems: ConfigProblem[] = []): Config {
  const vars = env as unknown as Record<string, string | undefined>;
  const config = {
    maxBodyBytes: positiveVar(vars, 'MAX_BODY_BYTES', 1_048_576, problems, { integer: true }),
    ttfbTimeoutMs: positiveVar(vars, 'UPSTREAM_TTFB_TIMEOUT_MS', 60_000, problems, { max: DAY_MS }),
    idleTimeoutMs: positiveVar(vars, 'UPSTREAM_IDLE_TIMEOUT_MS', 30_000, problems, { max: DAY_MS }),
    // Tries per target before a route moves on (cf-aig-max-attempts overrides it per request).
    maxAttempts: positiveVar(vars, 'UPSTREAM_MAX_ATTEMPTS', 1, problems, { integer: true, max: 5 }),
    logBatchWaitMs: positiveVar(vars, 'LOG_BATCH_WAIT_MS', LOG_BATCH_WAIT_MS, problems, { max: 10_000 }),
    responsesRetentionDays: daysVar(vars, 'RESPONSES_RETENTION_DAYS', RESPONSES_RETENTION_DAYS, problems),
  };
  // Read where they are used (logs/retention.ts, core/payload.ts); validated here so a bad one is reported.
  positiveVar(vars, 'LOG_RETENTION_DAYS', 30, problems, { integer: true, max: 36_500 });
  if (vars.LOG_INDEX_DAYS !== undefined && !/^\d{1,5}$/.test(vars.LOG_INDEX_DAYS)) {
    problems.push({
      variable: 'LOG_INDEX_DAYS',
      message: 'LOG_INDEX_DAYS must be a whole number of days, 0 or more.',
    });
  }
  // Above its 64 KiB cap LOG_PAYLOAD_MAX_BYTES is clamped, as documented, not refused.
  positiveVar(vars, 'LOG_PAYLOAD_MAX_BYTES', 32_768, problems, { integer: true });
  choiceVar(vars, 'LOG_SINK', ['queue', 'console', 'off'], 'queue', problems);
  if (env.MOCK_LLM_URL !== undefined && env.MOCK_LLM_URL !== '' && !isHttpUrl(env.MOCK_LLM_URL)) {
    problems.push({ variable: 'MOCK_LLM_URL', message: 'MOCK_LLM_URL must be an http(s) URL.' });
  }
  return config;
}

function isHttpUrl(raw: string | undefined): boolean {
  if (!raw) return false;
  try {
    return /^https?:$/.test(new URL(raw).protocol);
  } catch {
    return false;
  }
}

/**
 * The 503 every /v1 request gets while the configuration has problems: a broken
 * EDGEWAY_PROVIDERS must not become a 500 per request, nor a gateway quietly
 * running on defaults. Names the variables, never their values.
 */
export function misconfigured(problems: readonly ConfigProblem[]): GatewayError {
  return new GatewayError(
    503,
    `The gateway is misconfigured: ${problems.map((p) => p.message).join(' ')} See /healthz.`,
    { code: 'configuration_error' },
  );
}
