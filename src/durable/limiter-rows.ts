/**
 * The Limiter object's SQLite tables (src/durable/limiter.ts) and how their rows
 * read back: per-scope windows and in-flight counts, the ledger per scope and
 * period, and reservations (a lease is a reservation of several requests).
 * Values read back that are not finite and non-negative count as 0.
 */
import type { Period } from '../limits/periods';
import { type Charge, EMPTY_LEDGER, type LedgerRow, type ScopeState } from '../limits/protocol';

export const SCHEMA = `
  CREATE TABLE IF NOT EXISTS scopes (
    scope TEXT PRIMARY KEY,                 -- a ScopeSpec id: 'tenant', 'key:<key id>', 'user:<id>', 'model:<match>', …
    inflight INTEGER NOT NULL,
    req_start INTEGER NOT NULL, req_prev INTEGER NOT NULL, req_cur INTEGER NOT NULL,
    tok_start INTEGER NOT NULL, tok_prev INTEGER NOT NULL, tok_cur INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS ledger (
    scope TEXT NOT NULL,
    period TEXT NOT NULL,                   -- '2026-11-03', '2026-11' or 'total'
    tokens_spent INTEGER NOT NULL, tokens_held INTEGER NOT NULL,
    nanos_spent INTEGER NOT NULL, nanos_held INTEGER NOT NULL,
    requests_spent INTEGER NOT NULL DEFAULT 0, requests_held INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, period)
  );
  CREATE TABLE IF NOT EXISTS reservations (
    id TEXT PRIMARY KEY,
    key_scope TEXT NOT NULL,                -- the key's scope (objects before scopes: with 'tenant', all it held)
    scopes TEXT,                            -- JSON array of every scope id it holds in; NULL: key_scope and 'tenant'
    tokens INTEGER NOT NULL, nanos INTEGER NOT NULL,
    requests INTEGER NOT NULL DEFAULT 1,    -- a lease's grant; 1 for a reservation
    charged_at INTEGER NOT NULL,            -- the minute its tokens were added to
    day TEXT NOT NULL, month TEXT NOT NULL, -- the budget periods it was held in
    state TEXT NOT NULL,                    -- 'held', or 'expired' (released, or for a lease charged whole, awaiting a late settle)
    expires_at INTEGER NOT NULL             -- held: release time; expired: deletion time
  );
  CREATE INDEX IF NOT EXISTS reservations_by_expiry ON reservations (expires_at);
  CREATE TABLE IF NOT EXISTS overrides (
    user TEXT PRIMARY KEY,                  -- an end user of a user shard with settings of their own
    rule TEXT NOT NULL                      -- JSON ScopeRule
  );
  CREATE TABLE IF NOT EXISTS denials (
    scope TEXT PRIMARY KEY,                 -- the scope's last refusal, for the admin's badges
    kind TEXT NOT NULL, at INTEGER NOT NULL, count INTEGER NOT NULL
  );
`;

/** Columns added after the first objects were created: [table, column, definition]. */
export const ADDED_COLUMNS: readonly (readonly [string, string, string])[] = [
  ['reservations', 'requests', 'INTEGER NOT NULL DEFAULT 1'],
  ['reservations', 'scopes', 'TEXT'],
  ['ledger', 'requests_spent', 'INTEGER NOT NULL DEFAULT 0'],
  ['ledger', 'requests_held', 'INTEGER NOT NULL DEFAULT 0'],
];

export type ScopeRow = {
  inflight: number;
  req_start: number;
  req_prev: number;
  req_cur: number;
  tok_start: number;
  tok_prev: number;
  tok_cur: number;
};
export type LedgerDbRow = {
  period: string;
  tokens_spent: number;
  tokens_held: number;
  nanos_spent: number;
  nanos_held: number;
  requests_spent: number | null;
  requests_held: number | null;
};
export type ReservationRow = {
  id: string;
  key_scope: string;
  scopes: string | null;
  tokens: number;
  nanos: number;
  requests: number;
  charged_at: number;
  day: string;
  month: string;
  state: string;
  expires_at: number;
};

