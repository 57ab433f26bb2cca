/**
 * Throttle: one small SQLite Durable Object per client address (named by it),
 * counting that client's wrong admin tokens across every isolate. The rule
 * and the calls are src/core/throttle-protocol.ts's; the isolate-side cache that spares most
 * calls is src/admin/access/throttle-gate.ts. Each method reads and writes its one
 * row synchronously, so concurrent failures are counted exactly. An alarm
 * deletes the row once its window and block are over, so storage holds only
 * clients that failed recently.
 */
import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../env';
import { addFailure, type FailureWindow, forgetAt, type ThrottleStore } from '../core/throttle-protocol';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS failures (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    start INTEGER NOT NULL,
    count INTEGER NOT NULL,
    blocked_until INTEGER NOT NULL
  );
`;

type Row = { start: number; count: number; blocked_until: number };

/** Client → its Throttle object, as the gate's store. */
export function throttleObjects(ns: DurableObjectNamespace<Throttle>): ThrottleStore {
  const stub = (client: string) => ns.get(ns.idFromName(client));
  return {
    fail: (client) => stub(client).fail(),
    blockedUntil: (client) => stub(client).blockedUntil(),
  };
}

export class Throttle extends DurableObject<Bindings> {
  /** The clock; tests replace it through runInDurableObject. */
  now: () => number = () => Date.now();
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(SCHEMA);
  }

  /** Records one failure; returns when the client's block ends (0: not blocked). */
  fail(): number {
    const now = this.now();
    const w = addFailure(this.read(), now);
    this.sql.exec(
      'INSERT OR REPLACE INTO failures (id, start, count, blocked_until) VALUES (1, ?, ?, ?)',
      w.start,
      w.count,
      w.blockedUntil,
    );
    void this.ctx.storage.setAlarm(forgetAt(w));
    return w.blockedUntil > now ? w.blockedUntil : 0;
  }

  /** When the client's block ends (0: not blocked). Reads only. */
  blockedUntil(): number {
    const until = this.read()?.blockedUntil ?? 0;
    return until > this.now() ? until : 0;
  }

  override alarm(): void {
    const w = this.read();
    if (w && forgetAt(w) > this.now()) void this.ctx.storage.setAlarm(forgetAt(w));
    else this.sql.exec('DELETE FROM failures');
  }

  private read(): FailureWindow | null {
    const row = this.sql.exec<Row>('SELECT start, count, blocked_until FROM failures').toArray()[0];
    return row ? { start: row.start, count: row.count, blockedUntil: row.blocked_until } : null;
  }
}
