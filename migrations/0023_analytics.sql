-- Analytics rollups (docs/analytics.md, docs/metrics.md). shared with helper A: this branch carries only
-- usage_totals, the table GET /admin/metrics reads (src/logs/read/usage-totals.ts); helper A's migration
-- 0023 (usage_hourly, usage_minutely, lookup_failures_daily and the same usage_totals) replaces this file
-- at merge.
--
-- All-time usage per tenant, model and provider, never deleted (Prometheus counters are cumulative).
-- Model requests only (endpoint <> '/mcp'); '' stands for none (a request that never reached a model).
-- Counters as in usage_daily: tokens and cost count provider calls only; a gateway cache hit counts in
-- requests and cache_hits, and what it avoided in saved_tokens / saved_usd.
-- lat_i / ttft_i: latency_ms and ttft_ms histograms over LATENCY_BOUNDS_MS (src/core/latency-buckets.ts),
-- bucket i holding LATENCY_BOUNDS_MS[i-1] < v <= LATENCY_BOUNDS_MS[i]; bucket 27 is +Inf.
CREATE TABLE usage_totals (
  tenant_id      TEXT NOT NULL,
  model          TEXT NOT NULL,
  provider       TEXT NOT NULL,
  requests       INTEGER NOT NULL DEFAULT 0,
  input_tokens   INTEGER NOT NULL DEFAULT 0,
  output_tokens  INTEGER NOT NULL DEFAULT 0,
  cached_tokens  INTEGER NOT NULL DEFAULT 0,
  cost_usd       REAL NOT NULL DEFAULT 0,
  cache_hits     INTEGER NOT NULL DEFAULT 0,
  saved_tokens   INTEGER NOT NULL DEFAULT 0,
  saved_usd      REAL NOT NULL DEFAULT 0,
  errors         INTEGER NOT NULL DEFAULT 0,   -- status >= 400 OR error_code IS NOT NULL
  status_4xx     INTEGER NOT NULL DEFAULT 0,
  status_5xx     INTEGER NOT NULL DEFAULT 0,
  stream_errors  INTEGER NOT NULL DEFAULT 0,   -- status < 400 but error_code set (failed after its 200)
  err_gateway    INTEGER NOT NULL DEFAULT 0,   -- errors by error_source
  err_provider   INTEGER NOT NULL DEFAULT 0,
  err_client     INTEGER NOT NULL DEFAULT 0,
  denials        INTEGER NOT NULL DEFAULT 0,   -- refused by a limit or budget (429 from the gateway)
  fallbacks      INTEGER NOT NULL DEFAULT 0,   -- attempts > 1
  attempts       INTEGER NOT NULL DEFAULT 0,   -- sum of attempts
  latency_sum_ms REAL NOT NULL DEFAULT 0,
  ttft_count     INTEGER NOT NULL DEFAULT 0,
  ttft_sum_ms    REAL NOT NULL DEFAULT 0,
  lat_0 INTEGER NOT NULL DEFAULT 0,
  lat_1 INTEGER NOT NULL DEFAULT 0,
  lat_2 INTEGER NOT NULL DEFAULT 0,
  lat_3 INTEGER NOT NULL DEFAULT 0,
  lat_4 INTEGER NOT NULL DEFAULT 0,
  lat_5 INTEGER NOT NULL DEFAULT 0,
  lat_6 INTEGER NOT NULL DEFAULT 0,
  lat_7 INTEGER NOT NULL DEFAULT 0,
  lat_8 INTEGER NOT NULL DEFAULT 0,
  lat_9 INTEGER NOT NULL DEFAULT 0,
  lat_10 INTEGER NOT NULL DEFAULT 0,
  lat_11 INTEGER NOT NULL DEFAULT 0,
  lat_12 INTEGER NOT NULL DEFAULT 0,
  lat_13 INTEGER NOT NULL DEFAULT 0,
  lat_14 INTEGER NOT NULL DEFAULT 0,
  lat_15 INTEGER NOT NULL DEFAULT 0,
  lat_16 INTEGER NOT NULL DEFAULT 0,
  lat_17 INTEGER NOT NULL DEFAULT 0,
  lat_18 INTEGER NOT NULL DEFAULT 0,
  lat_19 INTEGER NOT NULL DEFAULT 0,
  lat_20 INTEGER NOT NULL DEFAULT 0,
  lat_21 INTEGER NOT NULL DEFAULT 0,
  lat_22 INTEGER NOT NULL DEFAULT 0,
  lat_23 INTEGER NOT NULL DEFAULT 0,
  lat_24 INTEGER NOT NULL DEFAULT 0,
  lat_25 INTEGER NOT NULL DEFAULT 0,
  lat_26 INTEGER NOT NULL DEFAULT 0,
  lat_27 INTEGER NOT NULL DEFAULT 0,
  ttft_0 INTEGER NOT NULL DEFAULT 0,
  ttft_1 INTEGER NOT NULL DEFAULT 0,
  ttft_2 INTEGER NOT NULL DEFAULT 0,
  ttft_3 INTEGER NOT NULL DEFAULT 0,
  ttft_4 INTEGER NOT NULL DEFAULT 0,
  ttft_5 INTEGER NOT NULL DEFAULT 0,
  ttft_6 INTEGER NOT NULL DEFAULT 0,
  ttft_7 INTEGER NOT NULL DEFAULT 0,
  ttft_8 INTEGER NOT NULL DEFAULT 0,
  ttft_9 INTEGER NOT NULL DEFAULT 0,
  ttft_10 INTEGER NOT NULL DEFAULT 0,
  ttft_11 INTEGER NOT NULL DEFAULT 0,
  ttft_12 INTEGER NOT NULL DEFAULT 0,
  ttft_13 INTEGER NOT NULL DEFAULT 0,
  ttft_14 INTEGER NOT NULL DEFAULT 0,
  ttft_15 INTEGER NOT NULL DEFAULT 0,
  ttft_16 INTEGER NOT NULL DEFAULT 0,
  ttft_17 INTEGER NOT NULL DEFAULT 0,
  ttft_18 INTEGER NOT NULL DEFAULT 0,
  ttft_19 INTEGER NOT NULL DEFAULT 0,
  ttft_20 INTEGER NOT NULL DEFAULT 0,
  ttft_21 INTEGER NOT NULL DEFAULT 0,
  ttft_22 INTEGER NOT NULL DEFAULT 0,
  ttft_23 INTEGER NOT NULL DEFAULT 0,
  ttft_24 INTEGER NOT NULL DEFAULT 0,
  ttft_25 INTEGER NOT NULL DEFAULT 0,
  ttft_26 INTEGER NOT NULL DEFAULT 0,
  ttft_27 INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, model, provider)
) WITHOUT ROWID;