/** What a stored reservation holds, as a valid charge. */
export function heldBy(row: ReservationRow): Charge {
  return { tokens: Math.ceil(amount(row.tokens)), nanos: Math.ceil(amount(row.nanos)) };
}

/** Requests a stored reservation counted in its rate windows: 1, or a lease's grant. */
export function countedBy(row: ReservationRow): number {
  return Math.max(1, Math.floor(amount(row.requests)));
}

export const isLease = (row: ReservationRow) => countedBy(row) > 1;

/** A stored number as a usable amount: anything not finite and non-negative counts as 0. */
export function amount(v: number | null | undefined): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

/** The scope ids a stored reservation holds in (rows from before scopes: its key's and the tenant's). */
export function scopesOf(row: ReservationRow): string[] {
  if (typeof row.scopes === 'string') {
    try {
      const ids: unknown = JSON.parse(row.scopes);
      if (Array.isArray(ids) && ids.every((id) => typeof id === 'string')) return ids;
    } catch {
      // An unreadable list falls back to the two scopes every reservation held before.
    }
  }
  return [row.key_scope, 'tenant'];
}

/** One scope's state as of its rows for `periods` (no row: zero). */
export function loadScope(
  sql: SqlStorage,
  scope: string,
  periods: Readonly<Record<Period, string>>,
): ScopeState {
  const s = sql.exec<ScopeRow>('SELECT * FROM scopes WHERE scope = ?', scope).toArray()[0];
  const rows = sql
    .exec<LedgerDbRow>(
      'SELECT * FROM ledger WHERE scope = ? AND period IN (?, ?, ?)',
      scope,
      periods.day,
      periods.month,
      periods.total,
    )
    .toArray();
  const ledgerOf = (key: string): LedgerRow => {
    const r = rows.find((x) => x.period === key);
    return r
      ? {
          tokensSpent: amount(r.tokens_spent),
          tokensHeld: amount(r.tokens_held),
          nanosSpent: amount(r.nanos_spent),
          nanosHeld: amount(r.nanos_held),
          requestsSpent: amount(r.requests_spent),
          requestsHeld: amount(r.requests_held),
        }
      : EMPTY_LEDGER;
  };
  return {
    inflight: amount(s?.inflight),
    requests: { start: amount(s?.req_start), prev: amount(s?.req_prev), cur: amount(s?.req_cur) },
    tokens: { start: amount(s?.tok_start), prev: amount(s?.tok_prev), cur: amount(s?.tok_cur) },
    ledger: { day: ledgerOf(periods.day), month: ledgerOf(periods.month), total: ledgerOf(periods.total) },
  };
}

/** Writes one scope's state: its window row and its ledger rows for `periods`. */
export function saveScope(
  sql: SqlStorage,
  scope: string,
  state: ScopeState,
  periods: Readonly<Record<Period, string>>,
): void {
  const { requests: r, tokens: t } = state;
  sql.exec(
    `INSERT OR REPLACE INTO scopes (scope, inflight, req_start, req_prev, req_cur, tok_start, tok_prev, tok_cur)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    scope,
    state.inflight,
    r.start,
    r.prev,
    r.cur,
    t.start,
    t.prev,
    t.cur,
  );
  for (const period of ['day', 'month', 'total'] as const) {
    const l = state.ledger[period];
    sql.exec(
      `INSERT OR REPLACE INTO ledger (scope, period, tokens_spent, tokens_held, nanos_spent, nanos_held, requests_spent, requests_held) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      scope,
      periods[period],
      l.tokensSpent,
      l.tokensHeld,
      l.nanosSpent,
      l.nanosHeld,
      l.requestsSpent,
      l.requestsHeld,
    );
  }
}
