/**
 * Revoked dashboard sessions in D1 (table `revoked_sessions`, migration 0006):
 * the server-side half of sign-out. A session id is random and useless without
 * its cookie's MAC, so it is stored as is. Each row is kept until its session
 * would have expired anyway; sign-out deletes the rows past that point, so the
 * table holds at most the sessions ended early in the last SESSION_TTL_MS.
 * Read once per dashboard page (never on /v1): a revocation must hold in every
 * isolate at once, so there is no cache in front of it.
 */

export interface SessionRevocations {
  isRevoked(id: string): Promise<boolean>;
  revoke(id: string, expiresAt: number, now: number): Promise<void>;
}

export class D1SessionRevocations implements SessionRevocations {
  constructor(private readonly db: D1Database) {}

  async isRevoked(id: string): Promise<boolean> {
    const row = await this.db.prepare('SELECT 1 AS hit FROM revoked_sessions WHERE id = ?').bind(id).first();
    return row !== null;
  }

  async revoke(id: string, expiresAt: number, now: number): Promise<void> {
    await this.db.batch([
      this.db.prepare('DELETE FROM revoked_sessions WHERE expires_at <= ?').bind(now),
      this.db
        .prepare('INSERT OR IGNORE INTO revoked_sessions (id, expires_at) VALUES (?, ?)')
        .bind(id, expiresAt),
    ]);
  }
}
