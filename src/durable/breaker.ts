/**
 * Breaker: one small SQLite Durable Object per target (`provider/model`, named
 * by it), holding the shared circuit breaker (src/routing/breaker.ts, SHARED
 * rules) and health sums (src/routing/health.ts) fed by every isolate's calls.
 * Isolates reach it only through src/routing/breaker-board.ts (the protocol:
 * src/routing/breaker-protocol.ts): reports in
 * batches inside waitUntil, and a probe claim when the breaker is half-open,
 * so the object serialises the claims and exactly one isolate probes.
 *
 * Stored, not only in memory: the state is one row rewritten per report batch
 * (cheap), and it survives a deploy or an eviction in the middle of an outage,
 * when every isolate restarts with an empty view and would otherwise pay the
 * dead target's failures again. The row is read back through zod: a row that
 * does not parse counts as a closed breaker and neutral health (fail open).
 *
 * `inspect` is the admin API's read (route health): the state as an operator
 * reads it, with the time the breaker last closed, which is stored in its own
 * row and written only when the breaker closes again.
 */
import { DurableObject } from 'cloudflare:workers';
import * as z from 'zod';
import type { Bindings } from '../env';
import { admission, type BreakerState, CLOSED, record, SHARED_RULES } from '../routing/breaker';
import { type BreakerInspection, inspectBreaker } from '../routing/breaker-inspection';
import {
  type BreakerStore,
  type BreakerView,
  MAX_REPORT,
  type ProbeClaim,
} from '../routing/breaker-protocol';
import { type Health, NO_HEALTH, type Outcome, observe } from '../routing/health';

/** Target → its Breaker object, as the board's store. */
export function breakerObjects(ns: DurableObjectNamespace<Breaker>): BreakerStore {
  const stub = (target: string) => ns.get(ns.idFromName(target));
  return {
    report: (target, outcomes) => stub(target).report(outcomes),
    view: (target) => stub(target).view(),
    claimProbe: (target) => stub(target).claimProbe(),
  };
}

/** Target → its breaker as an operator reads it (the admin API's route health; never the request path). */
export function inspectBreakers(
  ns: DurableObjectNamespace<Breaker>,
): (target: string) => Promise<BreakerInspection> {
  return (target) => ns.get(ns.idFromName(target)).inspect();
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS breaker (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    state TEXT NOT NULL,   -- BreakerState as JSON
    health TEXT NOT NULL   -- Health as JSON
  );
  CREATE TABLE IF NOT EXISTS breaker_closed (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at REAL NOT NULL       -- when the breaker last closed after being open (epoch ms)
  );
`;

const num = z.number().finite();
const StoredState = z.union([
  z.object({ kind: z.literal('closed'), recent: z.array(z.object({ at: num, ok: z.boolean() })) }),
  z.object({ kind: z.literal('open'), retryAt: num, cooldownMs: num.positive(), probeUntil: num }),
]);
const StoredHealth = z.object({
  at: num,
  calls: num.nonnegative(),
  failures: num.nonnegative(),
  ttfbSum: num.nonnegative(),
  ttfbWeight: num.nonnegative(),
});
const ReportedOutcome = z.object({ at: num, ok: z.boolean(), ttfbMs: num.nonnegative().nullable() });

export class Breaker extends DurableObject<Bindings> {
  /** The clock; tests replace it through runInDurableObject. */
  now: () => number = () => Date.now();
  private readonly sql: SqlStorage;
  private state: BreakerState = CLOSED;
  private health: Health = NO_HEALTH;
  private closedAt: number | null = null;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(SCHEMA);
    const row = this.sql
      .exec<{ state: string; health: string }>('SELECT state, health FROM breaker')
      .toArray()[0];
    if (row) {
      this.state = parsed(StoredState, row.state) ?? CLOSED;
      this.health = parsed(StoredHealth, row.health) ?? NO_HEALTH;
    }
    const closed = this.sql.exec<{ at: number }>('SELECT at FROM breaker_closed').toArray()[0];
    this.closedAt = closed && Number.isFinite(closed.at) ? closed.at : null;
  }

  /** Counts a batch of outcomes (malformed ones are skipped); returns the view after them. */
  report(outcomes: readonly Outcome[]): BreakerView {
    if (!Array.isArray(outcomes)) return this.view();
    const now = this.now();
    const wasOpen = this.state.kind === 'open';
    for (const raw of outcomes.slice(-MAX_REPORT)) {
      const o = ReportedOutcome.safeParse(raw);
      if (!o.success) continue;
      const outcome = { ...o.data, at: Math.min(o.data.at, now) };
      this.state = record(this.state, outcome, now, SHARED_RULES);
      this.health = observe(this.health, outcome, now);
    }
    if (wasOpen && this.state.kind === 'closed') {
      this.closedAt = now;
      this.sql.exec('INSERT OR REPLACE INTO breaker_closed (id, at) VALUES (1, ?)', now);
    }
    this.save();
    return this.view();
  }

  /** The breaker as an operator reads it, at the object's clock. */
  inspect(): BreakerInspection {
    return inspectBreaker(this.state, this.health, this.closedAt, this.now(), SHARED_RULES.windowMs);
  }

  view(): BreakerView {
    return { open: this.state.kind === 'open' ? this.state : null, health: this.health };
  }

  /** When half-open, grants the single probe to the first caller; else says what the breaker is. */
  claimProbe(): ProbeClaim {
    const { verdict, state } = admission(this.state, this.now(), SHARED_RULES);
    if (state !== this.state) {
      this.state = state;
      this.save();
    }
    return { verdict, view: this.view() };
  }

  private save(): void {
    this.sql.exec(
      'INSERT OR REPLACE INTO breaker (id, state, health) VALUES (1, ?, ?)',
      JSON.stringify(this.state),
      JSON.stringify(this.health),
    );
  }
}

function parsed<T>(schema: z.ZodType<T>, json: string): T | null {
  try {
    const r = schema.safeParse(JSON.parse(json));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
