-- Named routes (issue 14): each request log records the route the client called and every
-- upstream attempt it made. ADD COLUMN suffices (no constraint changes), so unlike 0007 the
-- table is not rebuilt; rows written before this migration read back as route NULL, tries [].
ALTER TABLE request_logs ADD COLUMN route TEXT;     -- the named route called; NULL for a provider/model
-- JSON array of {target, status, ttfb_ms, error}, in call order (≤ LOG_MAX_TRIES);
-- NULL when no upstream was called (cache hits, refusals). Validated again on read.
ALTER TABLE request_logs ADD COLUMN tries TEXT CHECK (tries IS NULL OR json_valid(tries));
-- The admin API's route filter; partial, so requests without a route cost no index write.
CREATE INDEX request_logs_route_time ON request_logs (route, time, id) WHERE route IS NOT NULL;
