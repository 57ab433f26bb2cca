/**
 * Budget alerts inside a tenant's Limiter object: each scope's alert settings (remembered from its
 * reserves, so a settle knows them) and the fired alerts. A fired alert is one row per (scope,
 * budget, period key, threshold), inserted in the same synchronous transaction that records the
 * spend, so it fires exactly once however settles interleave. Its `queued` flag makes the same
 * table the outbox: rows not yet handed to the alert queue are sent again from the alarm. Queueing
 * is at least once (a send whose mark is lost is sent again): the message id is stable for receivers.
 * A budget's first refusal of a period (`budget.refusing`) is one row of `refusal_alerts` per
 * (scope, budget, period key), inserted by the reserve that refused, in the object's single thread:
 * exactly once however many requests are refused together. It fires for every scope with a budget,
 * thresholds or not: a request refused is what an operator most needs to hear of, and a budget
 * reserves each request's worst case, so a refusing budget may never reach a 100 % threshold.
 */
import type { AlertMessage, BudgetKind } from '../core/alert-message';
import type { AlertSettings, Budgets } from '../core/settings';
import { type AlertScope, alertsApply, crossingKey, crossings } from './alerts';
import type { Period } from './periods';
import type { FiredAlert, LedgerRow } from './protocol';
import { describeScope } from './scopes';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS alert_scopes (
    scope TEXT PRIMARY KEY,                 -- a scope id (src/limits/scopes.ts)
    tenant_id TEXT NOT NULL,
    settings TEXT NOT NULL                  -- JSON AlertScope: budgets and thresholds
  );
  CREATE TABLE IF NOT EXISTS alerts (
    scope TEXT NOT NULL,
    budget TEXT NOT NULL,                   -- 'tokens_day' … 'requests_total'
    period TEXT NOT NULL,                   -- the ledger's period key
    threshold INTEGER NOT NULL,             -- percent
    limit_value REAL NOT NULL, spent REAL NOT NULL,
    fired_at INTEGER NOT NULL,
    queued INTEGER NOT NULL DEFAULT 0,      -- 0: in the outbox; 1: handed to the alert queue
    PRIMARY KEY (scope, budget, period, threshold)
  );
  CREATE INDEX IF NOT EXISTS alerts_by_time ON alerts (fired_at);
  CREATE TABLE IF NOT EXISTS refusal_alerts (
    scope TEXT NOT NULL,
    budget TEXT NOT NULL,                   -- the refusing budget: 'tokens_day' … 'requests_total'
    period TEXT NOT NULL,                   -- the ledger's period key
    tenant_id TEXT NOT NULL,
    limit_value REAL NOT NULL, spent REAL NOT NULL,
    fired_at INTEGER NOT NULL,
    queued INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, budget, period)
  );
  CREATE INDEX IF NOT EXISTS refusal_alerts_by_time ON refusal_alerts (fired_at);
