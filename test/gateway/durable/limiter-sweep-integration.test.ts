/** The Limiter's alarm forgets idle scopes' state without changing what any limit sees. */
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { ScopeSpec } from '../../../src/limits/protocol';
import { WINDOW_MS } from '../../../src/limits/window';
import { limiterOf } from '../limits-helpers';

const T0 = Date.UTC(2099, 10, 3, 12, 0, 0);
const DAY = 24 * 3600 * 1000;

const user = (id: string): ScopeSpec => ({
  id: `user:${id}`,
  kind: 'user',
  label: id,
  param: 'user',
  settings: { limits: { rpm: 5 }, budgets: { requests: { day: 10, total: 100 } } },
});

const rows = (sql: SqlStorage, table: string, scope: string) =>
  sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE scope = ?`, scope).one().n;

describe("the Limiter's sweep of idle state", () => {
  it('deletes stale windows and old day rows, keeps the total, and every limit reads the same after', async () => {
    await runInDurableObject(limiterOf(`ten_${crypto.randomUUID()}/users/0`), (limiter, state) => {
      let now = T0;
      limiter.now = () => now;
      const sql = state.storage.sql;
      const input = (id: string) => ({ scopes: [user(id)], cost: { tokens: 10, nanos: 10 }, ttlMs: 60_000 });
      for (let i = 0; i < 3; i++) {
        const r = limiter.reserve(input('quiet'));
        if (!r.ok) throw new Error('refused');
        limiter.settle(r.id, { tokens: 5, nanos: 5 });
      }
      expect(rows(sql, 'scopes', 'user:quiet')).toBe(1);
      expect(rows(sql, 'ledger', 'user:quiet')).toBe(3);

      // Two minutes idle: the window row goes (it reads as zero anyway); today's rows stay.
      now = T0 + 3 * WINDOW_MS;
      limiter.alarm();
      expect(rows(sql, 'scopes', 'user:quiet')).toBe(0);
      expect(limiter.dumpScope('user:quiet').state.ledger.day.requestsSpent).toBe(3);

      // Past every reservation's life: the old day row goes; the month and total rows stay.
      now = T0 + 10 * DAY;
      const fresh = limiter.reserve(input('other'));
      expect(fresh.ok).toBe(true);
      limiter.alarm();
      expect(
        sql
          .exec<{ n: number }>(
            "SELECT COUNT(*) AS n FROM ledger WHERE scope = 'user:quiet' AND period = '2099-11-03'",
          )
          .one().n,
      ).toBe(0);
      const after = limiter.dumpScope('user:quiet').state.ledger;
      expect(after.total.requestsSpent).toBe(3);
      expect(after.month.requestsSpent).toBe(3);
      // A user with a reservation in flight keeps its window row.
      expect(rows(sql, 'scopes', 'user:other')).toBe(1);
    });
  });
});
