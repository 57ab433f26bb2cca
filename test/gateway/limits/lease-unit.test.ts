import { describe, expect, it } from 'vitest';
import type { ScopeView } from '../../../src/limits/check';
import { Lease } from '../../../src/limits/lease';
import { LeaseBook } from '../../../src/limits/lease-book';
import { LEASE_SHARE, MAX_LEASE_REQUESTS, grantOf, leaseSize } from '../../../src/limits/lease-size';
import { EMPTY_LEDGER, type ScopeSettings, type ScopeState } from '../../../src/limits/protocol';
import { EMPTY_WINDOW } from '../../../src/limits/window';
import { principalWith } from '../limits-helpers';

const T0 = Date.UTC(2099, 10, 3, 12, 0, 0);
const FRESH: ScopeState = {
  inflight: 0,
  requests: EMPTY_WINDOW,
  tokens: EMPTY_WINDOW,
  ledger: { day: EMPTY_LEDGER, month: EMPTY_LEDGER, total: EMPTY_LEDGER },
};
const view = (settings: Partial<ScopeSettings>, state: ScopeState = FRESH): ScopeView => ({
  scope: 'key',
  settings: { limits: {}, budgets: {}, ...settings },
  state,
});
const COST = { tokens: 100, nanos: 1_000 };

describe('lease size', () => {
  it('takes at most 1/LEASE_SHARE of every limit, the tightest deciding', () => {
    // rpm 10,000 → 1,250 requests; tpm 400,000 at 100 each → 500; day budget 80,000 tokens → 100.
    const views = [
      view({ limits: { rpm: 10_000, tpm: 400_000 } }),
      view({ budgets: { tokens: { day: 80_000 } } }),
    ];
    expect(leaseSize(views, COST, 2_000, T0)).toBe(80_000 / (LEASE_SHARE * 100));
    expect(leaseSize(views, COST, 40, T0)).toBe(40);
  });

  it('counts what is spent and held, and USD in nano-dollars', () => {
    const spent: ScopeState = {
      ...FRESH,
      ledger: {
        ...FRESH.ledger,
        month: { ...EMPTY_LEDGER, nanosSpent: 600_000, nanosHeld: 200_000 },
      },
    };
    // $0.001 = 1,000,000 nanos; 200,000 left; / (8 × 1,000) = 25.
    expect(leaseSize([view({ budgets: { usd: { month: 0.001 } } }, spent)], COST, 1_000, T0)).toBe(25);
  });

  it('falls back to one request (a plain reservation) near the limit, with a concurrency limit, or when one is wanted', () => {
    const nearlySpent: ScopeState = {
      ...FRESH,
      ledger: { ...FRESH.ledger, total: { ...EMPTY_LEDGER, tokensSpent: 9_000 } },
    };
    expect(leaseSize([view({ budgets: { tokens: { total: 10_000 } } }, nearlySpent)], COST, 100, T0)).toBe(1);
    expect(leaseSize([view({ limits: { rpm: 1_000_000, concurrent: 50 } })], COST, 100, T0)).toBe(1);
    expect(leaseSize([view({ limits: { rpm: 1_000_000 } })], COST, 1, T0)).toBe(1);
    expect(leaseSize([view({ limits: { rpm: 1_000_000 } })], COST, Number.NaN, T0)).toBe(1);
  });

  it('never grants more than MAX_LEASE_REQUESTS, and a grant is that many worst cases', () => {
    expect(leaseSize([view({ limits: { rpm: 1e9 } })], COST, 1e9, T0)).toBe(MAX_LEASE_REQUESTS);
    expect(grantOf(COST, 3)).toEqual({ requests: 3, tokens: 300, nanos: 3_000 });
  });
});

const QUOTA = { requests: { limit: 100, remaining: 90, resetMs: 60_000 }, tokens: null };

describe('a lease in the isolate', () => {
  it('admits worst cases until its grant is used, gives back what a request did not use, and reports once', () => {
    const lease = new Lease('l1', grantOf(COST, 3), QUOTA, T0, 1_000);
    expect(lease.take(COST, T0)).toBe(true);
    expect(lease.take(COST, T0)).toBe(true);
    expect(lease.take({ tokens: 101, nanos: 0 }, T0)).toBe(false); // 100 tokens left
    expect(lease.take({ tokens: 100, nanos: 0 }, T0)).toBe(true);
    expect(lease.take({ tokens: 1, nanos: 0 }, T0)).toBe(false); // three requests granted, three taken
    lease.finish(COST, { tokens: 40, nanos: 400 });
    lease.finish(COST, { tokens: 0, nanos: 0 });
    expect(lease.report(T0 + 5_000)).toBeNull(); // one still in flight
    lease.finish({ tokens: 100, nanos: 0 }, { tokens: 100, nanos: 0 });
    expect(lease.report(T0)).toBeNull(); // still admitting
    expect(lease.report(T0 + 1_000)).toEqual({ spent: { tokens: 140, nanos: 400 }, requests: 3 });
    expect(lease.report(T0 + 2_000)).toBeNull();
  });

  it('stops admitting at closesAt or when closed, and its quota adds back what it still holds', () => {
    const lease = new Lease('l2', grantOf(COST, 10), QUOTA, T0, 1_000);
    expect(lease.take(COST, T0 + 999)).toBe(true);
    expect(lease.quotaNow().requests?.remaining).toBe(99);
    expect(lease.take(COST, T0 + 1_000)).toBe(false);
    const closed = new Lease('l3', grantOf(COST, 10), QUOTA, T0, 1_000);
    closed.close();
    expect(closed.take(COST, T0)).toBe(false);
    expect(closed.report(T0)).toEqual({ spent: { tokens: 0, nanos: 0 }, requests: 0 });
  });
});

const principal = principalWith;

describe('the lease book', () => {
  it('asks for a plain reservation until a key sends two requests in a window, then twice its demand', () => {
    const book = new LeaseBook(1_000);
    const p = principal({ limits: { rpm: 100 } });
    expect(book.want(book.slot(p, T0))).toBe(1);
    expect(book.want(book.slot(p, T0 + 5_000))).toBe(1); // a window later: still one at a time
    book.slot(p, T0 + 5_100);
    const slot = book.slot(p, T0 + 5_200);
    expect(book.want(slot)).toBe(6);
    // The next window remembers the busier previous one.
    expect(book.want(book.slot(p, T0 + 6_100))).toBe(6);
  });

  it('starts a new slot, closing the old lease, when the key record (its settings) changes', () => {
    const book = new LeaseBook(1_000);
    const first = book.slot(principal({ limits: { rpm: 100 } }), T0);
    const lease = new Lease('l', grantOf(COST, 5), QUOTA, T0, 1_000);
    first.lease = lease;
    const second = book.slot(principal({ limits: { rpm: 50 } }), T0);
    expect(second).not.toBe(first);
    expect(second.lease).toBeNull();
    expect(lease.open(T0)).toBe(false);
  });
});
