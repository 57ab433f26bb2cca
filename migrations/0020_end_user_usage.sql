-- Usage per end user and per tag (docs/usage.md): the end user a request was for and the values of the
-- tenant's tag keys are logged with it, and the log consumer rolls them up in the same transaction as
-- usage_daily (src/logs/store.ts), exactly once per request like it.

-- The tenant's end user (x-edgeway-user, or the body's user / safety_identifier / metadata.user_id) and the
-- cf-aig-metadata values of the tenant's tag keys, as a flat JSON object of strings. NULL in rows written
-- before this migration, and when the request named no end user or carried none of the tag keys.
ALTER TABLE request_logs ADD COLUMN end_user TEXT;
ALTER TABLE request_logs ADD COLUMN tags TEXT CHECK (tags IS NULL OR json_valid(tags));
-- GET /admin/logs?end_user=: partial, so a request without an end user writes no index entry.
CREATE INDEX request_logs_end_user ON request_logs (end_user, time, id) WHERE end_user IS NOT NULL;

-- Usage per tenant, UTC day and end user; never deleted by retention. Counters as in usage_daily: tokens
-- and cost count provider calls only, gateway cache hits count in requests and cache_hits, and what they
-- avoided in saved_tokens / saved_usd. Requests without an end user are not here (usage_daily has them).
CREATE TABLE usage_end_users_daily (
  tenant_id     TEXT NOT NULL,
  day           TEXT NOT NULL,
  end_user      TEXT NOT NULL,
  requests      INTEGER NOT NULL DEFAULT 0,
  input_tokens  INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cached_tokens INTEGER NOT NULL DEFAULT 0,
  cost_usd      REAL NOT NULL DEFAULT 0,
  cache_hits    INTEGER NOT NULL DEFAULT 0,
  saved_tokens  INTEGER NOT NULL DEFAULT 0,
  saved_usd     REAL NOT NULL DEFAULT 0,
  errors        INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, day, end_user)
) WITHOUT ROWID;

-- Usage per tenant, UTC day, tag key and value (one row per key a request carried), same counters.
CREATE TABLE usage_tags_daily (
  tenant_id     TEXT NOT NULL,
  day           TEXT NOT NULL,
  tag           TEXT NOT NULL,
  value         TEXT NOT NULL,
  requests      INTEGER NOT NULL DEFAULT 0,
  input_tokens  INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cached_tokens INTEGER NOT NULL DEFAULT 0,
  cost_usd      REAL NOT NULL DEFAULT 0,
  cache_hits    INTEGER NOT NULL DEFAULT 0,
  saved_tokens  INTEGER NOT NULL DEFAULT 0,
  saved_usd     REAL NOT NULL DEFAULT 0,
  errors        INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, day, tag, value)
) WITHOUT ROWID;
