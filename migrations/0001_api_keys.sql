-- Gateway keys, stored only as SHA-256 hashes of the secret.
CREATE TABLE api_keys (
  id          TEXT PRIMARY KEY,                 -- public id, e.g. key_…
  tenant_id   TEXT NOT NULL,
  name        TEXT NOT NULL DEFAULT '',
  key_hash    TEXT NOT NULL UNIQUE,             -- hex SHA-256 of the full secret
  hint        TEXT NOT NULL,                    -- prefix + last 4, safe to show
  status      TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
  models      TEXT,                             -- JSON array of allowed model ids / 'provider/*'; NULL = all
  expires_at  INTEGER,                          -- epoch ms; NULL = never
  created_at  INTEGER NOT NULL
);
CREATE INDEX api_keys_tenant ON api_keys (tenant_id);
