-- What a translation that would leave fields out does (src/core/unsupported-policy.ts, docs/translation.md):
-- 'drop' sends the request without them and names them in x-edgeway-dropped; 'refuse' answers 400
-- unsupported_field. Per tenant and per key (refuse wins if either says it); a route says it in its spec JSON.
-- ADD COLUMN suffices: existing rows read back as 'drop', what every request got before.
ALTER TABLE tenants ADD COLUMN on_unsupported TEXT NOT NULL DEFAULT 'drop' CHECK (on_unsupported IN ('drop', 'refuse'));
ALTER TABLE api_keys ADD COLUMN on_unsupported TEXT NOT NULL DEFAULT 'drop' CHECK (on_unsupported IN ('drop', 'refuse'));