`;

/** Scopes whose alert settings one object keeps in memory. */
const MAX_CACHED_SCOPES = 10_000;

type AlertRow = {
  scope: string;
  budget: string;
  period: string;
  /** Null for a refusal alert. */
  threshold: number | null;
  limit_value: number;
  spent: number;
  fired_at: number;
  queued: number;
  /** A refusal alert's tenant (a threshold alert's comes from its scope's settings). */
  tenant_id?: string;
};

/** What a budget's refusal records (the limit and spent in tokens, requests or USD). */
export interface Refusal {
  readonly tenantId: string;
  readonly scope: string;
  readonly budget: BudgetKind;
  readonly period: string;
  readonly limit: number;
  readonly spent: number;
}

/** Both alert tables as one: a threshold alert and a refusal alert, in the same columns. */
const ALL_ALERTS = `(
  SELECT scope, budget, period, threshold, limit_value, spent, fired_at, queued, NULL AS tenant_id FROM alerts
  UNION ALL
  SELECT scope, budget, period, NULL, limit_value, spent, fired_at, queued, tenant_id FROM refusal_alerts)`;

interface Remembered {
  readonly tenantId: string;
  readonly json: string;
  readonly scope: AlertScope;
}

export class AlertBook {
  /** Scope → its remembered settings (null: none), read from SQLite at most once per object. */
  private readonly scopes = new Map<string, Remembered | null>();
  /** Message id → the scope of the alert it was built from, for marking it queued. */
  private readonly sentFrom = new Map<string, string>();

  constructor(private readonly sql: SqlStorage) {
    sql.exec(SCHEMA);
  }

  /** Stores a scope's settings as a reserve sent them; writes only when they changed. */
  remember(tenantId: string, scope: string, budgets: Budgets, alerts: AlertSettings | undefined): void {
    const settings: AlertScope = { budgets, thresholds: alerts?.thresholds ?? [] };
    const known = this.settingsOf(scope);
    if (!alertsApply(settings)) {
      if (known) this.sql.exec('DELETE FROM alert_scopes WHERE scope = ?', scope);
      this.cache(scope, null);
      return;
    }
    const json = JSON.stringify(settings);
    if (known?.json === json && known.tenantId === tenantId) return;
    this.sql.exec(
      'INSERT OR REPLACE INTO alert_scopes (scope, tenant_id, settings) VALUES (?, ?, ?)',
      scope,
      tenantId,
      json,
    );
    this.cache(scope, { tenantId, json, scope: settings });
  }

  /** A user shard sees many scopes: the memory copy is bounded, SQLite keeps them all. */
  private cache(scope: string, remembered: Remembered | null): void {
    if (this.scopes.size >= MAX_CACHED_SCOPES && !this.scopes.has(scope)) this.scopes.clear();
    this.scopes.set(scope, remembered);
  }

  /** Records the thresholds `ledger` has newly reached; call inside the transaction that saved it. */
  evaluate(
    scope: string,
    ledger: Readonly<Record<Period, LedgerRow>>,
    periods: Readonly<Record<Period, string>>,
    now: number,
  ): number {
    const settings = this.settingsOf(scope);
    if (!settings) return 0;
    const fired = new Set(
      this.sql
        .exec<{ budget: string; period: string; threshold: number }>(
          'SELECT budget, period, threshold FROM alerts WHERE scope = ? AND period IN (?, ?, ?)',
          scope,
          periods.day,
          periods.month,
          periods.total,
        )
        .toArray()
        .map((r) => crossingKey({ ...r, budget: r.budget as BudgetKind })),
    );
    const due = crossings(settings.scope, ledger, periods, fired);
    for (const c of due)
      this.sql.exec(
        `INSERT OR IGNORE INTO alerts (scope, budget, period, threshold, limit_value, spent, fired_at, queued)
         VALUES (?, ?, ?, ?, ?, ?, ?, 0)`,
        scope,
        c.budget,
        c.period,
        c.threshold,
        c.limit,
        c.spent,
        now,
      );
    return due.length;
  }

  /**
   * Records a budget's first refusal in its period; true when this call recorded it (false: it had
   * already fired). Call in the same synchronous turn that refused the request.
   */
  refused(r: Refusal, now: number): boolean {
    const { rowsWritten } = this.sql.exec(
      `INSERT OR IGNORE INTO refusal_alerts (scope, budget, period, tenant_id, limit_value, spent, fired_at, queued)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0)`,
      r.scope,
      r.budget,
      r.period,
      r.tenantId,
      r.limit,
      r.spent,
      now,
    );
    return rowsWritten > 0;
  }

  /** Alerts not yet handed to the queue, oldest first. */
  outbox(limit = 100): AlertMessage[] {
    return this.rows('WHERE queued = 0 ORDER BY fired_at ASC LIMIT ?', limit).map((r) => {
      const message = this.message(r);
      this.sentFrom.set(message.id, r.scope);
      return message;
    });
  }

  /** Marks alerts (by message id) as handed to the queue. */
  markQueued(messages: readonly AlertMessage[]): void {
    for (const m of messages) {
      const scope = this.sentFrom.get(m.id);
      this.sentFrom.delete(m.id);
      if (scope === undefined) continue;
      if (m.type === 'budget.refusing') {
        this.sql.exec(
          'UPDATE refusal_alerts SET queued = 1 WHERE scope = ? AND budget = ? AND period = ?',
          scope,
          m.budget,
          m.period,
        );
        continue;
      }
      this.sql.exec(
        'UPDATE alerts SET queued = 1 WHERE scope = ? AND budget = ? AND period = ? AND threshold = ?',
        scope,
        m.budget,
        m.period,
        m.threshold,
      );
    }
  }

  /**
   * Sends the outbox to `queue` batch by batch, marking each batch once the queue took it; stops at
   * the first failure (`failed`: the caller retries later). Without a queue nothing leaves.
   */
  async drain(queue: Queue | undefined): Promise<{ sent: number; failed: boolean }> {
    let sent = 0;
    if (!queue) return { sent, failed: false };
    for (let batch = this.outbox(); batch.length > 0; batch = this.outbox()) {
      try {
        await queue.sendBatch(batch.map((body) => ({ body, contentType: 'json' as const })));
      } catch (err) {
        console.error('budget alerts could not be queued; retrying from the alarm', err);
        return { sent, failed: true };
      }
      this.markQueued(batch);
      sent += batch.length;
    }
    return { sent, failed: false };
  }

  /** The most recent fired alerts, newest first. */
  list(limit: number): FiredAlert[] {
    return this.rows('ORDER BY fired_at DESC, threshold IS NULL DESC, threshold DESC LIMIT ?', limit).map(
      (r) => ({
        ...this.message(r),
        queued: r.queued === 1,
      }),
    );
  }

  private rows(clause: string, limit: number): AlertRow[] {
    return this.sql.exec<AlertRow>(`SELECT * FROM ${ALL_ALERTS} ${clause}`, limit).toArray();
  }

  private message(r: AlertRow): AlertMessage {
    const tenantId = r.tenant_id ?? this.settingsOf(r.scope)?.tenantId ?? this.anyTenantId();
    const scope = describeScope(r.scope);
    const budget = r.budget as BudgetKind;
    const refusing = r.threshold === null;
    const which =
      r.threshold === null
        ? `${budget}:${r.period}:refusing`
        : crossingKey({ period: r.period, budget, threshold: r.threshold });
    return {
      id: `${tenantId}:${r.scope}:${which}`,
      type: refusing ? 'budget.refusing' : 'budget.threshold',
      tenant_id: tenantId,
      key_id: scope.keyId,
      scope: scope.kind,
      scope_id: scope.label,
      budget,
      period: r.period,
      threshold: r.threshold,
      limit: r.limit_value,
      spent: r.spent,
      fired_at: new Date(r.fired_at).toISOString(),
    };
  }

  /** Every scope of one object belongs to its tenant: any remembered row names it. */
  private anyTenantId(): string {
    const row = this.sql
      .exec<{ tenant_id: string }>('SELECT tenant_id FROM alert_scopes LIMIT 1')
      .toArray()[0];
    return row?.tenant_id ?? '';
  }

  private settingsOf(scope: string): Remembered | null {
    const cached = this.scopes.get(scope);
    if (cached !== undefined) return cached;
    const row = this.sql
      .exec<{ tenant_id: string; settings: string }>(
        'SELECT tenant_id, settings FROM alert_scopes WHERE scope = ?',
        scope,
      )
      .toArray()[0];
    const remembered = row
      ? { tenantId: row.tenant_id, json: row.settings, scope: JSON.parse(row.settings) as AlertScope }
      : null;
    this.cache(scope, remembered);
    return remembered;
  }
}
