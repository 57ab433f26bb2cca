/**
 * Budget alerts inside a tenant's Limiter object: each scope's alert settings (remembered from its
 * reserves, so a settle knows them) and the fired alerts. A fired alert is one row per (scope,
 * budget, period key, threshold), inserted in the same synchronous transaction that records the
 * spend, so it fires exactly once however settles interleave. Its `queued` flag makes the same
 * table the outbox: rows not yet handed to the alert queue are sent again from the alarm. Queueing
 * is at least once (a send whose mark is lost is sent again): the message id is stable for receivers.
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
`;

/** Scopes whose alert settings one object keeps in memory. */
const MAX_CACHED_SCOPES = 10_000;

type AlertRow = {
  scope: string;
  budget: string;
  period: string;
  threshold: number;
  limit_value: number;
  spent: number;
  fired_at: number;
  queued: number;
};

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
        .exec<Pick<AlertRow, 'budget' | 'period' | 'threshold'>>(
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
    return this.rows('ORDER BY fired_at DESC, threshold DESC LIMIT ?', limit).map((r) => ({
      ...this.message(r),
      queued: r.queued === 1,
    }));
  }

  private rows(clause: string, limit: number): AlertRow[] {
    return this.sql.exec<AlertRow>(`SELECT * FROM alerts ${clause}`, limit).toArray();
  }

  private message(r: AlertRow): AlertMessage {
    const tenantId = this.settingsOf(r.scope)?.tenantId ?? this.anyTenantId();
    const scope = describeScope(r.scope);
    return {
      id: `${tenantId}:${r.scope}:${crossingKey({ ...r, budget: r.budget as BudgetKind })}`,
      type: 'budget.threshold',
      tenant_id: tenantId,
      key_id: scope.keyId,
      scope: scope.kind,
      scope_id: scope.label,
      budget: r.budget as BudgetKind,
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
