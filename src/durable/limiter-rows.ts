/**
 * The Limiter object's SQLite tables (src/durable/limiter.ts) and how their rows
 * read back: per-scope windows and in-flight counts, the ledger per scope and
 * period, and reservations (a lease is a reservation of several requests).
 * Values read back that are not finite and non-negative count as 0.
 */
import type { Charge } from '../limits/protocol';

export const SCHEMA = `
  CREATE TABLE IF NOT EXISTS scopes (
    scope TEXT PRIMARY KEY,                 -- 'tenant' or 'key:<key id>'
    inflight INTEGER NOT NULL,
    req_start INTEGER NOT NULL, req_prev INTEGER NOT NULL, req_cur INTEGER NOT NULL,
    tok_start INTEGER NOT NULL, tok_prev INTEGER NOT NULL, tok_cur INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS ledger (
    scope TEXT NOT NULL,
    period TEXT NOT NULL,                   -- '2026-11-03', '2026-11' or 'total'
    tokens_spent INTEGER NOT NULL, tokens_held INTEGER NOT NULL,
    nanos_spent INTEGER NOT NULL, nanos_held INTEGER NOT NULL,
    PRIMARY KEY (scope, period)
  );
  CREATE TABLE IF NOT EXISTS reservations (
    id TEXT PRIMARY KEY,
    key_scope TEXT NOT NULL,
    tokens INTEGER NOT NULL, nanos INTEGER NOT NULL,
    requests INTEGER NOT NULL DEFAULT 1,    -- a lease's grant; 1 for a reservation
    charged_at INTEGER NOT NULL,            -- the minute its tokens were added to
    day TEXT NOT NULL, month TEXT NOT NULL, -- the budget periods it was held in
    state TEXT NOT NULL,                    -- 'held', or 'expired' (released, or for a lease charged whole, awaiting a late settle)
    expires_at INTEGER NOT NULL             -- held: release time; expired: deletion time
  );
  CREATE INDEX IF NOT EXISTS reservations_by_expiry ON reservations (expires_at);
`;

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
};
export type ReservationRow = {
  id: string;
  key_scope: string;
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
