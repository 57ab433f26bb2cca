/**
 * How a scope's state changes (pure): a reservation holds its worst case in
 * every window and budget period; settling replaces the hold with what was
 * really used; expiry releases the hold and charges nothing (a lease's expiry
 * charges its whole hold: `precharged`); a settle that arrives after its
 * reservation expired still records (or corrects to) the spend, so the ledger's
 * `spent` is always the sum of settled usage.
 */
import { PERIODS, type Period } from './periods';
import { type Charge, InvalidChargeError, isCharge, type LedgerRow, type ScopeState } from './protocol';
import { add, adjust } from './window';

export const NOTHING: Charge = { tokens: 0, nanos: 0 };

/** Throws InvalidChargeError unless `charge` is one the ledger may hold. */
export function assertCharge(charge: unknown, what: string): asserts charge is Charge {
  if (!isCharge(charge))
    throw new InvalidChargeError(`${what} must be non-negative safe integers, got ${describe(charge)}`);
}

function describe(value: unknown): string {
  if (typeof value !== 'object' || value === null) return String(value);
  const { tokens, nanos } = value as Record<string, unknown>;
  return `{ tokens: ${String(tokens)}, nanos: ${String(nanos)} }`;
}

/** `requests`: how many requests the hold admits (a lease's grant; 1 for a reservation). */
export function applyReserve(state: ScopeState, cost: Charge, now: number, requests = 1): ScopeState {
  assertCharge(cost, 'a reservation');
  return {
    inflight: state.inflight + 1,
    requests: add(state.requests, requests, now),
    tokens: add(state.tokens, cost.tokens, now),
    ledger: mapLedger(state.ledger, (row) => ({
      ...row,
      tokensHeld: row.tokensHeld + cost.tokens,
      nanosHeld: row.nanosHeld + cost.nanos,
      requestsHeld: row.requestsHeld + requests,
    })),
  };
}

export interface Settlement {
  /** What the reservation held. */
  readonly reserved: Charge;
  /** What was really used (NOTHING to release). */
  readonly actual: Charge;
  /** The minute the reservation was charged to (window.minuteOf). */
  readonly chargedAt: number;
  /** False when the reservation had already expired and its hold was released. */
  readonly held: boolean;
  /** The requests it counted (a lease's grant) and those really admitted on it; absent: as counted. */
  readonly requests?: { readonly counted: number; readonly used: number };
  /** What its expiry already charged as spent (an expired lease's whole hold); absent: nothing. */
  readonly precharged?: Charge;
}

/** `state.ledger` must hold the rows of the periods the reservation was made in. */
export function applySettle(state: ScopeState, s: Settlement, now: number): ScopeState {
  assertCharge(s.reserved, 'a settled reservation');
  assertCharge(s.actual, 'a settlement');
  const released = s.held ? s.reserved : NOTHING;
  const pre = s.precharged ?? NOTHING;
  assertCharge(pre, 'a precharge');
  const requests = s.requests;
  // Requests: a held reservation's count leaves `held` and what it admitted joins `spent`; one settled
  // after its expiry had all its count made spent then, so only the difference is recorded now.
  const counted = requests?.counted ?? 1;
  const admitted = requests?.used ?? counted;
  return {
    inflight: s.held ? Math.max(0, state.inflight - 1) : state.inflight,
    requests: requests
      ? adjust(state.requests, s.chargedAt, requests.used - requests.counted, now)
      : state.requests,
    tokens: adjust(state.tokens, s.chargedAt, s.actual.tokens - released.tokens - pre.tokens, now),
    ledger: mapLedger(state.ledger, (row) => ({
      tokensSpent: Math.max(0, row.tokensSpent + s.actual.tokens - pre.tokens),
      tokensHeld: Math.max(0, row.tokensHeld - released.tokens),
      nanosSpent: Math.max(0, row.nanosSpent + s.actual.nanos - pre.nanos),
      nanosHeld: Math.max(0, row.nanosHeld - released.nanos),
      requestsSpent: Math.max(0, row.requestsSpent + admitted - (s.held ? 0 : counted)),
      requestsHeld: Math.max(0, row.requestsHeld - (s.held ? counted : 0)),
    })),
  };
}

function mapLedger(
  ledger: Readonly<Record<Period, LedgerRow>>,
  f: (row: LedgerRow) => LedgerRow,
): Record<Period, LedgerRow> {
  const out = {} as Record<Period, LedgerRow>;
  for (const p of PERIODS) out[p] = f(ledger[p]);
  return out;
}
