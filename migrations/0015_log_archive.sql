-- Raw logs in R2 (docs/logs.md, "Archive"). With the LOG_ARCHIVE bucket bound, every log row is written
-- to R2 and request_logs becomes the index of recent requests (LOG_INDEX_DAYS): archive_key names the R2
-- object that holds the row, and payloads live in R2 only (payload_archived says one was logged).
-- Without the bucket both stay NULL / 0 and request_logs keeps everything, payloads included, as before.
ALTER TABLE request_logs ADD COLUMN archive_key TEXT;
ALTER TABLE request_logs ADD COLUMN payload_archived INTEGER NOT NULL DEFAULT 0 CHECK (payload_archived IN (0, 1));
