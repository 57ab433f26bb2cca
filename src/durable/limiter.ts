/**
 * The Limiter: a SQLite-backed Durable Object holding scopes' counters. One per
 * tenant (named by its id) holds the tenant's, its keys', its model rules' and
 * tags' scopes; 32 more per tenant (src/limits/shards.ts) hold its end users'.
 * A reserve names the scopes it is in and checks and records all of them or
 * none: a request its key admits but its tenant refuses reserves nothing here.
 * Keys never get an object of their own: their totals must survive the tenant
 * gaining or losing limits, and one coordination point per tenant keeps that trivial.
 *
 * Exactness: every method is synchronous between reading and writing SQLite,
 * so the object's single thread serialises them; a check and its record can
 * never interleave with another request's (see src/limits/check.ts).
 *
 * Lifecycle of a reservation: `reserve` holds the worst case (or, asked for a
 * lease, that of several requests: src/limits/lease-size.ts); `settle`
 * replaces it with the actual charge; an unsettled one is released by the
 * alarm at `expires_at` (an unreported lease is charged its whole hold instead)
 * and kept LATE_SETTLE_GRACE_MS longer, so a settle that
 * arrives late still records its spend (the ledger's `spent` stays the sum of
 * settled usage). Storage: tables `scopes` (windows and in-flight count per
 * scope), `ledger` (spent/held per scope and period key), `reservations`, and
 * the budget alerts' `alert_scopes` and `alerts` (src/limits/alerts-store.ts):
 * each settle that records spend evaluates the scopes' alert thresholds in the
 * same transaction, a reserve refused by a budget records that budget's first
 * refusal of the period, and fired alerts leave for the alert queue after it (an
 * outbox retried from the alarm). Longer than most modules: one object's methods.
 *
 * Defence in depth: whatever a caller sends, the object stores only valid
 * charges (protocol.ts `isCharge`). A reserve with a bad cost or TTL answers
 * `{ ok: false, invalid }` before anything is read or written; a settle with a bad
 * charge is charged what its reservation held (the worst case it agreed to),
 * so the slot is still released; and values read back that are not finite and
 * non-negative (rows written before these checks) count as 0.
 */
import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../env';
import { AlertBook } from '../limits/alerts-store';
import type { ScopeRule } from '../core/settings';
import { decide, quotaOf, type ScopeView } from '../limits/check';
import { downgradeOf } from '../limits/downgrade';
import { grantOf, leaseSize } from '../limits/lease-size';
import { applyReserve, applySettle, NOTHING } from '../limits/ledger';
import { periodKey, type Period } from '../limits/periods';
import {
  type Charge,
  isCharge,
  type LimitKind,
  type ReserveInput,
  type FiredAlert,
  type ReserveResult,
  type ScopeDump,
  type ScopeSettings,
  type ScopeSpec,
  type ScopeState,
  type UserOverride,
  type UserState,
} from '../limits/protocol';
import { refusalOf } from '../limits/refusal';
import { userScopeId } from '../limits/scopes';
import { minuteOf } from '../limits/window';
import {
  ADDED_COLUMNS,
  countedBy,
  heldBy,
  isLease,
  type ReservationRow,
  loadScope,
  SCHEMA,
  saveScope,
  scopesOf,
} from './limiter-rows';
import { lastDenialOf, recordDenial, sweepIdle } from './limiter-upkeep';
import { UserOverrides } from './user-overrides';

export const LATE_SETTLE_GRACE_MS = 24 * 3600 * 1000;
/** The longest a reservation may be held before its alarm releases it. */
export const MAX_RESERVATION_TTL_MS = 7 * 24 * 3600 * 1000;
/** How soon the alarm retries handing fired alerts to the alert queue. */
export const ALERT_RETRY_MS = 30_000;

/** Tenant id → its Limiter object (one per tenant, named by the id). */
export function limiterObjects(
  ns: DurableObjectNamespace<Limiter>,
): (tenantId: string) => DurableObjectStub<Limiter> {
  return (tenantId) => ns.get(ns.idFromName(tenantId));
}

