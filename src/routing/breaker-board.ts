/**
 * The isolate's side of circuit breakers and health, the only part the
 * pipeline touches. Per target it keeps two breakers and the health sums:
 * - `local`, this isolate's own machine (LOCAL rules), fed at once by every
 *   report: a dead target is skipped here after at most 10 failed calls (5 if
 *   it had no recent success), even if the shared object cannot be reached;
 * - `shared`, the target's Breaker object's state as last learnt, so a target
 *   opened by other isolates is skipped here without having been tried;
 * and the target reads open when either does. Reports go to the object in
 * the background, batched: at most one batch per target every FLUSH_MS, sent
 * from the waitUntil of the report that finds the last one old enough (or at
 * once when the local breaker is not closed, so other isolates learn of a
 * dead target promptly). A busy route thus costs the object one call a
 * second per isolate and target, not one per request; the shared view lags by
 * at most FLUSH_MS plus its refresh. The object's answer is the refreshed view. Views older than REFRESH_MS of targets that
 * were consulted but not reported on are re-read on the same waitUntil path.
 * Nothing is awaited on the request except `admit` of a half-open target,
 * where the object grants the single probe (at most CLAIM_TIMEOUT_MS).
 *
 * Fail open: when the object errs or is slow, the isolate runs on its local
 * breaker alone (its half-open state then grants a probe per isolate).
 */
import { within } from '../util/within';
import {
  admission,
  type BreakerState,
  CLOSED,
  LOCAL_RULES,
  type Open,
  type Phase,
  phaseOf,
  record,
  SHARED_RULES,
  type Verdict,
} from './breaker';
import { type BreakerStore, type BreakerView, MAX_REPORT } from './breaker-protocol';
import { groupFactors, type Health, NO_HEALTH, observe, type Outcome } from './health';

export type { Phase, Verdict } from './breaker';

export const REFRESH_MS = 2_000;
/** Outcomes are sent to the object in batches, at most one per target this often. */
export const FLUSH_MS = 1_000;
export const CLAIM_TIMEOUT_MS = 1_000;
export const STORE_TIMEOUT_MS = 5_000;
/** Targets remembered per isolate (the oldest is forgotten first), and views re-read per report. */
export const MAX_TARGETS = 1_000;
const REFRESHES_PER_REPORT = 4;

/** An attempt's result, as the pipeline reports it (ok: false only for failures it would retry). */
export interface CallOutcome {
  readonly ok: boolean;
  /** Time to first byte of a successful attempt; null when there was none. */
  readonly ttfbMs: number | null;
}

/** What the pipeline calls, per target (`provider/model`). `now` is Date.now() at the call. */
export interface BreakerBoard {
  /** Sync, from this isolate's view: 'open' → leave the target out; 'half-open' → only `admit` may pass one. */
  check(target: string, now: number): Phase;
  /** Before an attempt: 'closed' → call; 'probe' → call, as the target's single probe; 'open' → skip it. */
  admit(target: string, now: number): Promise<Verdict>;
  /** Health factors in [MIN_FACTOR, 1] for one loadbalance group's targets, in order, to scale their weights. */
  factors(targets: readonly string[], now: number): number[];
  /** After an attempt's outcome (first byte or failure before it): counted here at once; pass to ctx.waitUntil. */
  report(target: string, outcome: CallOutcome, now: number): Promise<void>;
}

interface Entry {
  local: BreakerState;
  shared: Open | null;
  health: Health;
  /** When the shared view was last asked for (0: never). */
  askedAt: number;
  /** Sequence numbers of the last view asked for and the last one applied (older answers are dropped). */
  asked: number;
  learnt: number;
  pending: Outcome[];
  /** When the last batch was sent (0: never). */
  flushedAt: number;
  flushing: Promise<void> | null;
  claiming: boolean;
}

export function createBreakerBoard(store: BreakerStore): BreakerBoard {
  return new IsolateBreakerBoard(store);
}

class IsolateBreakerBoard implements BreakerBoard {
  private readonly entries = new Map<string, Entry>();
  private readonly stale = new Set<string>();

  constructor(private readonly store: BreakerStore) {}

  check(target: string, now: number): Phase {
    return phase(this.entry(target, now), now);
  }

