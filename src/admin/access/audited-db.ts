/**
 * The admin request's database handle: D1 as is for reads, and every write
 * made inside one batch (one transaction) that first names the acting admin
 * in audit_actor and empties it again at the end. The audit triggers
 * (migration 0014) read that row, so each change and its audit row, with who
 * made it, commit or fail together. Stores need no audit code of their own:
 * they are handed this handle instead of the binding.
 */
import type { AdminPrincipal } from '../../core/admin-principal';

const READ = /^\s*(SELECT|PRAGMA|EXPLAIN)\b/i;

export interface AuditActor {
  who: AdminPrincipal;
  /** The admin API operation, e.g. `PATCH /admin/tenants/{id}`. */
  operation: string;
  now: number;
}

class AuditedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly write: boolean,
    private readonly db: AuditedDatabase,
  ) {}

  bind(...values: unknown[]): AuditedStatement {
    return new AuditedStatement(this.inner.bind(...values), this.write, this.db);
  }

  async first<T = Record<string, unknown>>(column?: string): Promise<T | null> {
    if (!this.write) return column === undefined ? this.inner.first<T>() : this.inner.first<T>(column);
    const [result] = await this.db.batch<Record<string, unknown>>([this]);
    const row = result?.results[0] ?? null;
    if (row === null || column === undefined) return row as T | null;
    return (row[column] ?? null) as T | null;
  }

  async run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    if (!this.write) return this.inner.run<T>();
    const [result] = await this.db.batch<T>([this]);
    if (!result) throw new Error('audited write returned no result');
    return result;
  }

  async all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.run<T>();
  }

  raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[]> {
    if (this.write) throw new Error('raw() is not supported on an audited write');
    return options?.columnNames
      ? (this.inner.raw<T>({ columnNames: true }) as Promise<T[]>)
      : this.inner.raw<T>();
  }
}

class AuditedDatabase {
  constructor(
    private readonly db: D1Database,
    private readonly actor: AuditActor,
  ) {}

  prepare(sql: string): AuditedStatement {
    return new AuditedStatement(this.db.prepare(sql), !READ.test(sql), this);
  }

  async batch<T = unknown>(statements: (AuditedStatement | D1PreparedStatement)[]): Promise<D1Result<T>[]> {
    const { who, operation, now } = this.actor;
    const open = this.db
      .prepare(
        'INSERT OR REPLACE INTO audit_actor (one, actor_id, actor_name, operation, at) VALUES (1, ?, ?, ?, ?)',
      )
      .bind(who.id, who.name, operation, now);
    const close = this.db.prepare('DELETE FROM audit_actor');
    const inner = statements.map((s) => (s instanceof AuditedStatement ? s.inner : s));
    const results = await this.db.batch<T>([open, ...inner, close]);
    return results.slice(1, -1);
  }

  exec(query: string): Promise<D1ExecResult> {
    return this.db.exec(query);
  }

  withSession(constraintOrBookmark?: string): D1DatabaseSession {
    return this.db.withSession(constraintOrBookmark);
  }

  dump(): Promise<ArrayBuffer> {
    return this.db.dump();
  }
}

/** `db` for one admin request acting as `actor`; it has D1Database's shape, so stores take it as the binding. */
export function auditedDatabase(db: D1Database, actor: AuditActor): D1Database {
  return new AuditedDatabase(db, actor) as unknown as D1Database;
}