export class Limiter extends DurableObject<Bindings> {
  /** The clock; tests replace it through runInDurableObject. */
  now: () => number = () => Date.now();
  private readonly sql: SqlStorage;
  private alarmAt: number | null = null;
  /** Budget alerts: settings per scope, fired alerts and their outbox (src/limits/alerts-store.ts). */
  private readonly alerts: AlertBook;
  private flushing: Promise<number> | null = null;
  /** End users' overrides, for user shards (src/durable/user-overrides.ts). */
  private readonly userOverrides: UserOverrides;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(SCHEMA);
    // Objects created before leases, scopes or request budgets lack columns added since: add them.
    for (const [table, column, definition] of ADDED_COLUMNS)
      if (!this.sql.exec(`SELECT * FROM ${table} LIMIT 0`).columnNames.includes(column))
        this.sql.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
    this.alerts = new AlertBook(this.sql);
    this.userOverrides = new UserOverrides(this.sql);
    void ctx.blockConcurrencyWhile(async () => {
      this.alarmAt = await ctx.storage.getAlarm();
    });
  }

  /**
   * Holds this request's worst case, or with `want` > 1 a lease of up to that
   * many such requests (leaseSize decides; 1 is a plain reservation).
   */
  reserve(input: ReserveInput): ReserveResult {
    const invalid = invalidInput(input);
    if (invalid) return { ok: false, invalid };
    const now = this.now();
    const periods = currentPeriods(now);
    const specs = specsOf(input);
    const views: ScopeView[] = specs.map((spec) => ({
      scope: spec.kind,
      label: spec.label,
      param: spec.param,
      settings: this.settingsOf(spec),
      state: this.load(spec.id, periods),
    }));
    const downgraded = input.downgraded === true;
    const downgrade = downgraded ? null : downgradeOf(views, input.cost);
    if (downgrade) return { ok: false, downgrade, quota: quotaOf(views, now) };
    const decision = decide(views, input.cost, now);
    if (!decision.ok) {
      this.refused(input, specs[decision.index]!, views[decision.index]!, decision.denial.kind, periods, now);
      return { ok: false, denial: decision.denial, quota: quotaOf(views, now) };
    }

    let grant = grantOf(input.cost, leaseSize(views, input.cost, input.want ?? 1, now, downgraded));
    if (!isCharge(grant) || !decide(views, grant, now, grant.requests).ok) grant = grantOf(input.cost, 1);
    const id = crypto.randomUUID();
    const expiresAt = now + Math.ceil(input.ttlMs);
    const after = views.map((v) => ({ ...v, state: applyReserve(v.state, grant, now, grant.requests) }));
    this.ctx.storage.transactionSync(() => {
      specs.forEach((spec, i) => {
        this.save(spec.id, after[i]!.state, periods);
        if (typeof input.tenantId === 'string')
          this.alerts.remember(input.tenantId, spec.id, views[i]!.settings.budgets, spec.settings.alerts);
      });
      this.sql.exec(
        `INSERT INTO reservations (id, key_scope, scopes, tokens, nanos, requests, charged_at, day, month, state, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'held', ?)`,
        id,
        specs.find((spec) => spec.kind === 'key')?.id ?? specs[0]?.id ?? '',
        JSON.stringify(specs.map((spec) => spec.id)),
        grant.tokens,
        grant.nanos,
        grant.requests,
        minuteOf(now),
        periods.day,
        periods.month,
        expiresAt,
      );
    });
    this.wakeAt(expiresAt);
    return { ok: true, id, quota: quotaOf(after, now), grant };
  }

  /**
   * Replaces a reservation with what was used (null: nothing; not a valid charge:
   * what it held). For a lease, `requests` is how many it admitted (its unused
   * requests leave the rate window; absent: all of them). False when the id is
   * unknown (settled twice, or purged).
   */
  settle(id: string, actual: Charge | null, requests?: number): boolean {
    if (typeof id !== 'string') return false;
    const row = this.sql.exec<ReservationRow>('SELECT * FROM reservations WHERE id = ?', id).toArray()[0];
    if (!row) return false;
    const charged = actual === null ? NOTHING : isCharge(actual) ? actual : heldBy(row);
    const counted = countedBy(row);
    const used =
      Number.isSafeInteger(requests) && (requests as number) >= 0
        ? Math.min(requests as number, counted)
        : counted;
    const fired = this.ctx.storage.transactionSync(() => {
      const n = this.finish(row, charged, row.state === 'held', this.now(), { counted, used });
      this.sql.exec('DELETE FROM reservations WHERE id = ?', id);
      return n;
    });
    if (fired > 0) void this.flushAlerts();
    return true;
  }

  /** Releases reservations past their expiry, deletes expired ones past their grace, re-arms. */
  override alarm(): void {
    const now = this.now();
    this.alarmAt = null;
    const due = this.sql
      .exec<ReservationRow>('SELECT * FROM reservations WHERE expires_at <= ?', now)
      .toArray();
    const fired = this.ctx.storage.transactionSync(() => {
      let n = 0;
      for (const row of due) {
        if (row.state !== 'held') {
          this.sql.exec('DELETE FROM reservations WHERE id = ?', row.id);
          continue;
        }
        // A lease's isolate reports its spend only when it closes: one that never did
        // (evicted, or its settle failed) is charged its whole hold, never less than it
        // may have spent; a late settle corrects it. A reservation is released.
        n += this.finish(row, isLease(row) ? heldBy(row) : NOTHING, true, now);
        this.sql.exec(
          `UPDATE reservations SET state = 'expired', expires_at = ? WHERE id = ?`,
          now + LATE_SETTLE_GRACE_MS,
          row.id,
        );
      }
      return n;
    });
    sweepIdle(this.sql, now, MAX_RESERVATION_TTL_MS + LATE_SETTLE_GRACE_MS + 24 * 3600 * 1000);
    const next = this.sql
      .exec<{ at: number | null }>('SELECT MIN(expires_at) AS at FROM reservations')
      .one().at;
    if (next !== null) this.wakeAt(next);
    if (fired > 0 || this.alerts.outbox(1).length > 0) void this.flushAlerts();
  }

  /** The tenant's most recent fired alerts (its own and its keys'), newest first, for the admin API. */
  firedAlerts(limit = 100): FiredAlert[] {
    return this.alerts.list(Math.max(1, Math.min(500, Math.floor(Number(limit) || 100))));
  }

  /**
   * Hands the outbox's alerts to the alert queue; resolves to how many this call sent. Flushes run
   * one after another (each after the last), so no alert is sent twice by this object; a failed send
   * is retried from the alarm, so none is lost. Without an ALERT_QUEUE binding they stay listed only.
   */
  flushAlerts(): Promise<number> {
    const next = (this.flushing ?? Promise.resolve(0))
      .then(() => this.drainOutbox())
      .catch((err: unknown) => {
        console.error('budget alert outbox could not be read; retrying from the alarm', err);
        this.wakeAt(this.now() + ALERT_RETRY_MS);
        return 0;
      });
    this.flushing = next;
    void next.then(() => {
      if (this.flushing === next) this.flushing = null;
    });
    return next;
  }

  private async drainOutbox(): Promise<number> {
    const { sent, failed } = await this.alerts.drain(this.env.ALERT_QUEUE);
    if (failed) this.wakeAt(this.now() + ALERT_RETRY_MS);
    return sent;
  }

  /** The state of the tenant (keyId null) or of one key, for the admin API. */
  dump(keyId: string | null): ScopeDump {
    return this.dumpScope(keyId === null ? 'tenant' : `key:${keyId}`);
  }

  /** The state of any scope by its id (ScopeSpec.id), for the admin API. */
  dumpScope(scopeId: string): ScopeDump {
    const periods = currentPeriods(this.now());
    return { state: this.load(scopeId, periods), periods, lastDenial: lastDenialOf(this.sql, scopeId) };
  }

  /** Sets (or with null removes) an end user's own limits and budgets, in place of the tenant's default. */
  setOverride(user: string, rule: ScopeRule | null): void {
    if (typeof user !== 'string' || user === '') return;
    this.userOverrides.set(user, rule);
  }

  /** An end user's override (null: the tenant's default applies) and counters. */
  userState(user: string): UserState {
    return { override: this.userOverrides.get(user), dump: this.dumpScope(userScopeId(user)) };
  }

  /** This shard's end users with overrides, by id. */
  listOverrides(limit = 1000): UserOverride[] {
    return this.userOverrides.list(Math.max(1, Math.min(10_000, Math.floor(Number(limit) || 1000))));
  }

  private finish(
    row: ReservationRow,
    actual: Charge,
    held: boolean,
    now: number,
    requests?: { counted: number; used: number },
  ): number {
    const periods = { day: row.day, month: row.month, total: 'total' };
    const settlement = {
      reserved: heldBy(row),
      actual,
      chargedAt: row.charged_at,
      held,
      ...(requests ? { requests } : {}),
      // An expired lease was charged its hold when it expired (alarm above).
      ...(!held && isLease(row) ? { precharged: heldBy(row) } : {}),
    };
    let fired = 0;
    for (const scope of scopesOf(row)) {
      const state = applySettle(this.load(scope, periods), settlement, now);
      this.save(scope, state, periods);
      fired += this.alerts.evaluate(scope, state.ledger, periods, now);
    }
    // Should the send after this transaction not happen (the object evicted), the alarm retries it.
    if (fired > 0) this.wakeAt(now + ALERT_RETRY_MS);
    return fired;
  }

  /**
   * Records a refusal for the badges and, for a budget's first refusal of its period, a
   * `budget.refusing` alert (src/limits/alerts-store.ts), sent after this turn like a threshold's.
   */
  private refused(
    input: ReserveInput,
    spec: ScopeSpec,
    view: ScopeView,
    kind: LimitKind,
    periods: Readonly<Record<Period, string>>,
    now: number,
  ): void {
    recordDenial(this.sql, spec.id, kind, now);
    if (typeof input.tenantId !== 'string') return;
    const refusal = refusalOf(
      input.tenantId,
      spec.id,
      kind,
      view.settings.budgets,
      view.state.ledger,
      periods,
    );
    if (!refusal || !this.alerts.refused(refusal, now)) return;
    this.wakeAt(now + ALERT_RETRY_MS);
    void this.flushAlerts();
  }

  private load(scope: string, periods: Readonly<Record<Period, string>>): ScopeState {
    return loadScope(this.sql, scope, periods);
  }

  private save(scope: string, state: ScopeState, periods: Readonly<Record<Period, string>>): void {
    saveScope(this.sql, scope, state, periods);
  }

  /** A scope's settings for this reserve: an end user's override when their shard has one, else as sent. */
  private settingsOf(spec: ScopeSpec): ScopeSettings {
    if (spec.kind !== 'user' || spec.label === null) return spec.settings;
    const rule = this.userOverrides.get(spec.label);
    return rule ? { ...spec.settings, ...rule, downgrade: rule.downgrade ?? null } : spec.settings;
  }

  private wakeAt(at: number): void {
    if (this.alarmAt !== null && this.alarmAt <= at) return;
    this.alarmAt = at;
    void this.ctx.storage.setAlarm(at);
  }
}