  async admit(target: string, now: number): Promise<Verdict> {
    const e = this.entry(target, now);
    const p = phase(e, now);
    if (p !== 'half-open') return p;
    if (e.claiming) return 'open';
    e.claiming = true;
    try {
      const claim = await this.ask(e, now, () => within(CLAIM_TIMEOUT_MS, this.store.claimProbe(target)));
      if (claim && claim.verdict !== 'closed') {
        if (claim.verdict === 'probe') e.local = admission(e.local, now, LOCAL_RULES).state;
        return claim.verdict;
      }
      if (!claim) e.shared = null;
    } finally {
      e.claiming = false;
    }
    const local = admission(e.local, now, LOCAL_RULES);
    e.local = local.state;
    return local.verdict;
  }

  factors(targets: readonly string[], now: number): number[] {
    return groupFactors(
      targets.map((t) => this.entry(t, now).health),
      now,
    );
  }

  report(target: string, outcome: CallOutcome, now: number): Promise<void> {
    const e = this.entry(target, now);
    const o: Outcome = { ok: outcome.ok, ttfbMs: outcome.ttfbMs, at: now };
    e.local = record(e.local, o, now, LOCAL_RULES);
    if (e.shared) {
      const s = record(e.shared, o, now, SHARED_RULES);
      e.shared = s.kind === 'open' ? s : null;
    }
    e.health = observe(e.health, o, now);
    e.pending.push(o);
    if (e.pending.length > MAX_REPORT) e.pending.splice(0, e.pending.length - MAX_REPORT);
    this.stale.delete(target);
    const due = now - e.flushedAt >= FLUSH_MS || e.local.kind !== 'closed';
    if (due && !e.flushing) {
      e.flushedAt = now;
      e.flushing = this.flush(target, e, now).finally(() => {
        e.flushing = null;
      });
    }
    return Promise.all([e.flushing, this.refreshStale(now)]).then(() => undefined);
  }

  /** Sends the target's queued outcomes, batch after batch, learning the view each answer carries. */
  private async flush(target: string, e: Entry, now: number): Promise<void> {
    while (e.pending.length > 0) {
      const batch = e.pending.splice(0);
      await this.ask(e, now, () => within(STORE_TIMEOUT_MS, this.store.report(target, batch)));
    }
  }

  private async refreshStale(now: number): Promise<void> {
    const due = [...this.stale].slice(0, REFRESHES_PER_REPORT);
    for (const t of due) this.stale.delete(t);
    await Promise.all(
      due.map((t) => {
        const e = this.entries.get(t);
        return e && !e.flushing ? this.ask(e, now, () => within(STORE_TIMEOUT_MS, this.store.view(t))) : null;
      }),
    );
  }

  /** One call to the shared object; its view is applied unless a later-asked one already was. Null on failure. */
  private async ask<T extends BreakerView | { view: BreakerView }>(
    e: Entry,
    now: number,
    call: () => Promise<T>,
  ): Promise<T | null> {
    const seq = ++e.asked;
    e.askedAt = now;
    try {
      const answer = await call();
      if (seq > e.learnt) {
        const got: BreakerView | { view: BreakerView } = answer;
        const view = 'view' in got ? got.view : got;
        e.learnt = seq;
        e.shared = view.open;
        e.health = view.health;
      }
      return answer;
    } catch (err) {
      console.error('breaker store failed', err instanceof Error ? err.message : String(err));
      return null;
    }
  }

  private entry(target: string, now: number): Entry {
    let e = this.entries.get(target);
    if (!e) {
      if (this.entries.size >= MAX_TARGETS) this.forgetOldest();
      e = fresh();
      this.entries.set(target, e);
    }
    if (now - e.askedAt >= REFRESH_MS && this.stale.size < MAX_TARGETS) this.stale.add(target);
    return e;
  }

  private forgetOldest(): void {
    const oldest = this.entries.keys().next().value;
    if (oldest === undefined) return;
    this.entries.delete(oldest);
    this.stale.delete(oldest);
  }
}

/** The target reads open when either breaker does; half-open when either may grant a probe. */
function phase(e: Entry, now: number): Phase {
  const local = phaseOf(e.local, now);
  const shared = e.shared ? phaseOf(e.shared, now) : 'closed';
  if (local === 'open' || shared === 'open') return 'open';
  return local === 'half-open' || shared === 'half-open' ? 'half-open' : 'closed';
}

function fresh(): Entry {
  return {
    local: CLOSED,
    shared: null,
    health: NO_HEALTH,
    askedAt: 0,
    asked: 0,
    learnt: 0,
    pending: [],
    flushedAt: 0,
    flushing: null,
    claiming: false,
  };
}
