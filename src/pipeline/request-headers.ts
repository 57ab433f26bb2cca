/** Per-request controls clients send as headers (ours and Cloudflare AI Gateway's), parsed strictly (pure). */
import { badRequest } from '../core/errors';
import { MAX_ATTEMPTS_CAP } from './route/retry';

const MAX_TIMEOUT_MS = 600_000;

/** `cf-aig-request-timeout: <ms>` overrides the upstream time-to-first-byte timeout. */
export function requestTimeout(headers: Headers, fallback: number): number {
  const raw = headers.get('cf-aig-request-timeout');
  if (raw === null) return fallback;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 1 || ms > MAX_TIMEOUT_MS) {
    throw badRequest(
      `Header cf-aig-request-timeout must be an integer number of milliseconds between 1 and ${MAX_TIMEOUT_MS}.`,
      'cf-aig-request-timeout',
      'invalid_header',
    );
  }
  return ms;
}

/** `cf-aig-max-attempts: <n>` sets how many times a retryable failure is tried (per target); null when absent. */
export function attemptsHeader(headers: Headers): number | null {
  const raw = headers.get('cf-aig-max-attempts');
  if (raw === null) return null;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_ATTEMPTS_CAP) {
    throw badRequest(
      `Header cf-aig-max-attempts must be an integer between 1 and ${MAX_ATTEMPTS_CAP}.`,
      'cf-aig-max-attempts',
      'invalid_header',
    );
  }
  return n;
}

/** `cf-aig-metadata`: a flat JSON object of at most 5 string, number or boolean values. */
export function requestMetadata(headers: Headers): Record<string, string | number | boolean> | null {
  const raw = headers.get('cf-aig-metadata');
  if (raw === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badRequest('Header cf-aig-metadata must be a JSON object.', 'cf-aig-metadata', 'invalid_header');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('Header cf-aig-metadata must be a JSON object.', 'cf-aig-metadata', 'invalid_header');
  }
  const entries = Object.entries(value);
  if (entries.length > 5)
    throw badRequest('Header cf-aig-metadata may hold at most 5 keys.', 'cf-aig-metadata', 'invalid_header');
  for (const [key, v] of entries) {
    if (!['string', 'number', 'boolean'].includes(typeof v)) {
      throw badRequest(
        `cf-aig-metadata.${key} must be a string, number or boolean.`,
        'cf-aig-metadata',
        'invalid_header',
      );
    }
  }
  return value as Record<string, string | number | boolean>;
}