/** Why the object will not store this reservation, or null when it will. */
function invalidInput(input: ReserveInput): string | null {
  if (typeof input !== 'object' || input === null) return 'no reservation given';
  if (!isCharge(input.cost)) return 'cost must be non-negative safe integers (tokens, nanos)';
  const ttl = input.ttlMs;
  if (typeof ttl !== 'number' || !(ttl > 0 && ttl <= MAX_RESERVATION_TTL_MS))
    return `ttlMs must be in (0, ${MAX_RESERVATION_TTL_MS}]`;
  if (input.scopes === undefined) {
    if (typeof input.keyId !== 'string' || input.keyId === '') return 'keyId must be a non-empty string';
    if (typeof input.key !== 'object' || typeof input.tenant !== 'object')
      return 'key and tenant settings are required';
    return null;
  }
  if (!Array.isArray(input.scopes) || input.scopes.length === 0) return 'scopes must be a non-empty list';
  for (const spec of input.scopes)
    if (
      typeof spec?.id !== 'string' ||
      spec.id === '' ||
      typeof spec.settings !== 'object' ||
      spec.settings === null
    )
      return 'every scope needs an id and settings';
  return null;
}

/** The scopes a reserve names: its list, or the key's and tenant's of a reserve from before scopes. */
function specsOf(input: ReserveInput): readonly ScopeSpec[] {
  if (input.scopes) return input.scopes;
  return [
    { id: `key:${input.keyId}`, kind: 'key', label: null, param: null, settings: input.key! },
    { id: 'tenant', kind: 'tenant', label: null, param: null, settings: input.tenant! },
  ];
}

function currentPeriods(now: number): Record<Period, string> {
  return { day: periodKey('day', now), month: periodKey('month', now), total: 'total' };
}
