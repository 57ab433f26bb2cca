/**
 * What a Limiter object keeps besides its counters, and what it forgets: each scope's last refusal (for
 * the admin's status badges), and the sweep of idle scopes' rows. Plain SQL over the tables of
 * src/durable/limiter-rows.ts, run inside the object's single thread.
 */
import type { LastDenial, LimitKind } from '../limits/protocol';
import { periodKey } from '../limits/periods';
import { WINDOW_MS } from '../limits/window';

/** Rows of each kind the sweep deletes per run. */
export const SWEEP_BATCH = 5_000;

/** Records that `scope` refused a request of `kind` at `now`. */
export function recordDenial(sql: SqlStorage, scope: string, kind: LimitKind, now: number): void {
  sql.exec(
    `INSERT INTO denials (scope, kind, at, count) VALUES (?, ?, ?, 1)
     ON CONFLICT (scope) DO UPDATE SET kind = excluded.kind, at = excluded.at, count = count + 1`,
    scope,
    kind,
    now,
  );
}

/** The scope's last refusal, or null when it never refused one. */
export function lastDenialOf(sql: SqlStorage, scope: string): LastDenial | null {
  const row = sql
    .exec<{ kind: string; at: number; count: number }>(
      'SELECT kind, at, count FROM denials WHERE scope = ?',
      scope,
    )
    .toArray()[0];
  return row ? { kind: row.kind as LimitKind, at: row.at, count: row.count } : null;
}

/**
 * Forgets what idle scopes no longer need (an end user's last request a day ago leaves nothing but its
 * month and total rows): windows older than two minutes with nothing in flight read as zero, and day
 * and month rows older than `keepMs` (past any reservation's life) are never read again. At most
 * SWEEP_BATCH rows of each per run; the alarm runs again with the next reservation.
 */
export function sweepIdle(sql: SqlStorage, now: number, keepMs: number): void {
  const stale = now - 2 * WINDOW_MS;
  sql.exec(
    `DELETE FROM scopes WHERE rowid IN (SELECT rowid FROM scopes
       WHERE inflight = 0 AND req_start < ? AND tok_start < ? LIMIT ?)`,
    stale,
    stale,
    SWEEP_BATCH,
  );
  const oldest = now - keepMs;
  sql.exec(
    `DELETE FROM ledger WHERE rowid IN (SELECT rowid FROM ledger
       WHERE (period GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND period < ?)
          OR (period GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]' AND period < ?) LIMIT ?)`,
    periodKey('day', oldest),
    periodKey('month', oldest),
    SWEEP_BATCH,
  );
}
