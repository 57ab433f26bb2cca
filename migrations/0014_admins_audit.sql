-- Named admins and the audit trail (docs/admins.md).
--
-- admins: each with a role and their own token, stored as SHA-256 hex only (token_hint shows its end).
-- tenant_ids (a JSON array) is the scope of a tenant_admin and empty for every other role. The
-- deployment's ADMIN_TOKEN stays outside this table as the break-glass owner.
CREATE TABLE admins (
  id          TEXT PRIMARY KEY,                   -- adm_…
  name        TEXT NOT NULL UNIQUE,
  role        TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'viewer', 'tenant_admin')),
  tenant_ids  TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tenant_ids)),
  token_hash  TEXT NOT NULL UNIQUE,
  token_hint  TEXT NOT NULL,
  status      TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  created_by  TEXT NOT NULL,                      -- the creating admin's id, or 'break-glass'
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
CREATE INDEX admins_page ON admins (created_at DESC, id DESC);

-- One row per change to an audited table, written by the triggers below, so a change and its
-- audit row are one statement's work: they commit or fail together, whoever wrote the change.
-- before/after are the row as JSON without its secrets (no key or token hashes, no provider
-- key ciphertext). Who made the change comes from audit_actor, which the admin API's database
-- handle fills at the start of the same batch (transaction) and empties at its end; a change
-- made any other way (a migration, a script, the console) is recorded as actor 'system'.
CREATE TABLE audit_log (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  at           INTEGER NOT NULL,                  -- epoch ms
  actor_id     TEXT NOT NULL,                     -- adm_…, 'break-glass' or 'system'
  actor_name   TEXT NOT NULL,
  operation    TEXT,                              -- the admin API operation, e.g. 'PATCH /admin/tenants/{id}'
  resource     TEXT NOT NULL CHECK (resource IN ('tenant', 'key', 'route', 'provider_key', 'price', 'admin')),
  resource_id  TEXT NOT NULL,
  tenant_id    TEXT,                              -- the tenant the resource belongs to, if any
  change       TEXT NOT NULL CHECK (change IN ('create', 'update', 'delete')),
  before       TEXT,
  after        TEXT
);
CREATE INDEX audit_by_tenant ON audit_log (tenant_id, seq DESC);
CREATE INDEX audit_by_resource ON audit_log (resource, resource_id, seq DESC);
CREATE INDEX audit_by_actor ON audit_log (actor_id, seq DESC);

-- The acting admin of the transaction in progress: at most one row, only ever inside a batch.
CREATE TABLE audit_actor (
  one         INTEGER PRIMARY KEY CHECK (one = 1),
  actor_id    TEXT NOT NULL,
  actor_name  TEXT NOT NULL,
  operation   TEXT,
  at          INTEGER NOT NULL
);

