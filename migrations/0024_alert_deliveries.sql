-- Budget alerts' webhook delivery state (docs/alerts.md): one row per alert id, written by the alert
-- consumer after each attempt. status: delivered (a 2xx), retrying (the queue tries again at
-- next_attempt_at), failed (the last try failed, or retrying cannot help: the alert is in the dead-letter
-- queue or was dropped). last_error is a status code or an error class, never the URL or a body.
CREATE TABLE alert_deliveries (
  alert_id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('delivered', 'retrying', 'failed')),
  attempts INTEGER NOT NULL,
  last_attempt_at INTEGER NOT NULL,
  next_attempt_at INTEGER,
  delivered_at INTEGER,
  last_error TEXT
);
CREATE INDEX alert_deliveries_by_tenant ON alert_deliveries (tenant_id, last_attempt_at);
