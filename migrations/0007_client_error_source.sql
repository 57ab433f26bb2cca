-- A stream whose client disconnected is logged with error_source 'client'
-- (error_code 'client_disconnected'), not blamed on the provider. SQLite cannot
-- change a CHECK constraint in place, so request_logs is rebuilt with the same
-- columns, rows and indexes.
CREATE TABLE request_logs_next (
  id               TEXT PRIMARY KEY,           -- request id
  time             INTEGER NOT NULL,           -- when the request reached the gateway
  day              TEXT NOT NULL,              -- UTC day of `time`, the rollup bucket
  tenant_id        TEXT,                       -- NULL: the request never authenticated
  key_id           TEXT,
  endpoint         TEXT NOT NULL,              -- path, e.g. /v1/chat/completions
  provider         TEXT,
  model            TEXT,                       -- as the client named it
  status           INTEGER NOT NULL,           -- HTTP status sent to the client
  error_source     TEXT CHECK (error_source IN ('gateway', 'provider', 'client')),
  error_code       TEXT,                       -- also set for streams that failed after a 200
  cache            TEXT CHECK (cache IN ('HIT', 'SEMANTIC', 'MISS', 'BYPASS')),
  stream           INTEGER NOT NULL CHECK (stream IN (0, 1)),
  stream_completed INTEGER CHECK (stream_completed IN (0, 1)),
  input_tokens     INTEGER NOT NULL,
  output_tokens    INTEGER NOT NULL,
  cached_tokens    INTEGER NOT NULL,           -- provider prompt-cache reads, part of input_tokens
  cost_usd         REAL NOT NULL,              -- 0 for gateway cache hits
  saved_usd        REAL NOT NULL,              -- what a gateway cache hit would have cost
  latency_ms       REAL NOT NULL,
  ttft_ms          REAL,
  attempts         INTEGER NOT NULL,
  metadata         TEXT CHECK (metadata IS NULL OR json_valid(metadata)),  -- cf-aig-metadata
  request_payload  TEXT,                       -- only for keys with log_payload, ≤ LOG_PAYLOAD_MAX_BYTES
  response_payload TEXT,
  payload_truncated INTEGER NOT NULL DEFAULT 0 CHECK (payload_truncated IN (0, 1)),
  ingest_batch     TEXT NOT NULL,              -- the consumer write that inserted the row (rollup idempotency)
  ingested_at      INTEGER NOT NULL
);
INSERT INTO request_logs_next SELECT * FROM request_logs;
UPDATE request_logs_next SET error_source = 'client' WHERE error_code = 'client_disconnected';
DROP TABLE request_logs;
ALTER TABLE request_logs_next RENAME TO request_logs;
CREATE INDEX request_logs_time ON request_logs (time, id);
CREATE INDEX request_logs_tenant_time ON request_logs (tenant_id, time, id);
CREATE INDEX request_logs_key_time ON request_logs (key_id, time, id);
