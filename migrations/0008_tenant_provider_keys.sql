-- Tenants' own provider keys (BYOK, src/storage/provider-keys.ts): one per tenant and provider.
-- The key itself is never stored: only its AES-256-GCM ciphertext under a key derived from the
-- PROVIDER_KEYS_SECRET secret, with the tenant and provider bound in as associated data
-- (src/util/provider-key-crypto.ts), and a short hint that is safe to show.
-- Tenants are disabled, never deleted; ON DELETE CASCADE keeps the rule simple should that change.
-- Times are epoch milliseconds.
CREATE TABLE tenant_provider_keys (
  tenant_id   TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  provider    TEXT NOT NULL,                -- provider id, as in `provider/model`
  ciphertext  TEXT NOT NULL,                -- base64 AES-GCM ciphertext + tag
  iv          TEXT NOT NULL,                -- base64 96-bit IV, random per encryption
  hint        TEXT NOT NULL,                -- e.g. sk-…abcd, safe to show
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, provider)
);
