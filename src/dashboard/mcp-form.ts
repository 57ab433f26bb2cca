/**
 * MCP settings ⇄ HTML forms (pure): a key's or tenant's `mcp` field (allow-list of tool patterns and
 * tool-call limits, src/core/mcp-settings.ts) and an upstream MCP server's registration. As in forms.ts,
 * nothing is validated here: what does not look like a number goes through as typed and the admin API
 * names the field it refuses. Field names are the API's parameter paths (`mcp.tools`,
 * `mcp.calls.per_minute`, `auth.secret`), so a refusal's `param` marks its input.
 *
 * The allow-list has three states a form must tell apart: unset (null: every tool the tenant allows) is an
 * empty textarea; "no tools" (`[]`) is its own checkbox, which wins over any lines; else one pattern a line.
 * A server's secret is write-only: it is never a form value read back, and left blank on an edit it is not
 * sent, so the stored one is kept.
 */
import { type FormValues, numberish } from './forms';

export const MCP_CALL_FIELDS = ['per_minute', 'per_day'] as const;

/** The `mcp` settings as stored on a key (no end-user limits) or a tenant. */
export interface McpSettingsLike {
  readonly tools: readonly string[] | null;
  readonly calls: Readonly<Partial<Record<(typeof MCP_CALL_FIELDS)[number], number>>> | null;
  readonly end_user_calls?: Readonly<Partial<Record<(typeof MCP_CALL_FIELDS)[number], number>>> | null;
}

export type McpScope = 'key' | 'tenant';

/** Calls per minute / per day under `prefix`; null when both are blank (unmetered). */
function callsBody(values: FormValues, prefix: string): Record<string, number | string> | null {
  const out: Record<string, number | string> = {};
  for (const k of MCP_CALL_FIELDS) {
    const v = numberish(values[`${prefix}.${k}`]);
    if (v !== undefined) out[k] = v;
  }
  return Object.keys(out).length ? out : null;
}

/** The patterns typed one a line (commas and spaces separate too), or null when there are none. */
export function toolPatterns(text: string | undefined): string[] | null {
  const lines = (text ?? '').split(/[\s,]+/).filter(Boolean);
  return lines.length ? lines : null;
}

/** The `mcp` field of a PATCH body: replaced whole (`end_user_calls` on a tenant only). */
export function mcpBody(values: FormValues, scope: McpScope): Record<string, unknown> {
  const tools = values['mcp.no_tools'] === 'on' ? [] : toolPatterns(values['mcp.tools']);
  const body: Record<string, unknown> = { tools, calls: callsBody(values, 'mcp.calls') };
  if (scope === 'tenant') body.end_user_calls = callsBody(values, 'mcp.end_user_calls');
  return body;
}

/** Stored `mcp` settings as the form's values (absent settings: an empty form, i.e. unset). */
export function mcpFormValues(mcp: McpSettingsLike | null | undefined): FormValues {
  const out: FormValues = {};
  if (!mcp) return out;
  if (mcp.tools !== null && mcp.tools.length === 0) out['mcp.no_tools'] = 'on';
  else if (mcp.tools) out['mcp.tools'] = mcp.tools.join('\n');
  const calls = { 'mcp.calls': mcp.calls, 'mcp.end_user_calls': mcp.end_user_calls ?? null };
  for (const [prefix, window] of Object.entries(calls))
    for (const k of MCP_CALL_FIELDS) {
      const v = window?.[k];
      if (v !== undefined) out[`${prefix}.${k}`] = String(v);
    }
  return out;
}

/** The fields of the MCP tools form that go back into it after a refusal (all of them: none is secret). */
export function mcpFields(values: FormValues): FormValues {
  const out: FormValues = {};
  for (const [k, v] of Object.entries(values)) if (k.startsWith('mcp.')) out[k] = v;
  return out;
}

/**
 * A server's registration as a POST or PATCH body (the same fields: `auth` is replaced whole on PATCH);
 * the secret is sent only when typed; a blank header or timeout is left out (none / the default).
 */
export function serverBody(values: FormValues): Record<string, unknown> {
  const auth: Record<string, unknown> = { type: values['auth.type'] || 'none' };
  const header = values['auth.header']?.trim() ?? '';
  if (header) auth.header = header;
  const secret = values['auth.secret'] ?? '';
  if (secret !== '') auth.secret = secret;
  const timeout = numberish(values.timeout_ms);
  return {
    namespace: values.namespace?.trim() ?? '',
    url: values.url?.trim() ?? '',
    transport: values.transport || 'streamable-http',
    description: values.description?.trim() ?? '',
    auth,
    ...(timeout === undefined ? {} : { timeout_ms: timeout }),
    enabled: values.enabled === 'on',
  };
}

/** What goes back into a server form after a refusal: everything typed but the secret. */
export function serverFields(values: FormValues): FormValues {
  const { 'auth.secret': _secret, _csrf, ...kept } = values;
  return kept;
}

/** A registered server as its edit form's values (its secret is never among them: the API has none to give). */
export function serverFormValues(server: {
  namespace: string;
  url: string;
  transport: string;
  description: string;
  auth: { type: string; header: string | null };
  timeout_ms: number;
  enabled: boolean;
}): FormValues {
  return {
    namespace: server.namespace,
    url: server.url,
    transport: server.transport,
    description: server.description,
    'auth.type': server.auth.type,
    'auth.header': server.auth.header ?? '',
    timeout_ms: String(server.timeout_ms),
    ...(server.enabled ? { enabled: 'on' } : {}),
  };
}
