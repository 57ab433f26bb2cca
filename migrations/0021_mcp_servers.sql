-- Upstream MCP servers behind /mcp (src/core/mcp-server.ts, docs/mcp.md). A server is global (tenant_id
-- NULL: offered to every tenant) or one tenant's. Its secret (bearer or header value) is sealed with
-- PROVIDER_KEYS_SECRET like tenants' provider keys: only the ciphertext, IV and a hint are stored.
CREATE TABLE mcp_servers (
  id          TEXT PRIMARY KEY,
  tenant_id   TEXT REFERENCES tenants (id) ON DELETE CASCADE,
  namespace   TEXT NOT NULL,                 -- tools are listed as <namespace>__<tool>
  url         TEXT NOT NULL,
  transport   TEXT NOT NULL DEFAULT 'streamable-http' CHECK (transport IN ('streamable-http', 'sse')),
  description TEXT NOT NULL DEFAULT '',
  auth_type   TEXT NOT NULL DEFAULT 'none' CHECK (auth_type IN ('none', 'bearer', 'header', 'tenant_token')),
  auth_header TEXT,                          -- header name for 'header' (and 'tenant_token' when not a bearer)
  ciphertext  TEXT,                          -- the sealed secret ('bearer', 'header'), else NULL
  iv          TEXT,
  hint        TEXT,                          -- e.g. ghp…abcd, safe to show
  timeout_ms  INTEGER NOT NULL DEFAULT 30000,
  enabled     INTEGER NOT NULL DEFAULT 1,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
-- One namespace per tenant's view: a tenant's server may not take a global server's namespace (checked
-- by the admin API), and no two servers of one tenant (or two global ones) share one.
CREATE UNIQUE INDEX mcp_servers_namespace ON mcp_servers (COALESCE(tenant_id, ''), namespace);
CREATE INDEX mcp_servers_tenant ON mcp_servers (tenant_id);

-- Each tenant's own token for a global 'tenant_token' server, sealed the same way.
CREATE TABLE mcp_server_tokens (
  server_id   TEXT NOT NULL REFERENCES mcp_servers (id) ON DELETE CASCADE,
  tenant_id   TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  ciphertext  TEXT NOT NULL,
  iv          TEXT NOT NULL,
  hint        TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  PRIMARY KEY (server_id, tenant_id)
);

