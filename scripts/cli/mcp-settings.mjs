// The `mcp` settings flags of `tenants update` and `keys update` (docs/mcp.md, "Permissions" and "Tool-call
// limits"): which tools the tenant's or key's requests may call and how often. `mcp` is replaced whole by
// the API, so the flags are merged into the stored settings first (the command reads them).
//   --mcp-tools 'github__*,search__query'   the allow-list; `all` (null: every tool, or for a key its
//                                           tenant's list), '' or `none` ([]: no tool at all)
//   --mcp-calls-per-minute N, --mcp-calls-per-day N        tool calls of the tenant or key (`none` removes)
//   --mcp-end-user-calls-per-minute N, …-per-day N         each end user's (tenants only)
//   --mcp-clear                                            remove the whole setting (null)
import { commaList, numberFlag } from './util.mjs';

export const MCP_FLAGS_USAGE =
  "[--mcp-tools 'ns__tool,ns__*'|all|none] [--mcp-calls-per-minute N] [--mcp-calls-per-day N] [--mcp-clear]";
export const MCP_TENANT_FLAGS_USAGE = '[--mcp-end-user-calls-per-minute N] [--mcp-end-user-calls-per-day N]';

function toolsFlag(raw) {
  if (raw === undefined) return undefined;
  if (raw === 'all') return null;
  if (raw.trim() === '' || raw === 'none') return [];
  return commaList(raw);
}

/** Calls limits with the flags applied (undefined: not given, `none`: removed); null when none remain. */
function callsWith(fail, current, prefix, opts) {
  const minute = numberFlag(fail, `${prefix}-per-minute`, opts[`${prefix}-per-minute`]);
  const day = numberFlag(fail, `${prefix}-per-day`, opts[`${prefix}-per-day`]);
  if (minute === undefined && day === undefined) return { changed: false, calls: current ?? null };
  const calls = { ...(current ?? {}) };
  for (const [field, value] of [
    ['per_minute', minute],
    ['per_day', day],
  ]) {
    if (value === null) delete calls[field];
    else if (value !== undefined) calls[field] = value;
  }
  return { changed: true, calls: Object.keys(calls).length ? calls : null };
}

/** Whether any mcp flag is given (the command then reads the stored settings to merge into). */
export function mcpFlagsGiven(opts) {
  return Object.keys(opts).some((flag) => flag.startsWith('mcp-') && opts[flag] !== undefined);
}

/** The new `mcp` value from the stored one (a tenant's or key's `mcp`, absent when unset) and the flags. */
export function mergedMcp({ opts, fail }, stored, { tenant }) {
  if (opts['mcp-clear']) return null;
  if (!tenant && (opts['mcp-end-user-calls-per-minute'] || opts['mcp-end-user-calls-per-day']))
    fail('--mcp-end-user-calls-… is a tenant setting (tenants update)');
  const tools = toolsFlag(opts['mcp-tools']);
  const calls = callsWith(fail, stored?.calls, 'mcp-calls', opts);
  const next = {
    tools: tools === undefined ? (stored?.tools ?? null) : tools,
    calls: calls.calls,
  };
  if (tenant) next.end_user_calls = callsWith(fail, stored?.end_user_calls, 'mcp-end-user-calls', opts).calls;
  return next;
}

export const mcpSettingsOptions = {
  'mcp-tools': { type: 'string' },
  'mcp-calls-per-minute': { type: 'string' },
  'mcp-calls-per-day': { type: 'string' },
  'mcp-end-user-calls-per-minute': { type: 'string' },
  'mcp-end-user-calls-per-day': { type: 'string' },
  'mcp-clear': { type: 'boolean' },
};
