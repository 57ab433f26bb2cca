/**
 * The contract between the limits stage and the per-tenant Limiter Durable
 * Object: what a reservation asks for, what comes back, and the per-scope
 * state the pure checks read. Plain data, so it crosses the RPC boundary as is.
 */
import type { AlertMessage } from '../core/alert-message';
import type { AlertSettings, Budgets, Downgrade, Limits, ScopeRule } from '../core/settings';
import type { Period } from './periods';
import type { WindowCounts } from './window';

/**
 * Whose counter: the tenant's, one key's, one end user's, a model rule's (the tenant's or a key's) or a
 * tag value's. End users live in the tenant's user shards (src/limits/shards.ts), the rest in its object.
 */
export type ScopeKind = 'tenant' | 'key' | 'user' | 'model' | 'tag';

export interface ScopeSettings {
  readonly limits: Limits;
  readonly budgets: Budgets;
  /** Budget alert thresholds (src/limits/alerts.ts); the object remembers them for its settles. */
  readonly alerts?: AlertSettings;
  /** Send the request to this route instead, once a budget reaches its percent (src/limits/downgrade.ts). */
  readonly downgrade?: Downgrade | null;
}

/**
 * One scope a reservation is checked against and recorded in: `id` names its rows in the object
 * (`tenant`, `key:<id>`, `key:<id>:model:<match>`, `model:<match>`, `tag:<k>=<v>`, `user:<id>`),
 * `label` what the 429 and alerts call it (the end user, the pattern, `team=search`), `param` the
 * request field that selected it.
 */
export interface ScopeSpec {
  readonly id: string;
  readonly kind: ScopeKind;
  readonly label: string | null;
  readonly param: string | null;
  readonly settings: ScopeSettings;
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
  /**
   * The scopes to check and record, all or none. Absent: the key's and the tenant's (`keyId`, `key`,
   * `tenant`), the two every tenant object has held since the start.
   */
  readonly scopes?: readonly ScopeSpec[];
  readonly keyId?: string;
  /** The object's tenant, named in the budget alerts it sends; needed only with alert thresholds. */
  readonly tenantId?: string;
  readonly key?: ScopeSettings;
  readonly tenant?: ScopeSettings;
  /** True once the request was downgraded: no scope's downgrade applies again (src/limits/downgrade.ts). */
  readonly downgraded?: boolean;
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

export type BudgetUnit = 'tokens' | 'usd' | 'requests';
export type LimitKind = 'rpm' | 'tpm' | 'concurrent' | `${BudgetUnit}_${Period}`;

/** The limit a request hit. `used` counts what is spent and reserved; USD kinds are in USD. */
export interface Denial {
  readonly scope: ScopeKind;
  /** The end user, model pattern or `tag=value` of the scope; null for a key or tenant. */
  readonly scopeId?: string | null;
  /** The request field that selected the scope (`user`, `model`, `cf-aig-metadata.team`); null for a key or tenant. */
  readonly param?: string | null;
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

/** A scope's downgrade that applies to this request: nothing was held; ask again for `route`'s models. */
export interface DowngradeSignal {
  readonly route: string;
  readonly scope: ScopeKind;
  readonly scopeId: string | null;
  /** The budget that reached the downgrade's percent. */
  readonly kind: LimitKind;
  readonly atPercent: number;
}

/**
 * A refusal is a denial (a limit was hit), a downgrade (a scope sends the request to a cheaper
 * route instead; nothing held) or `invalid`: input the object will not store (see isCharge).
 */
export type ReserveResult =
  | { readonly ok: true; readonly id: string; readonly quota: Quota; readonly grant?: Grant }
  | { readonly ok: false; readonly denial: Denial; readonly quota: Quota }
  | { readonly ok: false; readonly downgrade: DowngradeSignal; readonly quota: Quota }
  | { readonly ok: false; readonly invalid: string };

export interface LedgerRow {
  readonly tokensSpent: number;
  readonly tokensHeld: number;
  readonly nanosSpent: number;
  readonly nanosHeld: number;
  readonly requestsSpent: number;
  readonly requestsHeld: number;
}

export const EMPTY_LEDGER: LedgerRow = {
  tokensSpent: 0,
  tokensHeld: 0,
  nanosSpent: 0,
  nanosHeld: 0,
  requestsSpent: 0,
  requestsHeld: 0,
};

/** Everything the checks need to know about one scope, as of the last write. */
export interface ScopeState {
  readonly inflight: number;
  readonly requests: WindowCounts;
  readonly tokens: WindowCounts;
  readonly ledger: Readonly<Record<Period, LedgerRow>>;
}

export const NANOS_PER_USD = 1_000_000_000;

/** The last refusal a scope made, for the admin's badges (refusing, exhausted). */
export interface LastDenial {
  readonly kind: LimitKind;
  /** Epoch ms of the latest refusal of this kind. */
  readonly at: number;
  /** Refusals of this scope since its first one was recorded. */
  readonly count: number;
}

/** The state of one scope for the admin read, with the period keys it was read for. */
export interface ScopeDump {
  readonly state: ScopeState;
  readonly periods: Readonly<Record<Period, string>>;
  readonly lastDenial: LastDenial | null;
}

/** One end user's override as its shard stores it. */
export interface UserOverride {
  readonly user: string;
  readonly rule: ScopeRule;
}

/** An end user as its shard sees it: the override set for them (null: the tenant's default) and counters. */
export interface UserState {
  readonly override: ScopeRule | null;
  readonly dump: ScopeDump;
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

/** The admin methods of an end-user shard (the same Limiter class, named by src/limits/shards.ts). */
export interface UserShardRpc {
  setOverride(user: string, rule: ScopeRule | null): Promise<void>;
  userState(user: string): Promise<UserState>;
  listOverrides(limit: number): Promise<UserOverride[]>;
}

/** The admin reads of a tenant's Limiter object (a DurableObjectStub<Limiter> has them). */
export interface LimiterReads {
  /** The tenant's scope, or one key's (keyId), as the admin usage report reads it. */
  dump(keyId: string | null): Promise<ScopeDump>;
  /** Any scope by its id (`model:openai/*`, `tag:team=search`, …). */
  dumpScope(scopeId: string): Promise<ScopeDump>;
  /** The tenant's fired alerts, newest first. */
  firedAlerts(limit?: number): Promise<FiredAlert[]>;
}
