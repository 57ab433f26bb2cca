-- Named routes (src/storage/route-admin-store.ts, docs/routes.md): a name clients put in `model`,
-- and a strategy over targets (spec: the RouteSpec zod shape of src/core/route-spec.ts, validated
-- again on every read). tenant_id NULL is a global route, seen by every tenant; a tenant's own
-- route of the same name shadows it for that tenant. The hot path reads this table only on a miss
-- of its isolate and KV tiers (src/storage/route-store.ts).
-- Tenants are disabled, never deleted; ON DELETE CASCADE keeps the rule simple should that change.
-- Times are epoch milliseconds.
CREATE TABLE routes (
  id          TEXT PRIMARY KEY,                 -- public id, e.g. rte_…
  tenant_id   TEXT REFERENCES tenants (id) ON DELETE CASCADE,  -- NULL: global
  name        TEXT NOT NULL,                    -- letters, digits, . _ -; never a slash
  spec        TEXT NOT NULL CHECK (json_valid(spec)),
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
-- One name per tenant and one among the global routes: SQLite treats NULLs as distinct in a
-- UNIQUE constraint, so the scope is indexed as '' for global routes. Also the lookup index.
CREATE UNIQUE INDEX routes_scope_name ON routes (COALESCE(tenant_id, ''), name);
CREATE INDEX routes_created ON routes (created_at, id);
CREATE INDEX routes_tenant ON routes (tenant_id, created_at, id);
