/**
 * The Throttle Durable Object's protocol: what the isolate's gate
 * (src/admin/access/throttle-gate.ts) and the object (src/durable/throttle.ts)
 * say to each other, and the rule both count wrong admin tokens by (pure).
 * Both import this module, never each other; it sits in the bottom layer
 * because the object's folder is below the admin API's.
 *
 * Both doors that take ADMIN_TOKEN (the admin API and the dashboard sign-in)
 * guess the same secret, so they share one count per client: THROTTLE_LIMIT
 * failures within THROTTLE_WINDOW_MS block the client for THROTTLE_BLOCK_MS,
 * during which even the right token is refused (otherwise a 429 would still
 * tell a wrong guess from a right one).
 */

export const THROTTLE_LIMIT = 10;
export const THROTTLE_WINDOW_MS = 60_000;
export const THROTTLE_BLOCK_MS = 60_000;

/** One client's failures: the window's start, its count, and the end of its block (0: none). */
export interface FailureWindow {
  readonly start: number;
  readonly count: number;
  readonly blockedUntil: number;
}

/** The counter store shared by every isolate (src/durable/throttle.ts in production). */
export interface ThrottleStore {
  /** Records one failure for the client; returns when its block ends (0: not blocked). */
  fail(client: string): Promise<number>;
  /** When the client's block ends (0: not blocked). */
  blockedUntil(client: string): Promise<number>;
}

export function addFailure(w: FailureWindow | null, now: number): FailureWindow {
  const fresh = !w || now - w.start >= THROTTLE_WINDOW_MS;
  const start = fresh ? now : w.start;
  const count = (fresh ? 0 : w.count) + 1;
  const blockedUntil = count >= THROTTLE_LIMIT ? now + THROTTLE_BLOCK_MS : (w?.blockedUntil ?? 0);
  return { start, count, blockedUntil };
}

/** When the window can be forgotten: its block and its count have both run out. */
export function forgetAt(w: FailureWindow): number {
  return Math.max(w.start + THROTTLE_WINDOW_MS, w.blockedUntil);
}