CREATE TRIGGER audit_tenants_insert AFTER INSERT ON tenants
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'tenant', NEW.id, NEW.id, 'create',
         NULL,
         json_object('id', NEW.id, 'name', NEW.name, 'status', NEW.status, 'limits', CASE WHEN json_valid(NEW.limits) THEN json(NEW.limits) ELSE NEW.limits END, 'budgets', CASE WHEN json_valid(NEW.budgets) THEN json(NEW.budgets) ELSE NEW.budgets END, 'metadata', CASE WHEN json_valid(NEW.metadata) THEN json(NEW.metadata) ELSE NEW.metadata END, 'guardrails', CASE WHEN json_valid(NEW.guardrails) THEN json(NEW.guardrails) ELSE NEW.guardrails END, 'alerts', CASE WHEN json_valid(NEW.alerts) THEN json(NEW.alerts) ELSE NEW.alerts END, 'alert_webhook', NEW.alert_webhook, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_tenants_update AFTER UPDATE ON tenants
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'tenant', NEW.id, NEW.id, 'update',
         json_object('id', OLD.id, 'name', OLD.name, 'status', OLD.status, 'limits', CASE WHEN json_valid(OLD.limits) THEN json(OLD.limits) ELSE OLD.limits END, 'budgets', CASE WHEN json_valid(OLD.budgets) THEN json(OLD.budgets) ELSE OLD.budgets END, 'metadata', CASE WHEN json_valid(OLD.metadata) THEN json(OLD.metadata) ELSE OLD.metadata END, 'guardrails', CASE WHEN json_valid(OLD.guardrails) THEN json(OLD.guardrails) ELSE OLD.guardrails END, 'alerts', CASE WHEN json_valid(OLD.alerts) THEN json(OLD.alerts) ELSE OLD.alerts END, 'alert_webhook', OLD.alert_webhook, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         json_object('id', NEW.id, 'name', NEW.name, 'status', NEW.status, 'limits', CASE WHEN json_valid(NEW.limits) THEN json(NEW.limits) ELSE NEW.limits END, 'budgets', CASE WHEN json_valid(NEW.budgets) THEN json(NEW.budgets) ELSE NEW.budgets END, 'metadata', CASE WHEN json_valid(NEW.metadata) THEN json(NEW.metadata) ELSE NEW.metadata END, 'guardrails', CASE WHEN json_valid(NEW.guardrails) THEN json(NEW.guardrails) ELSE NEW.guardrails END, 'alerts', CASE WHEN json_valid(NEW.alerts) THEN json(NEW.alerts) ELSE NEW.alerts END, 'alert_webhook', NEW.alert_webhook, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_tenants_delete AFTER DELETE ON tenants
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'tenant', OLD.id, OLD.id, 'delete',
         json_object('id', OLD.id, 'name', OLD.name, 'status', OLD.status, 'limits', CASE WHEN json_valid(OLD.limits) THEN json(OLD.limits) ELSE OLD.limits END, 'budgets', CASE WHEN json_valid(OLD.budgets) THEN json(OLD.budgets) ELSE OLD.budgets END, 'metadata', CASE WHEN json_valid(OLD.metadata) THEN json(OLD.metadata) ELSE OLD.metadata END, 'guardrails', CASE WHEN json_valid(OLD.guardrails) THEN json(OLD.guardrails) ELSE OLD.guardrails END, 'alerts', CASE WHEN json_valid(OLD.alerts) THEN json(OLD.alerts) ELSE OLD.alerts END, 'alert_webhook', OLD.alert_webhook, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         NULL
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_api_keys_insert AFTER INSERT ON api_keys
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'key', NEW.id, NEW.tenant_id, 'create',
         NULL,
         json_object('id', NEW.id, 'tenant_id', NEW.tenant_id, 'name', NEW.name, 'hint', NEW.hint, 'status', NEW.status, 'models', CASE WHEN json_valid(NEW.models) THEN json(NEW.models) ELSE NEW.models END, 'limits', CASE WHEN json_valid(NEW.limits) THEN json(NEW.limits) ELSE NEW.limits END, 'budgets', CASE WHEN json_valid(NEW.budgets) THEN json(NEW.budgets) ELSE NEW.budgets END, 'cache', CASE WHEN json_valid(NEW.cache) THEN json(NEW.cache) ELSE NEW.cache END, 'log_payload', NEW.log_payload, 'metadata', CASE WHEN json_valid(NEW.metadata) THEN json(NEW.metadata) ELSE NEW.metadata END, 'expires_at', NEW.expires_at, 'revoked_at', NEW.revoked_at, 'previous_expires_at', NEW.previous_expires_at, 'guardrails', CASE WHEN json_valid(NEW.guardrails) THEN json(NEW.guardrails) ELSE NEW.guardrails END, 'origins', CASE WHEN json_valid(NEW.origins) THEN json(NEW.origins) ELSE NEW.origins END, 'alerts', CASE WHEN json_valid(NEW.alerts) THEN json(NEW.alerts) ELSE NEW.alerts END, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_api_keys_update AFTER UPDATE OF tenant_id, name, key_hash, status, models, limits, budgets, cache, log_payload, metadata, expires_at, revoked_at, previous_hash, previous_expires_at, guardrails, origins, alerts ON api_keys
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'key', NEW.id, NEW.tenant_id, 'update',
         json_object('id', OLD.id, 'tenant_id', OLD.tenant_id, 'name', OLD.name, 'hint', OLD.hint, 'status', OLD.status, 'models', CASE WHEN json_valid(OLD.models) THEN json(OLD.models) ELSE OLD.models END, 'limits', CASE WHEN json_valid(OLD.limits) THEN json(OLD.limits) ELSE OLD.limits END, 'budgets', CASE WHEN json_valid(OLD.budgets) THEN json(OLD.budgets) ELSE OLD.budgets END, 'cache', CASE WHEN json_valid(OLD.cache) THEN json(OLD.cache) ELSE OLD.cache END, 'log_payload', OLD.log_payload, 'metadata', CASE WHEN json_valid(OLD.metadata) THEN json(OLD.metadata) ELSE OLD.metadata END, 'expires_at', OLD.expires_at, 'revoked_at', OLD.revoked_at, 'previous_expires_at', OLD.previous_expires_at, 'guardrails', CASE WHEN json_valid(OLD.guardrails) THEN json(OLD.guardrails) ELSE OLD.guardrails END, 'origins', CASE WHEN json_valid(OLD.origins) THEN json(OLD.origins) ELSE OLD.origins END, 'alerts', CASE WHEN json_valid(OLD.alerts) THEN json(OLD.alerts) ELSE OLD.alerts END, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         json_object('id', NEW.id, 'tenant_id', NEW.tenant_id, 'name', NEW.name, 'hint', NEW.hint, 'status', NEW.status, 'models', CASE WHEN json_valid(NEW.models) THEN json(NEW.models) ELSE NEW.models END, 'limits', CASE WHEN json_valid(NEW.limits) THEN json(NEW.limits) ELSE NEW.limits END, 'budgets', CASE WHEN json_valid(NEW.budgets) THEN json(NEW.budgets) ELSE NEW.budgets END, 'cache', CASE WHEN json_valid(NEW.cache) THEN json(NEW.cache) ELSE NEW.cache END, 'log_payload', NEW.log_payload, 'metadata', CASE WHEN json_valid(NEW.metadata) THEN json(NEW.metadata) ELSE NEW.metadata END, 'expires_at', NEW.expires_at, 'revoked_at', NEW.revoked_at, 'previous_expires_at', NEW.previous_expires_at, 'guardrails', CASE WHEN json_valid(NEW.guardrails) THEN json(NEW.guardrails) ELSE NEW.guardrails END, 'origins', CASE WHEN json_valid(NEW.origins) THEN json(NEW.origins) ELSE NEW.origins END, 'alerts', CASE WHEN json_valid(NEW.alerts) THEN json(NEW.alerts) ELSE NEW.alerts END, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_api_keys_delete AFTER DELETE ON api_keys
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'key', OLD.id, OLD.tenant_id, 'delete',
         json_object('id', OLD.id, 'tenant_id', OLD.tenant_id, 'name', OLD.name, 'hint', OLD.hint, 'status', OLD.status, 'models', CASE WHEN json_valid(OLD.models) THEN json(OLD.models) ELSE OLD.models END, 'limits', CASE WHEN json_valid(OLD.limits) THEN json(OLD.limits) ELSE OLD.limits END, 'budgets', CASE WHEN json_valid(OLD.budgets) THEN json(OLD.budgets) ELSE OLD.budgets END, 'cache', CASE WHEN json_valid(OLD.cache) THEN json(OLD.cache) ELSE OLD.cache END, 'log_payload', OLD.log_payload, 'metadata', CASE WHEN json_valid(OLD.metadata) THEN json(OLD.metadata) ELSE OLD.metadata END, 'expires_at', OLD.expires_at, 'revoked_at', OLD.revoked_at, 'previous_expires_at', OLD.previous_expires_at, 'guardrails', CASE WHEN json_valid(OLD.guardrails) THEN json(OLD.guardrails) ELSE OLD.guardrails END, 'origins', CASE WHEN json_valid(OLD.origins) THEN json(OLD.origins) ELSE OLD.origins END, 'alerts', CASE WHEN json_valid(OLD.alerts) THEN json(OLD.alerts) ELSE OLD.alerts END, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         NULL
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_routes_insert AFTER INSERT ON routes
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'route', NEW.id, NEW.tenant_id, 'create',
         NULL,
         json_object('id', NEW.id, 'tenant_id', NEW.tenant_id, 'name', NEW.name, 'spec', CASE WHEN json_valid(NEW.spec) THEN json(NEW.spec) ELSE NEW.spec END, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_routes_update AFTER UPDATE ON routes
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'route', NEW.id, NEW.tenant_id, 'update',
         json_object('id', OLD.id, 'tenant_id', OLD.tenant_id, 'name', OLD.name, 'spec', CASE WHEN json_valid(OLD.spec) THEN json(OLD.spec) ELSE OLD.spec END, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         json_object('id', NEW.id, 'tenant_id', NEW.tenant_id, 'name', NEW.name, 'spec', CASE WHEN json_valid(NEW.spec) THEN json(NEW.spec) ELSE NEW.spec END, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_routes_delete AFTER DELETE ON routes
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'route', OLD.id, OLD.tenant_id, 'delete',
         json_object('id', OLD.id, 'tenant_id', OLD.tenant_id, 'name', OLD.name, 'spec', CASE WHEN json_valid(OLD.spec) THEN json(OLD.spec) ELSE OLD.spec END, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         NULL
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_tenant_provider_keys_insert AFTER INSERT ON tenant_provider_keys
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'provider_key', NEW.tenant_id || '/' || NEW.provider, NEW.tenant_id, 'create',
         NULL,
         json_object('tenant_id', NEW.tenant_id, 'provider', NEW.provider, 'hint', NEW.hint, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_tenant_provider_keys_update AFTER UPDATE ON tenant_provider_keys
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'provider_key', NEW.tenant_id || '/' || NEW.provider, NEW.tenant_id, 'update',
         json_object('tenant_id', OLD.tenant_id, 'provider', OLD.provider, 'hint', OLD.hint, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         json_object('tenant_id', NEW.tenant_id, 'provider', NEW.provider, 'hint', NEW.hint, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_tenant_provider_keys_delete AFTER DELETE ON tenant_provider_keys
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'provider_key', OLD.tenant_id || '/' || OLD.provider, OLD.tenant_id, 'delete',
         json_object('tenant_id', OLD.tenant_id, 'provider', OLD.provider, 'hint', OLD.hint, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         NULL
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_price_overrides_insert AFTER INSERT ON price_overrides
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'price', NEW.model, NULL, 'create',
         NULL,
         json_object('model', NEW.model, 'input', NEW.input, 'output', NEW.output, 'cached', NEW.cached, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_price_overrides_update AFTER UPDATE ON price_overrides
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'price', NEW.model, NULL, 'update',
         json_object('model', OLD.model, 'input', OLD.input, 'output', OLD.output, 'cached', OLD.cached, 'updated_at', OLD.updated_at),
         json_object('model', NEW.model, 'input', NEW.input, 'output', NEW.output, 'cached', NEW.cached, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_price_overrides_delete AFTER DELETE ON price_overrides
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'price', OLD.model, NULL, 'delete',
         json_object('model', OLD.model, 'input', OLD.input, 'output', OLD.output, 'cached', OLD.cached, 'updated_at', OLD.updated_at),
         NULL
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_admins_insert AFTER INSERT ON admins
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'admin', NEW.id, NULL, 'create',
         NULL,
         json_object('id', NEW.id, 'name', NEW.name, 'role', NEW.role, 'tenant_ids', CASE WHEN json_valid(NEW.tenant_ids) THEN json(NEW.tenant_ids) ELSE NEW.tenant_ids END, 'token_hint', NEW.token_hint, 'status', NEW.status, 'created_by', NEW.created_by, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_admins_update AFTER UPDATE ON admins
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'admin', NEW.id, NULL, 'update',
         json_object('id', OLD.id, 'name', OLD.name, 'role', OLD.role, 'tenant_ids', CASE WHEN json_valid(OLD.tenant_ids) THEN json(OLD.tenant_ids) ELSE OLD.tenant_ids END, 'token_hint', OLD.token_hint, 'status', OLD.status, 'created_by', OLD.created_by, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         json_object('id', NEW.id, 'name', NEW.name, 'role', NEW.role, 'tenant_ids', CASE WHEN json_valid(NEW.tenant_ids) THEN json(NEW.tenant_ids) ELSE NEW.tenant_ids END, 'token_hint', NEW.token_hint, 'status', NEW.status, 'created_by', NEW.created_by, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_admins_delete AFTER DELETE ON admins
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'admin', OLD.id, NULL, 'delete',
         json_object('id', OLD.id, 'name', OLD.name, 'role', OLD.role, 'tenant_ids', CASE WHEN json_valid(OLD.tenant_ids) THEN json(OLD.tenant_ids) ELSE OLD.tenant_ids END, 'token_hint', OLD.token_hint, 'status', OLD.status, 'created_by', OLD.created_by, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         NULL
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

