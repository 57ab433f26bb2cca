/**
 * One lease as the isolate holding it sees it (pure state, no I/O): what is
 * left of its grant, what its requests have spent, and when it must be
 * reported back to the tenant's Limiter object.
 *
 * A request takes its worst case from what is left (`take`), exactly as the
 * object would have reserved it; when it settles (`finish`) the unused part of
 * its worst case goes back, and what it really used is added to `spent`. The
 * lease admits until `closesAt` or until `close()`; then, once its last request
 * has settled, its one report (`report`: spent and requests used) replaces
 * the object's hold. `report` answers once, so the report is sent once.
 */
import type { Charge, Grant, Quota } from './protocol';
import type { Allowance } from './protocol';

export interface LeaseReport {
  readonly spent: Charge;
  readonly requests: number;
}

export class Lease {
  readonly id: string;
  readonly grant: Grant;
  /** The object's quota right after the grant (the whole grant counted as used). */
  readonly quota: Quota;
  readonly grantedAt: number;
  readonly closesAt: number;
  #requests: number;
  #tokens: number;
  #nanos: number;
  #inflight = 0;
  #used = 0;
  #spentTokens = 0;
  #spentNanos = 0;
  #closed = false;
  #reported = false;

  constructor(id: string, grant: Grant, quota: Quota, grantedAt: number, admitsForMs: number) {
    this.id = id;
    this.grant = grant;
    this.quota = quota;
    this.grantedAt = grantedAt;
    this.closesAt = grantedAt + admitsForMs;
    this.#requests = grant.requests;
    this.#tokens = grant.tokens;
    this.#nanos = grant.nanos;
  }

  /** Admits a request of worst case `cost` from what is left; false when it does not fit or the lease is closed. */
  take(cost: Charge, now: number): boolean {
    if (this.#closed || now >= this.closesAt) return false;
    if (this.#requests < 1 || this.#tokens < cost.tokens || this.#nanos < cost.nanos) return false;
    this.#requests -= 1;
    this.#tokens -= cost.tokens;
    this.#nanos -= cost.nanos;
    this.#inflight += 1;
    this.#used += 1;
    return true;
  }

  /** A request taken with worst case `worst` used `actual`; its unused worst case is free again. */
  finish(worst: Charge, actual: Charge): void {
    this.#inflight = Math.max(0, this.#inflight - 1);
    this.#spentTokens += actual.tokens;
    this.#spentNanos += actual.nanos;
    this.#tokens += worst.tokens - actual.tokens;
    this.#nanos += worst.nanos - actual.nanos;
  }

  /** Gives back a request taken with worst case `worst` that never ran (another scope refused it). */
  untake(worst: Charge): void {
    this.#inflight = Math.max(0, this.#inflight - 1);
    this.#used = Math.max(0, this.#used - 1);
    this.#requests += 1;
    this.#tokens += worst.tokens;
    this.#nanos += worst.nanos;
  }

  /** Admits nothing more. */
  close(): void {
    this.#closed = true;
  }

  /** Whether it still admits requests at `now`. */
  open(now: number): boolean {
    return !this.#closed && now < this.closesAt;
  }

  /**
   * The report for the object, once: when the lease admits no more (closed, or
   * past closesAt) and its last request has settled. Null before that and after.
   */
  report(now: number): LeaseReport | null {
    if (this.#reported || this.#inflight > 0 || this.open(now)) return null;
    this.#reported = true;
    return { spent: { tokens: this.#spentTokens, nanos: this.#spentNanos }, requests: this.#used };
  }

  /**
   * The quota as this isolate knows it: the object's at the grant, plus what
   * the lease still holds (counted as used there, but not spent yet).
   */
  quotaNow(): Quota {
    const plus = (a: Allowance | null, back: number): Allowance | null =>
      a ? { ...a, remaining: Math.min(a.limit, a.remaining + Math.max(0, back)) } : null;
    return {
      requests: plus(this.quota.requests, this.#requests),
      tokens: plus(this.quota.tokens, this.#tokens),
    };
  }
}
