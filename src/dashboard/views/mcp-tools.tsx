/**
 * A key's or tenant's MCP tools (docs/mcp.md): which tools of the registered MCP servers it may call
 * (an allow-list of `<namespace>__<tool>` patterns: empty is unset, "no tools" is its own box) and how
 * many calls a minute and a day; on a tenant, also each of its end users' calls. The fields are part of
 * the key's edit and create forms; a tenant's have their own form on its page. A one-line summary is
 * shown beside the other settings.
 */
import type { ApiFailure } from '../admin-api';
import { fmtInt } from '../format';
import type { FormValues } from '../forms';
import type { McpScope, McpSettingsLike } from '../mcp-form';
import { Field, fieldId } from './parts';

type Calls = McpSettingsLike['calls'];

function describeCalls(calls: Calls | undefined): string | null {
  if (!calls) return null;
  const parts = [
    calls.per_minute !== undefined && `${fmtInt(calls.per_minute)} calls/min`,
    calls.per_day !== undefined && `${fmtInt(calls.per_day)} calls/day`,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : null;
}

/** The settings in one line: which tools, then the limits. */
export function describeMcp(mcp: McpSettingsLike | null | undefined, scope: McpScope): string {
  const tools =
    !mcp || mcp.tools === null
      ? scope === 'key'
        ? 'every tool its tenant allows'
        : 'every tool'
      : mcp.tools.length === 0
        ? 'no tools'
        : mcp.tools.join(', ');
  const calls = describeCalls(mcp?.calls);
  const endUsers = describeCalls(mcp?.end_user_calls);
  return [tools, calls, endUsers && `each end user ${endUsers}`].filter(Boolean).join(' · ');
}

/** The MCP tools fieldset; names are the API's parameter paths under `mcp`. */
export function McpToolsFields(props: {
  scope: McpScope;
  values: FormValues;
  failure?: ApiFailure | null | undefined;
  /** Keeps ids unique when two forms on one page carry these fields. */
  idPrefix?: string;
}) {
  const { values, failure } = props;
  const idPrefix = props.idPrefix ?? '';
  const toolsId = fieldId(`${idPrefix}mcp.tools`);
  const invalid = failure?.param?.startsWith('mcp.tools') ?? false;
  const common = { values, failure, idPrefix };
  return (
    <fieldset>
      <legend>MCP tools</legend>
      <div>
        <div>
          <label for={toolsId}>
            Allowed tools
            <span class="hint" id={`${toolsId}-hint`}>
              One pattern per line: <code>*</code> or <code>namespace__tool</code>, where <code>*</code>{' '}
              matches anything (<code>github__*</code>, <code>*__read_*</code>).{' '}
              {props.scope === 'key'
                ? 'Empty: every tool its tenant allows.'
                : 'Empty: every tool of every server offered to the tenant.'}
            </span>
          </label>
          <textarea
            id={toolsId}
            name="mcp.tools"
            rows={3}
            aria-describedby={invalid ? `${toolsId}-hint form-error` : `${toolsId}-hint`}
            aria-invalid={invalid ? 'true' : undefined}
          >
            {values['mcp.tools'] ?? ''}
          </textarea>
        </div>
        <label class="check">
          <input type="checkbox" name="mcp.no_tools" checked={values['mcp.no_tools'] === 'on'} />
          No tools at all (the lines above are ignored; /mcp answers this{' '}
          {props.scope === 'key' ? 'key' : "tenant's keys"} with an explicit error)
        </label>
        <div class="grid">
          <Field name="mcp.calls.per_minute" label="Tool calls / minute" type="number" {...common} />
          <Field name="mcp.calls.per_day" label="Tool calls / day (UTC)" type="number" {...common} />
          {props.scope === 'tenant' ? (
            <>
              <Field
                name="mcp.end_user_calls.per_minute"
                label="Each end user: calls / minute"
                type="number"
                {...common}
              />
              <Field
                name="mcp.end_user_calls.per_day"
                label="Each end user: calls / day (UTC)"
                type="number"
                {...common}
              />
            </>
          ) : null}
        </div>
        <p class="hint">Empty limits: no limit.</p>
      </div>
    </fieldset>
  );
}
