-- Scopes below keys and tenants (src/core/settings.ts KeyScopes / TenantScopes, docs/limits.md "Setting
-- scopes"): one JSON column each. A tenant's holds end_users (the default rule for its end users, null: not
-- metered), model_limits, tag_limits, tag_keys and downgrade; a key's holds model_limits and downgrade.
-- ADD COLUMN suffices: existing rows read back as '{}', every field at its default (nothing scoped).
ALTER TABLE tenants ADD COLUMN scopes TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(scopes));
ALTER TABLE api_keys ADD COLUMN scopes TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(scopes));

-- The audit triggers of tenants and keys (0014) record the new column too, and the columns added since
-- (responses_retention_days, on_unsupported) that they did not: a change to any of them is an audited change.

DROP TRIGGER audit_tenants_insert;
CREATE TRIGGER audit_tenants_insert AFTER INSERT ON tenants
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'tenant', NEW.id, NEW.id, 'create',
         NULL,
         json_object('id', NEW.id, 'name', NEW.name, 'status', NEW.status, 'limits', CASE WHEN json_valid(NEW.limits) THEN json(NEW.limits) ELSE NEW.limits END, 'budgets', CASE WHEN json_valid(NEW.budgets) THEN json(NEW.budgets) ELSE NEW.budgets END, 'metadata', CASE WHEN json_valid(NEW.metadata) THEN json(NEW.metadata) ELSE NEW.metadata END, 'guardrails', CASE WHEN json_valid(NEW.guardrails) THEN json(NEW.guardrails) ELSE NEW.guardrails END, 'alerts', CASE WHEN json_valid(NEW.alerts) THEN json(NEW.alerts) ELSE NEW.alerts END, 'alert_webhook', NEW.alert_webhook, 'responses_retention_days', NEW.responses_retention_days, 'on_unsupported', NEW.on_unsupported, 'scopes', CASE WHEN json_valid(NEW.scopes) THEN json(NEW.scopes) ELSE NEW.scopes END, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

DROP TRIGGER audit_tenants_update;
CREATE TRIGGER audit_tenants_update AFTER UPDATE ON tenants
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'tenant', NEW.id, NEW.id, 'update',
         json_object('id', OLD.id, 'name', OLD.name, 'status', OLD.status, 'limits', CASE WHEN json_valid(OLD.limits) THEN json(OLD.limits) ELSE OLD.limits END, 'budgets', CASE WHEN json_valid(OLD.budgets) THEN json(OLD.budgets) ELSE OLD.budgets END, 'metadata', CASE WHEN json_valid(OLD.metadata) THEN json(OLD.metadata) ELSE OLD.metadata END, 'guardrails', CASE WHEN json_valid(OLD.guardrails) THEN json(OLD.guardrails) ELSE OLD.guardrails END, 'alerts', CASE WHEN json_valid(OLD.alerts) THEN json(OLD.alerts) ELSE OLD.alerts END, 'alert_webhook', OLD.alert_webhook, 'responses_retention_days', OLD.responses_retention_days, 'on_unsupported', OLD.on_unsupported, 'scopes', CASE WHEN json_valid(OLD.scopes) THEN json(OLD.scopes) ELSE OLD.scopes END, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         json_object('id', NEW.id, 'name', NEW.name, 'status', NEW.status, 'limits', CASE WHEN json_valid(NEW.limits) THEN json(NEW.limits) ELSE NEW.limits END, 'budgets', CASE WHEN json_valid(NEW.budgets) THEN json(NEW.budgets) ELSE NEW.budgets END, 'metadata', CASE WHEN json_valid(NEW.metadata) THEN json(NEW.metadata) ELSE NEW.metadata END, 'guardrails', CASE WHEN json_valid(NEW.guardrails) THEN json(NEW.guardrails) ELSE NEW.guardrails END, 'alerts', CASE WHEN json_valid(NEW.alerts) THEN json(NEW.alerts) ELSE NEW.alerts END, 'alert_webhook', NEW.alert_webhook, 'responses_retention_days', NEW.responses_retention_days, 'on_unsupported', NEW.on_unsupported, 'scopes', CASE WHEN json_valid(NEW.scopes) THEN json(NEW.scopes) ELSE NEW.scopes END, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

DROP TRIGGER audit_tenants_delete;
CREATE TRIGGER audit_tenants_delete AFTER DELETE ON tenants
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'tenant', OLD.id, OLD.id, 'delete',
         json_object('id', OLD.id, 'name', OLD.name, 'status', OLD.status, 'limits', CASE WHEN json_valid(OLD.limits) THEN json(OLD.limits) ELSE OLD.limits END, 'budgets', CASE WHEN json_valid(OLD.budgets) THEN json(OLD.budgets) ELSE OLD.budgets END, 'metadata', CASE WHEN json_valid(OLD.metadata) THEN json(OLD.metadata) ELSE OLD.metadata END, 'guardrails', CASE WHEN json_valid(OLD.guardrails) THEN json(OLD.guardrails) ELSE OLD.guardrails END, 'alerts', CASE WHEN json_valid(OLD.alerts) THEN json(OLD.alerts) ELSE OLD.alerts END, 'alert_webhook', OLD.alert_webhook, 'responses_retention_days', OLD.responses_retention_days, 'on_unsupported', OLD.on_unsupported, 'scopes', CASE WHEN json_valid(OLD.scopes) THEN json(OLD.scopes) ELSE OLD.scopes END, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         NULL
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

DROP TRIGGER audit_api_keys_insert;
CREATE TRIGGER audit_api_keys_insert AFTER INSERT ON api_keys
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'key', NEW.id, NEW.tenant_id, 'create',
         NULL,
         json_object('id', NEW.id, 'tenant_id', NEW.tenant_id, 'name', NEW.name, 'hint', NEW.hint, 'status', NEW.status, 'models', CASE WHEN json_valid(NEW.models) THEN json(NEW.models) ELSE NEW.models END, 'limits', CASE WHEN json_valid(NEW.limits) THEN json(NEW.limits) ELSE NEW.limits END, 'budgets', CASE WHEN json_valid(NEW.budgets) THEN json(NEW.budgets) ELSE NEW.budgets END, 'cache', CASE WHEN json_valid(NEW.cache) THEN json(NEW.cache) ELSE NEW.cache END, 'log_payload', NEW.log_payload, 'metadata', CASE WHEN json_valid(NEW.metadata) THEN json(NEW.metadata) ELSE NEW.metadata END, 'expires_at', NEW.expires_at, 'revoked_at', NEW.revoked_at, 'previous_expires_at', NEW.previous_expires_at, 'guardrails', CASE WHEN json_valid(NEW.guardrails) THEN json(NEW.guardrails) ELSE NEW.guardrails END, 'origins', CASE WHEN json_valid(NEW.origins) THEN json(NEW.origins) ELSE NEW.origins END, 'alerts', CASE WHEN json_valid(NEW.alerts) THEN json(NEW.alerts) ELSE NEW.alerts END, 'on_unsupported', NEW.on_unsupported, 'scopes', CASE WHEN json_valid(NEW.scopes) THEN json(NEW.scopes) ELSE NEW.scopes END, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

DROP TRIGGER audit_api_keys_update;
CREATE TRIGGER audit_api_keys_update AFTER UPDATE OF tenant_id, name, key_hash, status, models, limits, budgets, cache, log_payload, metadata, expires_at, revoked_at, previous_hash, previous_expires_at, guardrails, origins, alerts, on_unsupported, scopes ON api_keys
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'key', NEW.id, NEW.tenant_id, 'update',
         json_object('id', OLD.id, 'tenant_id', OLD.tenant_id, 'name', OLD.name, 'hint', OLD.hint, 'status', OLD.status, 'models', CASE WHEN json_valid(OLD.models) THEN json(OLD.models) ELSE OLD.models END, 'limits', CASE WHEN json_valid(OLD.limits) THEN json(OLD.limits) ELSE OLD.limits END, 'budgets', CASE WHEN json_valid(OLD.budgets) THEN json(OLD.budgets) ELSE OLD.budgets END, 'cache', CASE WHEN json_valid(OLD.cache) THEN json(OLD.cache) ELSE OLD.cache END, 'log_payload', OLD.log_payload, 'metadata', CASE WHEN json_valid(OLD.metadata) THEN json(OLD.metadata) ELSE OLD.metadata END, 'expires_at', OLD.expires_at, 'revoked_at', OLD.revoked_at, 'previous_expires_at', OLD.previous_expires_at, 'guardrails', CASE WHEN json_valid(OLD.guardrails) THEN json(OLD.guardrails) ELSE OLD.guardrails END, 'origins', CASE WHEN json_valid(OLD.origins) THEN json(OLD.origins) ELSE OLD.origins END, 'alerts', CASE WHEN json_valid(OLD.alerts) THEN json(OLD.alerts) ELSE OLD.alerts END, 'on_unsupported', OLD.on_unsupported, 'scopes', CASE WHEN json_valid(OLD.scopes) THEN json(OLD.scopes) ELSE OLD.scopes END, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         json_object('id', NEW.id, 'tenant_id', NEW.tenant_id, 'name', NEW.name, 'hint', NEW.hint, 'status', NEW.status, 'models', CASE WHEN json_valid(NEW.models) THEN json(NEW.models) ELSE NEW.models END, 'limits', CASE WHEN json_valid(NEW.limits) THEN json(NEW.limits) ELSE NEW.limits END, 'budgets', CASE WHEN json_valid(NEW.budgets) THEN json(NEW.budgets) ELSE NEW.budgets END, 'cache', CASE WHEN json_valid(NEW.cache) THEN json(NEW.cache) ELSE NEW.cache END, 'log_payload', NEW.log_payload, 'metadata', CASE WHEN json_valid(NEW.metadata) THEN json(NEW.metadata) ELSE NEW.metadata END, 'expires_at', NEW.expires_at, 'revoked_at', NEW.revoked_at, 'previous_expires_at', NEW.previous_expires_at, 'guardrails', CASE WHEN json_valid(NEW.guardrails) THEN json(NEW.guardrails) ELSE NEW.guardrails END, 'origins', CASE WHEN json_valid(NEW.origins) THEN json(NEW.origins) ELSE NEW.origins END, 'alerts', CASE WHEN json_valid(NEW.alerts) THEN json(NEW.alerts) ELSE NEW.alerts END, 'on_unsupported', NEW.on_unsupported, 'scopes', CASE WHEN json_valid(NEW.scopes) THEN json(NEW.scopes) ELSE NEW.scopes END, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

DROP TRIGGER audit_api_keys_delete;
CREATE TRIGGER audit_api_keys_delete AFTER DELETE ON api_keys
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'key', OLD.id, OLD.tenant_id, 'delete',
         json_object('id', OLD.id, 'tenant_id', OLD.tenant_id, 'name', OLD.name, 'hint', OLD.hint, 'status', OLD.status, 'models', CASE WHEN json_valid(OLD.models) THEN json(OLD.models) ELSE OLD.models END, 'limits', CASE WHEN json_valid(OLD.limits) THEN json(OLD.limits) ELSE OLD.limits END, 'budgets', CASE WHEN json_valid(OLD.budgets) THEN json(OLD.budgets) ELSE OLD.budgets END, 'cache', CASE WHEN json_valid(OLD.cache) THEN json(OLD.cache) ELSE OLD.cache END, 'log_payload', OLD.log_payload, 'metadata', CASE WHEN json_valid(OLD.metadata) THEN json(OLD.metadata) ELSE OLD.metadata END, 'expires_at', OLD.expires_at, 'revoked_at', OLD.revoked_at, 'previous_expires_at', OLD.previous_expires_at, 'guardrails', CASE WHEN json_valid(OLD.guardrails) THEN json(OLD.guardrails) ELSE OLD.guardrails END, 'origins', CASE WHEN json_valid(OLD.origins) THEN json(OLD.origins) ELSE OLD.origins END, 'alerts', CASE WHEN json_valid(OLD.alerts) THEN json(OLD.alerts) ELSE OLD.alerts END, 'on_unsupported', OLD.on_unsupported, 'scopes', CASE WHEN json_valid(OLD.scopes) THEN json(OLD.scopes) ELSE OLD.scopes END, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         NULL
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;
