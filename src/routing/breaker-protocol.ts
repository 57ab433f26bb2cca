/**
 * The Breaker Durable Object's protocol: what an isolate's board
 * (src/routing/breaker-board.ts) and the object (src/durable/breaker.ts) say
 * to each other. Both import this module, never each other.
 */
import type { Open, Verdict } from './breaker';
import type { Health, Outcome } from './health';

/** The most outcomes one report may carry; more are dropped (the oldest). */
export const MAX_REPORT = 500;

/** What an isolate learns from the object: the breaker when open (null: closed) and the health sums. */
export interface BreakerView {
  readonly open: Open | null;
  readonly health: Health;
}

export interface ProbeClaim {
  /** 'probe': the caller's call is the single probe; 'open': skip; 'closed': the target is not open here. */
  readonly verdict: Verdict;
  readonly view: BreakerView;
}

/** The shared object's calls, as the board uses them (one object per target). */
export interface BreakerStore {
  report(target: string, outcomes: readonly Outcome[]): Promise<BreakerView>;
  view(target: string): Promise<BreakerView>;
  claimProbe(target: string): Promise<ProbeClaim>;
}
