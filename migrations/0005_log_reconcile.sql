-- Log reconciliation (src/logs/read/reconcile.ts): one receipt per log batch that
-- reached D1, through the queue, its dead-letter queue, or the producer's
-- direct write after the queue refused it. Producers number their batches per
-- isolate (seq 1, 2, …) and carry a running count of the events they sent, so
-- these rows alone tell what was sent, what was stored and what is missing:
-- no write per request. Kept as long as raw logs (whole isolates at a time).
CREATE TABLE log_batches (
  isolate     TEXT NOT NULL,                  -- the producing isolate's random id
  seq         INTEGER NOT NULL,               -- the batch's number within its isolate, from 1
  sent        INTEGER NOT NULL,               -- events the isolate had sent up to and including this batch
  events      INTEGER NOT NULL,               -- events in this batch
  stored      INTEGER NOT NULL,               -- of them, in request_logs
  dead        INTEGER NOT NULL,               -- of them, in dead_letters
  via         TEXT NOT NULL CHECK (via IN ('queue', 'dlq', 'direct')),
  received_at INTEGER NOT NULL,
  PRIMARY KEY (isolate, seq)
) WITHOUT ROWID;
CREATE INDEX log_batches_received ON log_batches (received_at);
