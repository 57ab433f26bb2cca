/**
 * An MCP server's registration fields, shared by the register and edit forms; names are the API's
 * parameter paths (`auth.type`, `auth.secret`, `timeout_ms`), so a refusal marks its input. The secret
 * is a password input never filled in: on an edit, blank keeps the stored one (its hint is named).
 */
import type { ApiFailure } from '../admin-api';
import type { FormValues } from '../forms';
import { Field, fieldId } from './parts';

const TRANSPORTS = [
  { value: 'streamable-http', label: 'Streamable HTTP' },
  { value: 'sse', label: 'SSE (older servers)' },
];
const AUTH_TYPES = [
  { value: 'none', label: 'None' },
  { value: 'bearer', label: 'Bearer token (Authorization: Bearer …)' },
  { value: 'header', label: 'A header of its own (name below)' },
  { value: 'tenant_token', label: "Each tenant's own token (global servers)" },
];

function Select(props: {
  name: string;
  label: string;
  options: { value: string; label: string }[];
  value: string;
  idPrefix: string;
  failure?: ApiFailure | null | undefined;
}) {
  const id = fieldId(`${props.idPrefix}${props.name}`);
  const invalid = props.failure?.param === props.name;
  return (
    <div>
      <label for={id}>{props.label}</label>
      <select id={id} name={props.name} aria-invalid={invalid ? 'true' : undefined}>
        {props.options.map((o) => (
          <option value={o.value} selected={o.value === props.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A server's registration fields; names are the API's parameter paths (`auth.secret`, `timeout_ms`). */
export function ServerFields(props: {
  mode: 'create' | 'edit';
  values: FormValues;
  failure?: ApiFailure | null | undefined;
  idPrefix: string;
  /** The stored secret's hint, on an edit. */
  hint?: string | null;
}) {
  const { values, failure, idPrefix } = props;
  const common = { values, failure, idPrefix };
  return (
    <>
      <Field
        name="namespace"
        label="Namespace"
        hint={
          props.mode === 'create'
            ? 'Its tools are listed as namespace__tool: 1–32 of a-z, 0-9 and -, starting with a letter.'
            : "Renaming changes its tools' names: allow-lists naming the old one no longer match."
        }
        required
        {...common}
      />
      <Field
        name="url"
        label="URL"
        hint="The server's MCP endpoint, http(s), e.g. https://mcp.example.com/mcp"
        required
        {...common}
      />
      <Select
        name="transport"
        label="Transport"
        options={TRANSPORTS}
        value={values.transport || 'streamable-http'}
        idPrefix={idPrefix}
        failure={failure}
      />
      <Field name="description" label="Description" hint="For people: what the server offers." {...common} />
      <fieldset>
        <legend>Authentication to the server</legend>
        <div class="grid">
          <Select
            name="auth.type"
            label="Type"
            options={AUTH_TYPES}
            value={values['auth.type'] || 'none'}
            idPrefix={idPrefix}
            failure={failure}
          />
          <Field
            name="auth.header"
            label="Header name"
            hint="For a header of its own; for tenant tokens, empty sends a bearer."
            {...common}
          />
          <Field
            name="auth.secret"
            label={props.mode === 'edit' ? 'Replace the secret' : 'Secret'}
            hint={
              props.mode === 'edit'
                ? `Empty keeps the stored one${props.hint ? ` (${props.hint})` : ''}. Never shown again.`
                : 'For a bearer or a header of its own. Never shown again, only its hint.'
            }
            type="password"
            autocomplete="new-password"
            failure={failure}
            idPrefix={idPrefix}
          />
        </div>
      </fieldset>
      <Field
        name="timeout_ms"
        label="Timeout, ms"
        hint="Longest wait for one answer (1–120000). Empty: 30000."
        type="number"
        {...common}
      />
      <label class="check">
        <input type="checkbox" name="enabled" checked={values.enabled === 'on'} />
        Enabled (a disabled server's tools are not offered)
      </label>
    </>
  );
}
