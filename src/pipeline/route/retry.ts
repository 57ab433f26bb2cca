/** When an upstream failure may be retried, and how long to wait first (pure). */

/** Timeouts, conflicts, rate limits and server errors are worth another try; other 4xx are not. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

export const MAX_ATTEMPTS_CAP = 5;
const BASE_MS = 200;
const MAX_WAIT_MS = 5_000;

/**
 * Exponential backoff with full jitter; a server's `retry-after` (seconds) is
 * honoured when it is within the cap, since waiting less would only be refused again.
 */
export function backoffMs(attempt: number, random: number, retryAfter: string | null): number {
  const hinted = retryAfter === null ? NaN : Number(retryAfter) * 1000;
  if (Number.isFinite(hinted) && hinted >= 0 && hinted <= MAX_WAIT_MS) return hinted;
  const ceiling = Math.min(MAX_WAIT_MS, BASE_MS * 2 ** attempt);
  return Math.round(ceiling * (0.5 + random / 2));
}
