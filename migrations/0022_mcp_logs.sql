-- MCP tool calls in the logs (docs/logs.md, docs/mcp.md): each upstream-reaching /mcp call is one
-- request_logs row (endpoint '/mcp', provider 'mcp:<namespace>', model '<namespace>__<tool>') whose mcp
-- column says what it was, and the log consumer rolls tool calls up into usage_mcp_daily in the same
-- transaction as usage_daily (src/logs/store.ts), exactly once per call like it. Tool calls are not model
-- requests: they are kept out of usage_daily, usage_end_users_daily and usage_tags_daily, so requests,
-- tokens and cost there stay the models'.

-- {method, server, namespace, name, args_bytes, result_bytes, is_error} as JSON; NULL for every request
-- that is not an MCP call, and in rows written before this migration.
ALTER TABLE request_logs ADD COLUMN mcp TEXT CHECK (mcp IS NULL OR json_valid(mcp));
-- GET /admin/logs?endpoint=/mcp (and ?server=): partial, so model requests write no index entry.
CREATE INDEX request_logs_mcp ON request_logs (tenant_id, time, id) WHERE endpoint = '/mcp';

-- MCP calls per tenant, UTC day, key, server namespace, method and tool; never deleted by retention.
-- tool is the call's model as logged ('<namespace>__<tool>', '<namespace>__<prompt>'); resources/read
-- calls are counted per server under tool '' (URIs are unbounded). '' stands for none, as in usage_daily.
-- calls counts every logged call; errors those refused or failed (status >= 400 or an error code);
-- tool_errors those the tool itself answered with isError. No cost: a tool call costs no tokens.
CREATE TABLE usage_mcp_daily (
  tenant_id    TEXT NOT NULL,
  day          TEXT NOT NULL,
  key_id       TEXT NOT NULL,
  server       TEXT NOT NULL,
  method       TEXT NOT NULL,
  tool         TEXT NOT NULL,
  calls        INTEGER NOT NULL DEFAULT 0,
  errors       INTEGER NOT NULL DEFAULT 0,
  tool_errors  INTEGER NOT NULL DEFAULT 0,
  args_bytes   INTEGER NOT NULL DEFAULT 0,
  result_bytes INTEGER NOT NULL DEFAULT 0,
  latency_ms   REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, day, key_id, server, method, tool)
) WITHOUT ROWID;
CREATE INDEX usage_mcp_daily_day ON usage_mcp_daily (day);
