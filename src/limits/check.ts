/**
 * The admission decision (pure): may a request costing `cost` start now, given
 * each scope's settings and state? A request is admitted only when every
 * configured limit of every scope still holds with its worst case added —
 * spent + reserved + cost ≤ limit for budgets — so concurrent requests cannot
 * overspend between a check and a record: there is no gap between the two.
 * When several limits refuse, the one with the longest wait is reported,
 * since that is how long the caller really has to wait. A cost that is not a
 * valid charge (negative, fractional, non-finite) is refused by throwing: it
 * would pass every `≤ limit` test.
 */
import { PERIODS, periodEnd, type Period } from './periods';
import {
  NANOS_PER_USD,
  type Allowance,
  type BudgetUnit,
  type Charge,
  type Denial,
  type LimitKind,
  type Quota,
  type ScopeKind,
  type ScopeSettings,
  type ScopeState,
} from './protocol';
import { assertCharge } from './ledger';
import { resetMs, used, waitMs, type WindowCounts } from './window';

export interface ScopeView {
  readonly scope: ScopeKind;
  readonly settings: ScopeSettings;
  readonly state: ScopeState;
  /** What the 429 names it by (ScopeSpec.label) and the request field that selected it. */
  readonly label?: string | null;
  readonly param?: string | null;
}

/** A refusal names its denial and which of the views refused (the object records it there). */
export type Decision =
  | { readonly ok: true }
  | { readonly ok: false; readonly denial: Denial; readonly index: number };

/** A limit blocked only by reservations still in flight: they settle within a request's time. */
export const IN_FLIGHT_RETRY_MS = 1_000;

/** `requests`: how many requests `cost` admits (more than 1 for a lease, src/limits/lease-size.ts). */
export function decide(scopes: readonly ScopeView[], cost: Charge, now: number, requests = 1): Decision {
  assertCharge(cost, 'a cost');
  let worst: Denial | null = null;
  let index = -1;
  scopes.forEach((view, i) => {
    for (const denial of denials(view, cost, now, requests)) {
      if (!worst || longer(denial.retryAfterMs, worst.retryAfterMs)) {
        worst = denial;
        index = i;
      }
    }
  });
  return worst ? { ok: false, denial: worst, index } : { ok: true };
}

const longer = (a: number | null, b: number | null) => b !== null && (a === null || a > b);

function denials(view: ScopeView, cost: Charge, now: number, requests: number): Denial[] {
  const { settings, state } = view;
  const scope = {
    scope: view.scope,
    ...(view.label != null ? { scopeId: view.label } : {}),
    ...(view.param != null ? { param: view.param } : {}),
  };
  const out: Denial[] = [];
  const { limits } = settings;
  if (limits.concurrent !== undefined && state.inflight + 1 > limits.concurrent) {
    out.push({
      ...scope,
      kind: 'concurrent',
      limit: limits.concurrent,
      used: state.inflight,
      retryAfterMs: IN_FLIGHT_RETRY_MS,
    });
  }
  const rate = (kind: LimitKind, w: WindowCounts, limit: number | undefined, amount: number) => {
    if (limit === undefined) return;
    const wait = waitMs(w, limit, amount, now);
    if (wait !== 0)
      out.push({ ...scope, kind, limit, used: Math.ceil(used(w, now) - 1e-9), retryAfterMs: wait });
  };
  rate('rpm', state.requests, limits.rpm, requests);
  rate('tpm', state.tokens, limits.tpm, cost.tokens);
  for (const b of budgetsOf(view, cost, requests)) {
    const wait = budgetWait(b, now);
    if (wait !== undefined)
      out.push({
        ...scope,
        kind: `${b.unit}_${b.period}`,
        limit: b.setting,
        used: b.unit === 'usd' ? b.used / NANOS_PER_USD : b.used,
        retryAfterMs: wait,
      });
  }
  return out;
}

/** How long until a budget fits the request: undefined when it fits now, null when waiting cannot help. */
function budgetWait(b: BudgetUse, now: number): number | null | undefined {
  if (b.used + b.amount <= b.limit) return undefined;
  if (b.amount > b.limit) return null;
  if (b.spent + b.amount <= b.limit) return IN_FLIGHT_RETRY_MS;
  const end = periodEnd(b.period, now);
  return end === null ? null : end - now;
}

/** One configured budget of a scope, in the ledger's integer unit (nano-dollars for USD). */
export interface BudgetUse {
  readonly unit: BudgetUnit;
  readonly period: Period;
  /** The budget as configured (tokens, requests, or USD). */
  readonly setting: number;
  readonly limit: number;
  readonly spent: number;
  /** Spent and held. */
  readonly used: number;
  /** This request's part (its worst case, or the requests it counts). */
  readonly amount: number;
}

/** Each configured budget of a scope in the ledger's units: its limit, what is spent and held, and this request's part. */
export function budgetsOf(view: ScopeView, cost: Charge, requests: number): BudgetUse[] {
  const out: BudgetUse[] = [];
  const { budgets } = view.settings;
  for (const period of PERIODS) {
    const row = view.state.ledger[period];
    const tokens = budgets.tokens?.[period];
    if (tokens !== undefined)
      out.push({
        unit: 'tokens',
        period,
        setting: tokens,
        limit: tokens,
        spent: row.tokensSpent,
        used: row.tokensSpent + row.tokensHeld,
        amount: cost.tokens,
      });
    const usd = budgets.usd?.[period];
    if (usd !== undefined)
      out.push({
        unit: 'usd',
        period,
        setting: usd,
        limit: Math.round(usd * NANOS_PER_USD),
        spent: row.nanosSpent,
        used: row.nanosSpent + row.nanosHeld,
        amount: cost.nanos,
      });
    const count = budgets.requests?.[period];
    if (count !== undefined)
      out.push({
        unit: 'requests',
        period,
        setting: count,
        limit: count,
        spent: row.requestsSpent,
        used: row.requestsSpent + row.requestsHeld,
        amount: requests,
      });
  }
  return out;
}

/** The tighter allowance of the scopes for each header kind. */
export function quotaOf(scopes: readonly ScopeView[], now: number): Quota {
  let requests: Allowance | null = null;
  let tokens: Allowance | null = null;
  for (const { settings, state } of scopes) {
    const { rpm, tpm } = settings.limits;
    if (rpm !== undefined) requests = tighter(requests, allowance(state.requests, rpm, now));
    if (tpm !== undefined) tokens = tighter(tokens, allowance(state.tokens, tpm, now));
  }
  return { requests, tokens };
}

function allowance(w: WindowCounts, limit: number, now: number): Allowance {
  return { limit, remaining: Math.max(0, Math.floor(limit - used(w, now) + 1e-9)), resetMs: resetMs(w, now) };
}

/** The tighter of two quotas per kind (the tenant object's and an end user's shard's). */
export function tighterQuota(a: Quota, b: Quota): Quota {
  return {
    requests: b.requests ? tighter(a.requests, b.requests) : a.requests,
    tokens: b.tokens ? tighter(a.tokens, b.tokens) : a.tokens,
  };
}

function tighter(a: Allowance | null, b: Allowance): Allowance {
  if (!a) return b;
  if (b.remaining !== a.remaining) return b.remaining < a.remaining ? b : a;
  return b.resetMs > a.resetMs ? b : a;
}
