/**
 * The contract between the limits stage and the per-tenant Limiter Durable
 * Object: what a reservation asks for, what comes back, and the per-scope
 * state the pure checks read. Plain data, so it crosses the RPC boundary as is.
 */
import type { AlertMessage } from '../core/alert-message';
import type { AlertSettings, Budgets, Limits } from '../core/settings';
import type { Period } from './periods';
import type { WindowCounts } from './window';

/** Whose counter: the tenant's, or one key's (both live in the tenant's object). */
export type ScopeKind = 'tenant' | 'key';

export interface ScopeSettings {
  readonly limits: Limits;
  readonly budgets: Budgets;
  /** Budget alert thresholds (src/limits/alerts.ts); the object remembers them for its settles. */
  readonly alerts?: AlertSettings;
}

/** Tokens (input + output) and USD, the latter in integer nano-dollars so sums never drift. */
export interface Charge {
  readonly tokens: number;
  readonly nanos: number;
}

/**
 * A charge the ledger accepts: both amounts non-negative safe integers. Anything
 * else (negative, fractional, NaN, ±Infinity, or a sum past 2^53) would make a
 * hold negative or infinite, or a NOT NULL column NULL, and lock the scope; the
 * checks and the Limiter object refuse it whatever the caller sends.
 */
export function isCharge(value: unknown): value is Charge {
  if (typeof value !== 'object' || value === null) return false;
  const { tokens, nanos } = value as Record<string, unknown>;
  return isAmount(tokens) && isAmount(nanos);
}

const isAmount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** A charge the pure checks refuse, thrown before any state is produced (the object answers `invalid` instead). */
export class InvalidChargeError extends RangeError {
  override readonly name = 'InvalidChargeError';
}

export interface ReserveInput {
  readonly keyId: string;
  /** The object's tenant, named in the budget alerts it sends; needed only with alert thresholds. */
  readonly tenantId?: string;
  readonly key: ScopeSettings;
  readonly tenant: ScopeSettings;
  /** The worst case this request can cost. */
  readonly cost: Charge;
  /** After this long an unsettled reservation is released by the object's alarm. */
  readonly ttlMs: number;
  /**
   * Requests like this one the isolate would like to admit without asking again
   * (a lease, src/limits/lease-size.ts). Absent or 1: a reservation for this request
   * alone. The object grants fewer, down to 1, as the limits' headroom requires.
   */
  readonly want?: number;
}

/**
 * What the object holds for a reservation: `requests` requests (1 unless it is a
 * lease), and up to `tokens` tokens and `nanos` nano-dollars between them.
 */
export interface Grant {
  readonly requests: number;
  readonly tokens: number;
  readonly nanos: number;
}

export type LimitKind = 'rpm' | 'tpm' | 'concurrent' | `${'tokens' | 'usd'}_${Period}`;

/** The limit a request hit. `used` counts what is spent and reserved; USD kinds are in USD. */
export interface Denial {
  readonly scope: ScopeKind;
  readonly kind: LimitKind;
  readonly limit: number;
  readonly used: number;
  /** When retrying can succeed; null when it never can without a change of limits. */
  readonly retryAfterMs: number | null;
}

/** One rate window as the `x-ratelimit-*` headers describe it. */
export interface Allowance {
  readonly limit: number;
  readonly remaining: number;
  readonly resetMs: number;
}

/** The tighter of the key's and the tenant's windows, per kind; null when neither has that limit. */
export interface Quota {
  readonly requests: Allowance | null;
  readonly tokens: Allowance | null;
}

/** A refusal is a denial (a limit was hit) or `invalid`: input the object will not store (see isCharge). */
export type ReserveResult =
  | { readonly ok: true; readonly id: string; readonly quota: Quota; readonly grant?: Grant }
  | { readonly ok: false; readonly denial: Denial; readonly quota: Quota }
  | { readonly ok: false; readonly invalid: string };

export interface LedgerRow {
  readonly tokensSpent: number;
  readonly tokensHeld: number;
  readonly nanosSpent: number;
  readonly nanosHeld: number;
}

export const EMPTY_LEDGER: LedgerRow = { tokensSpent: 0, tokensHeld: 0, nanosSpent: 0, nanosHeld: 0 };

/** Everything the checks need to know about one scope, as of the last write. */
export interface ScopeState {
  readonly inflight: number;
  readonly requests: WindowCounts;
  readonly tokens: WindowCounts;
  readonly ledger: Readonly<Record<Period, LedgerRow>>;
}

export const NANOS_PER_USD = 1_000_000_000;

/** The state of one scope for the admin read, with the period keys it was read for. */
export interface ScopeDump {
  readonly state: ScopeState;
  readonly periods: Readonly<Record<Period, string>>;
}

/** A fired alert as the admin API lists it. */
export interface FiredAlert extends AlertMessage {
  /** False while it waits in the object's outbox for the alert queue. */
  readonly queued: boolean;
}

/** The two hot-path methods of a tenant's Limiter object (a DurableObjectStub<Limiter> has them). */
export interface LimiterRpc {
  reserve(input: ReserveInput): Promise<ReserveResult>;
  settle(id: string, actual: Charge | null, requests?: number): Promise<boolean>;
}

/** The admin reads of a tenant's Limiter object (a DurableObjectStub<Limiter> has them). */
export interface LimiterReads {
  /** The tenant's scope, or one key's (keyId), as the admin usage report reads it. */
  dump(keyId: string | null): Promise<ScopeDump>;
  /** The tenant's fired alerts, newest first. */
  firedAlerts(limit?: number): Promise<FiredAlert[]>;
}