-- Registration changes are audited (migration 0014's trigger style): resource 'mcp_server' (resource_id the
-- server's id, tenant_id its tenant, NULL for a global one) and 'mcp_server_token' (resource_id
-- '<server>/<tenant>'). The rows carry the secret's hint, never its ciphertext or IV.
--
-- audit_log's CHECK lists the resources it may hold, and SQLite cannot alter a CHECK: the table is rebuilt
-- with the two new ones, through a copy (no RENAME, so the triggers that write to audit_log keep naming it).
CREATE TABLE audit_log_copy AS SELECT * FROM audit_log;
DROP TABLE audit_log;
CREATE TABLE audit_log (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  at           INTEGER NOT NULL,                  -- epoch ms
  actor_id     TEXT NOT NULL,                     -- adm_…, 'break-glass' or 'system'
  actor_name   TEXT NOT NULL,
  operation    TEXT,                              -- the admin API operation, e.g. 'PATCH /admin/tenants/{id}'
  resource     TEXT NOT NULL CHECK (resource IN ('tenant', 'key', 'route', 'provider_key', 'price', 'admin', 'mcp_server', 'mcp_server_token')),
  resource_id  TEXT NOT NULL,
  tenant_id    TEXT,                              -- the tenant the resource belongs to, if any
  change       TEXT NOT NULL CHECK (change IN ('create', 'update', 'delete')),
  before       TEXT,
  after        TEXT
);
INSERT INTO audit_log (seq, at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT seq, at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after
  FROM audit_log_copy ORDER BY seq;
DROP TABLE audit_log_copy;
CREATE INDEX audit_by_tenant ON audit_log (tenant_id, seq DESC);
CREATE INDEX audit_by_resource ON audit_log (resource, resource_id, seq DESC);
CREATE INDEX audit_by_actor ON audit_log (actor_id, seq DESC);

CREATE TRIGGER audit_mcp_servers_insert AFTER INSERT ON mcp_servers
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'mcp_server', NEW.id, NEW.tenant_id, 'create',
         NULL,
         json_object('id', NEW.id, 'tenant_id', NEW.tenant_id, 'namespace', NEW.namespace, 'url', NEW.url, 'transport', NEW.transport, 'description', NEW.description, 'auth_type', NEW.auth_type, 'auth_header', NEW.auth_header, 'hint', NEW.hint, 'timeout_ms', NEW.timeout_ms, 'enabled', NEW.enabled, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_mcp_servers_update AFTER UPDATE ON mcp_servers
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'mcp_server', NEW.id, NEW.tenant_id, 'update',
         json_object('id', OLD.id, 'tenant_id', OLD.tenant_id, 'namespace', OLD.namespace, 'url', OLD.url, 'transport', OLD.transport, 'description', OLD.description, 'auth_type', OLD.auth_type, 'auth_header', OLD.auth_header, 'hint', OLD.hint, 'timeout_ms', OLD.timeout_ms, 'enabled', OLD.enabled, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         json_object('id', NEW.id, 'tenant_id', NEW.tenant_id, 'namespace', NEW.namespace, 'url', NEW.url, 'transport', NEW.transport, 'description', NEW.description, 'auth_type', NEW.auth_type, 'auth_header', NEW.auth_header, 'hint', NEW.hint, 'timeout_ms', NEW.timeout_ms, 'enabled', NEW.enabled, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_mcp_servers_delete AFTER DELETE ON mcp_servers
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'mcp_server', OLD.id, OLD.tenant_id, 'delete',
         json_object('id', OLD.id, 'tenant_id', OLD.tenant_id, 'namespace', OLD.namespace, 'url', OLD.url, 'transport', OLD.transport, 'description', OLD.description, 'auth_type', OLD.auth_type, 'auth_header', OLD.auth_header, 'hint', OLD.hint, 'timeout_ms', OLD.timeout_ms, 'enabled', OLD.enabled, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         NULL
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_mcp_server_tokens_insert AFTER INSERT ON mcp_server_tokens
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'mcp_server_token', NEW.server_id || '/' || NEW.tenant_id, NEW.tenant_id, 'create',
         NULL,
         json_object('server_id', NEW.server_id, 'tenant_id', NEW.tenant_id, 'hint', NEW.hint, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_mcp_server_tokens_update AFTER UPDATE ON mcp_server_tokens
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'mcp_server_token', NEW.server_id || '/' || NEW.tenant_id, NEW.tenant_id, 'update',
         json_object('server_id', OLD.server_id, 'tenant_id', OLD.tenant_id, 'hint', OLD.hint, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         json_object('server_id', NEW.server_id, 'tenant_id', NEW.tenant_id, 'hint', NEW.hint, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;

CREATE TRIGGER audit_mcp_server_tokens_delete AFTER DELETE ON mcp_server_tokens
BEGIN
  INSERT INTO audit_log (at, actor_id, actor_name, operation, resource, resource_id, tenant_id, change, before, after)
  SELECT COALESCE(a.at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)),
         COALESCE(a.actor_id, 'system'), COALESCE(a.actor_name, 'system'), a.operation,
         'mcp_server_token', OLD.server_id || '/' || OLD.tenant_id, OLD.tenant_id, 'delete',
         json_object('server_id', OLD.server_id, 'tenant_id', OLD.tenant_id, 'hint', OLD.hint, 'created_at', OLD.created_at, 'updated_at', OLD.updated_at),
         NULL
  FROM (SELECT 1) LEFT JOIN audit_actor a ON a.one = 1;
END;
