-- Admin price overrides per model, in USD per 1M tokens like src/providers/pricing.json,
-- which they take precedence over. The hot path never reads this table: every change
-- republishes the whole set to KV (KV_KEYS, key "pricing:overrides"), which isolates
-- cache for a few seconds (src/limits/price-overrides.ts).
CREATE TABLE price_overrides (
  model       TEXT PRIMARY KEY,                 -- model id as clients send it, e.g. openai/gpt-4o
  input       REAL NOT NULL CHECK (input >= 0),
  output      REAL NOT NULL CHECK (output >= 0),
  cached      REAL NOT NULL CHECK (cached >= 0),
  updated_at  INTEGER NOT NULL
);
