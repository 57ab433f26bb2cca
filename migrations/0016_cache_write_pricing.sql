-- Prompt-cache writes and reasoning tokens, logged and priced (docs/logs.md, docs/limits.md "Prices").
-- Each new count is a part of a count the row already has: cache writes (any TTL) and the part of them
-- written with a 1-hour TTL are part of input_tokens, like cached_tokens; reasoning tokens are part of
-- output_tokens. Rows written before this migration read 0.
ALTER TABLE request_logs ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE request_logs ADD COLUMN cache_write_1h_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE request_logs ADD COLUMN reasoning_tokens INTEGER NOT NULL DEFAULT 0;

-- Price overrides gain the two cache-write prices (USD per 1M tokens). NULL in rows set before this
-- migration: the write price defaults to the input price and the 1-hour one to the write price
-- (src/core/pricing.ts, priceWithDefaults), as the admin API fills them when they are not given.
ALTER TABLE price_overrides ADD COLUMN cache_write REAL CHECK (cache_write IS NULL OR cache_write >= 0);
ALTER TABLE price_overrides ADD COLUMN cache_write_1h REAL CHECK (cache_write_1h IS NULL OR cache_write_1h >= 0);

-- The audit triggers of migration 0014 name the columns they record: recreated with the new ones.
DROP TRIGGER audit_price_overrides_insert;
DROP TRIGGER audit_price_overrides_update;
DROP TRIGGER audit_price_overrides_delete;

CREATE TRIGGER audit_price_overrides_insert AFTER INSERT ON price_overrides
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'price', NEW.model, NULL, 'create',
         NULL,
         json_object('model', NEW.model, 'input', NEW.input, 'output', NEW.output, 'cached', NEW.cached,
                     'cache_write', NEW.cache_write, 'cache_write_1h', NEW.cache_write_1h, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_price_overrides_update AFTER UPDATE ON price_overrides
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'price', NEW.model, NULL, 'update',
         json_object('model', OLD.model, 'input', OLD.input, 'output', OLD.output, 'cached', OLD.cached,
                     'cache_write', OLD.cache_write, 'cache_write_1h', OLD.cache_write_1h, 'updated_at', OLD.updated_at),
         json_object('model', NEW.model, 'input', NEW.input, 'output', NEW.output, 'cached', NEW.cached,
                     'cache_write', NEW.cache_write, 'cache_write_1h', NEW.cache_write_1h, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_price_overrides_delete AFTER DELETE ON price_overrides
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'price', OLD.model, NULL, 'delete',
         json_object('model', OLD.model, 'input', OLD.input, 'output', OLD.output, 'cached', OLD.cached,
                     'cache_write', OLD.cache_write, 'cache_write_1h', OLD.cache_write_1h, 'updated_at', OLD.updated_at),
         NULL
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;
