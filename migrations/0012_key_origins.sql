-- Browser origins a key may be called from (CORS; src/core/origins.ts, docs/cors.md): a JSON array of
-- serialised origins such as "https://app.example.com". Existing keys read back as '[]': no browser origin.
ALTER TABLE api_keys ADD COLUMN origins TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(origins));
