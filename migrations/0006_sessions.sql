-- Dashboard sessions ended by sign-out before their expiry (src/storage/revoked-sessions.ts).
-- Sessions are signed cookies, stateless otherwise; a row here makes one refused at once,
-- everywhere. A row is useless once its session has expired, and is deleted then.
CREATE TABLE revoked_sessions (
  id TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
);

CREATE INDEX revoked_sessions_by_expiry ON revoked_sessions (expires_at);
