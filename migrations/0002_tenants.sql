-- Tenants, and the per-key settings the admin API manages.
--
-- api_keys is rebuilt (SQLite cannot add a foreign key to an existing column) so that
-- tenant_id REFERENCES tenants(id). D1 enforces foreign keys (PRAGMA foreign_keys = on),
-- so a key can never point at a missing tenant; tenants are disabled, never deleted.
-- Keys created before this migration keep working: their tenants are created here.
-- Times are epoch milliseconds. JSON columns hold the zod shapes in src/storage/settings.ts.

CREATE TABLE tenants (
  id          TEXT PRIMARY KEY,                 -- public id, e.g. ten_…
  name        TEXT NOT NULL,
  status      TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  limits      TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(limits)),    -- Limits, shared by all the tenant's keys
  budgets     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(budgets)),   -- Budgets, shared by all the tenant's keys
  metadata    TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata)),  -- flat JSON object, admin's own labels
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
CREATE INDEX tenants_created ON tenants (created_at, id);

INSERT INTO tenants (id, name, created_at, updated_at)
  SELECT tenant_id, tenant_id, MIN(created_at), MIN(created_at) FROM api_keys GROUP BY tenant_id;

CREATE TABLE api_keys_new (
  id                  TEXT PRIMARY KEY,         -- public id, e.g. key_…
  tenant_id           TEXT NOT NULL REFERENCES tenants (id),
  name                TEXT NOT NULL DEFAULT '',
  key_hash            TEXT NOT NULL UNIQUE,     -- hex SHA-256 of the full secret
  hint                TEXT NOT NULL,            -- prefix + last 4, safe to show
  status              TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
  models              TEXT CHECK (models IS NULL OR json_valid(models)),  -- JSON array of ids / 'provider/*'; NULL = all
  limits              TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(limits)),
  budgets             TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(budgets)),
  cache               TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(cache)),
  log_payload         INTEGER NOT NULL DEFAULT 0 CHECK (log_payload IN (0, 1)),
  metadata            TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata)),
  expires_at          INTEGER,                  -- NULL = never
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL,
  last_used_at        INTEGER,                  -- written off the hot path (log consumer), never per request
  revoked_at          INTEGER,
  previous_hash       TEXT,                     -- the secret replaced by the last rotation, accepted until:
  previous_expires_at INTEGER                   -- end of its grace period
);

INSERT INTO api_keys_new (id, tenant_id, name, key_hash, hint, status, models, expires_at, created_at, updated_at)
  SELECT id, tenant_id, name, key_hash, hint, status, models, expires_at, created_at, created_at FROM api_keys;

DROP TABLE api_keys;
ALTER TABLE api_keys_new RENAME TO api_keys;

CREATE INDEX api_keys_tenant ON api_keys (tenant_id, created_at, id);
CREATE INDEX api_keys_previous_hash ON api_keys (previous_hash) WHERE previous_hash IS NOT NULL;
