-- Raw logs in R2 (docs/logs.md, "Archive"). With the LOG_ARCHIVE bucket bound, every log row is written
-- to R2 and request_logs becomes the index of recent requests (LOG_INDEX_DAYS): archive_key names the R2
-- object that holds the row, and payloads live in R2 only (payload_archived says one was logged).
-- Without the bucket both stay NULL / 0 and request_logs keeps everything, payloads included, as before.
ALTER TABLE request_logs ADD COLUMN archive_key TEXT;
ALTER TABLE request_logs ADD COLUMN payload_archived INTEGER NOT NULL DEFAULT 0 CHECK (payload_archived IN (0, 1));

-- With the archive and LOG_INDEX_DAYS = 0 (rollups only), no request_logs row is written, and what makes the
-- rollups exactly-once is this table instead: one row per archive object (a producer batch's rows of one
-- tenant and hour, always written together). A write rolls up only the rows whose object it recorded here
-- first; a redelivered batch finds its objects recorded and adds nothing. Kept like the batch receipts.
CREATE TABLE log_ingest (
  key    TEXT PRIMARY KEY,          -- the archive object's key
  stamp  TEXT NOT NULL,             -- the write that recorded it
  at     INTEGER NOT NULL           -- when, epoch ms (retention)
);
CREATE INDEX log_ingest_stamp ON log_ingest (stamp);
CREATE INDEX log_ingest_at ON log_ingest (at);
