-- Stored responses of POST /v1/responses (docs/responses.md, "Stored responses"). Each record is one R2 object
-- `responses/<tenant_id>/<id>` (bucket binding RESPONSES); this table is its index, written off the response
-- path: what the daily cron sweeps by expires_at, and what the admin can count. Without the bucket the record
-- itself is kept here, in `body` (JSON, at most 1 MiB; src/storage/response-store.ts), and the row is written
-- before the answer completes. Every read is by (tenant_id, id): no tenant reaches another's rows.
CREATE TABLE stored_responses (
  tenant_id   TEXT NOT NULL,
  id          TEXT NOT NULL,             -- the response id (resp_…)
  key_id      TEXT NOT NULL,
  model       TEXT NOT NULL,
  created_at  INTEGER NOT NULL,          -- epoch ms
  expires_at  INTEGER NOT NULL,          -- epoch ms; an expired record is never served, and is swept
  bytes       INTEGER NOT NULL,          -- the record's JSON size
  body        TEXT CHECK (body IS NULL OR json_valid(body)),  -- the record, only when RESPONSES is not bound
  PRIMARY KEY (tenant_id, id)
) WITHOUT ROWID;
CREATE INDEX stored_responses_expires ON stored_responses (expires_at);

-- Days a tenant's stored responses are kept; NULL: the deployment's RESPONSES_RETENTION_DAYS (default 30);
-- 0: never stored (`store: true` requests are answered, and nothing is kept). It rides in the key record.
ALTER TABLE tenants ADD COLUMN responses_retention_days INTEGER
  CHECK (responses_retention_days IS NULL OR (responses_retention_days BETWEEN 0 AND 3650));
