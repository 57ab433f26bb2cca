/**
 * The Throttle Durable Object's protocol: what the isolate's gate
 * (src/admin/access/throttle-gate.ts) and the object (src/durable/throttle.ts)
 * say to each other, and the numbers both count by. Both import this module
 * (and the pure rule, throttle.ts), never each other.
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
