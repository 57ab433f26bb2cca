/**
 * End users' overrides inside a user shard (src/limits/shards.ts): the limits and budgets an admin set
 * for one end user in place of the tenant's default, stored beside that user's counters so enforcing
 * one reads nothing else. SQLite holds them all; memory keeps the ones read lately, bounded.
 */
import type { ScopeRule } from '../core/settings';
import type { UserOverride } from '../limits/protocol';

/** End users' overrides kept in memory per object; the rest are read from SQLite. */
const CACHED = 10_000;

export class UserOverrides {
  /** User → its rule (null: none), as read or set so far. */
  private readonly cache = new Map<string, ScopeRule | null>();

  constructor(private readonly sql: SqlStorage) {}

  /** The user's override, or null when the tenant's default applies. */
  get(user: string): ScopeRule | null {
    const known = this.cache.get(user);
    if (known !== undefined) return known;
    const row = this.sql
      .exec<{ rule: string }>('SELECT rule FROM overrides WHERE user = ?', user)
      .toArray()[0];
    const rule = row ? (JSON.parse(row.rule) as ScopeRule) : null;
    this.keep(user, rule);
    return rule;
  }

  /** Sets (or with null removes) the user's override. */
  set(user: string, rule: ScopeRule | null): void {
    if (rule === null) this.sql.exec('DELETE FROM overrides WHERE user = ?', user);
    else
      this.sql.exec(
        'INSERT OR REPLACE INTO overrides (user, rule) VALUES (?, ?)',
        user,
        JSON.stringify(rule),
      );
    this.keep(user, rule);
  }

  /** Up to `limit` overrides, by user id. */
  list(limit: number): UserOverride[] {
    return this.sql
      .exec<{ user: string; rule: string }>('SELECT user, rule FROM overrides ORDER BY user LIMIT ?', limit)
      .toArray()
      .map((r) => ({ user: r.user, rule: JSON.parse(r.rule) as ScopeRule }));
  }

  private keep(user: string, rule: ScopeRule | null): void {
    if (this.cache.size >= CACHED) this.cache.clear();
    this.cache.set(user, rule);
  }
}
