-- Request logs, daily usage rollups and dead letters, written by the log queue
-- consumer (src/logs/). Times are epoch milliseconds; days are UTC 'YYYY-MM-DD'.
-- No foreign keys: a log row outlives nothing it points at, and requests that
-- never authenticated have no tenant or key.

-- One row per request, keyed by the request id (x-edgeway-request-id), so a
-- redelivered message is ignored. Deleted after LOG_RETENTION_DAYS.
CREATE TABLE request_logs (
  id               TEXT PRIMARY KEY,           -- request id
  time             INTEGER NOT NULL,           -- when the request reached the gateway
  day              TEXT NOT NULL,              -- UTC day of `time`, the rollup bucket
  tenant_id        TEXT,                       -- NULL: the request never authenticated
  key_id           TEXT,
  endpoint         TEXT NOT NULL,              -- path, e.g. /v1/chat/completions
  provider         TEXT,
  model            TEXT,                       -- as the client named it
  status           INTEGER NOT NULL,           -- HTTP status sent to the client
  error_source     TEXT CHECK (error_source IN ('gateway', 'provider')),
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
CREATE INDEX request_logs_time ON request_logs (time, id);
CREATE INDEX request_logs_tenant_time ON request_logs (tenant_id, time, id);
CREATE INDEX request_logs_key_time ON request_logs (key_id, time, id);

-- Usage per tenant, key, model and UTC day; never deleted by retention.
-- '' stands for "none" (unauthenticated requests, requests that named no model).
-- Tokens and cost count provider calls only; gateway cache hits count in
-- requests and cache_hits, and what they avoided in saved_tokens / saved_usd.
CREATE TABLE usage_daily (
  tenant_id     TEXT NOT NULL,
  day           TEXT NOT NULL,
  key_id        TEXT NOT NULL,
  model         TEXT NOT NULL,
  requests      INTEGER NOT NULL DEFAULT 0,
  input_tokens  INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cached_tokens INTEGER NOT NULL DEFAULT 0,
  cost_usd      REAL NOT NULL DEFAULT 0,
  cache_hits    INTEGER NOT NULL DEFAULT 0,
  saved_tokens  INTEGER NOT NULL DEFAULT 0,
  saved_usd     REAL NOT NULL DEFAULT 0,
  errors        INTEGER NOT NULL DEFAULT 0,   -- status >= 400, or a stream that failed after its 200
  PRIMARY KEY (tenant_id, day, key_id, model)
) WITHOUT ROWID;
CREATE INDEX usage_daily_key ON usage_daily (key_id, day);

-- Log messages that could not be stored: malformed bodies, and messages that
-- still failed after the dead-letter queue's last-chance write. Kept until an
-- admin removes them, so nothing is dropped silently.
CREATE TABLE dead_letters (
  message_id  TEXT PRIMARY KEY,               -- the queue message id
  queue       TEXT NOT NULL,
  request_id  TEXT,                           -- when the body carried one
  reason      TEXT NOT NULL,
  body        TEXT NOT NULL,                  -- the message body as JSON (capped)
  attempts    INTEGER NOT NULL,
  received_at INTEGER NOT NULL
);
CREATE INDEX dead_letters_received ON dead_letters (received_at);
