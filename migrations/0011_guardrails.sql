-- Guardrails: a policy per tenant and per key (src/core/guardrail-policy.ts; the key's narrows the tenant's),
-- each request's verdicts in its log row, and daily counts per guardrail. ADD COLUMN suffices: existing rows
-- read back as an empty policy ('{}') and no verdicts (NULL).
ALTER TABLE tenants ADD COLUMN guardrails TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(guardrails));
ALTER TABLE api_keys ADD COLUMN guardrails TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(guardrails));

-- JSON array of {guardrail, direction, action, count}: what fired, what it did, how many values it found.
-- Never the values themselves. NULL when no guardrail fired.
ALTER TABLE request_logs ADD COLUMN guardrails TEXT CHECK (guardrails IS NULL OR json_valid(guardrails));

-- Per tenant, key, UTC day and guardrail: requests it fired on, requests it blocked, values it redacted.
-- Written by the log consumer with usage_daily (same batch idempotency); never deleted by retention.
CREATE TABLE guardrail_daily (
  tenant_id  TEXT NOT NULL,
  day        TEXT NOT NULL,
  key_id     TEXT NOT NULL,
  guardrail  TEXT NOT NULL,
  fired      INTEGER NOT NULL DEFAULT 0,
  blocked    INTEGER NOT NULL DEFAULT 0,
  redacted   INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, day, key_id, guardrail)
) WITHOUT ROWID;
