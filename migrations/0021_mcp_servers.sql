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
