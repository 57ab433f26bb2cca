/**
 * The MCP servers pages (docs/mcp.md): the global servers (offered to every tenant) with a form to
 * register one; a tenant's view (its own servers and the global ones offered to it, a scope column),
 * with a form to register one of its own and its tokens for the global servers that take a tenant's
 * token; one server's page (facts, edit form, delete link); and the delete confirmation. Each form is
 * shown only when the signed-in admin may make the change (can.ts). Secrets are write-only: password
 * inputs never filled in, and only the hint the API gives is shown.
 */
import type { ApiFailure } from '../admin-api';
import { can } from '../can';
import type { SignedIn } from '../context';
import { fmtInt } from '../format';
import type { FormValues } from '../forms';
import type { McpServer, Tenant } from '../schemas';
import { ActionForm, Badge, Failure, Field, fieldId, Notice, Time } from './parts';

export const MCP_HOME = '/dashboard/mcp-servers';
const GLOBAL_OP = '/admin/mcp-servers';
const TENANT_OP = '/admin/tenants/{id}/mcp-servers';

/** Where a server lives: globally (tenant null) or in one tenant. */
export interface ServerPlace {
  tenantId: string | null;
  serverId: string;
}

/** The server's own page in the dashboard. */
export function serverHref(place: ServerPlace): string {
  const server = encodeURIComponent(place.serverId);
  return place.tenantId === null
    ? `${MCP_HOME}/global/${server}`
    : `${MCP_HOME}/tenants/${encodeURIComponent(place.tenantId)}/${server}`;
}

/** The list a server is shown in: the global list, or its tenant's view. */
export function listHref(tenantId: string | null): string {
  return tenantId === null ? MCP_HOME : `${MCP_HOME}?tenant_id=${encodeURIComponent(tenantId)}`;
}

const placeOf = (s: McpServer): ServerPlace => ({ tenantId: s.tenant_id, serverId: s.id });

/** The admin API operation (as can.ts names it) behind a change to a server of this place. */
function serverOp(method: 'PATCH' | 'DELETE', tenantId: string | null): string {
  return tenantId === null ? `${method} ${GLOBAL_OP}/{server}` : `${method} ${TENANT_OP}/{server}`;
}

function describeAuth(s: McpServer): string {
  switch (s.auth.type) {
    case 'none':
      return 'none';
    case 'bearer':
      return 'bearer';
    case 'header':
      return `header ${s.auth.header ?? ''}`;
    case 'tenant_token':
      return s.auth.header ? `tenant token (${s.auth.header})` : 'tenant token (bearer)';
  }
}

/**
 * The page a row opens: a global server's own page for an admin who may read it there, else (a
 * tenant_admin, on a global server offered to its tenant) the read-only view through the tenant's path.
 */
function rowHref(s: McpServer, who: SignedIn['who'], viewTenant: string | null): string | null {
  if (s.tenant_id !== null || can(who, `GET ${GLOBAL_OP}/{server}`)) return serverHref(placeOf(s));
  return viewTenant === null ? null : serverHref({ tenantId: viewTenant, serverId: s.id });
}

function ServersTable(props: {
  servers: McpServer[];
  session: SignedIn;
  /** The tenant whose view this is (a scope column is shown); null: the global list. */
  viewTenant: string | null;
}) {
  const { session, viewTenant } = props;
  const scope = viewTenant !== null;
  return (
    <div class="scroll">
      <table>
        <thead>
          <tr>
            <th scope="col">Namespace</th>
            {scope ? <th scope="col">Scope</th> : null}
            <th scope="col">URL</th>
            <th scope="col">Auth</th>
            <th scope="col">Secret</th>
            <th scope="col">Timeout</th>
            <th scope="col">Status</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {props.servers.map((s) => {
            const href = rowHref(s, session.who, viewTenant);
            return (
              <tr>
                <th scope="row">
                  {href ? (
                    <a href={href}>
                      <code>{s.namespace}</code>
                    </a>
                  ) : (
                    <code>{s.namespace}</code>
                  )}
                </th>
                {scope ? (
                  <td>
                    <span class="badge">{s.scope}</span>
                  </td>
                ) : null}
                <td>
                  <code>{s.url}</code> <span class="muted">{s.transport}</span>
                </td>
                <td>{describeAuth(s)}</td>
                <td>{s.auth.hint ? <code>{s.auth.hint}</code> : <span class="muted">–</span>}</td>
                <td class="num">{fmtInt(s.timeout_ms)} ms</td>
                <td>
                  <Badge value={s.enabled ? 'active' : 'disabled'} />
                </td>
                <td>{s.description}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

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

function AddServer(props: {
  session: SignedIn;
  action: string;
  heading: string;
  idPrefix: string;
  values: FormValues;
  failure: ApiFailure | null;
}) {
  return (
    <details open={props.failure !== null}>
      <summary>{props.heading}</summary>
      <Failure failure={props.failure} action="The server was not registered" />
      <ActionForm action={props.action} session={props.session} class="stack">
        <ServerFields mode="create" values={props.values} failure={props.failure} idPrefix={props.idPrefix} />
        <div>
          <button type="submit">Register server</button>
        </div>
      </ActionForm>
    </details>
  );
}

/** The tenant's own tokens for the global servers that take one: hint, set or replace, remove. */
function TokensSection(props: {
  session: SignedIn;
  tenantId: string;
  servers: McpServer[];
  failure: ApiFailure | null;
  failedServer: string | null;
}) {
  const { session, tenantId } = props;
  const wanting = props.servers.filter((s) => s.scope === 'global' && s.auth.type === 'tenant_token');
  // A refusal for a server not listed here (one that takes no tenant token) is shown above the list.
  const unlisted = wanting.some((s) => s.id === props.failedServer) ? null : props.failure;
  const refusal = <Failure failure={unlisted} action="The token was not saved" />;
  if (wanting.length === 0) return refusal;
  const maySet = can(session.who, `PUT ${TENANT_OP}/{server}/token`, tenantId);
  const mayRemove = can(session.who, `DELETE ${TENANT_OP}/{server}/token`, tenantId);
  return (
    <section aria-labelledby="mcp-tokens-h">
      <h3 id="mcp-tokens-h">The tenant's tokens for global servers</h3>
      <p class="muted">
        These global servers take each tenant's own token; without one, the tenant's calls to them are
        refused. A token is never shown again once saved, only its hint.
      </p>
      {refusal}
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Server</th>
              <th scope="col">Token</th>
              <th scope="col">Updated</th>
              {maySet || mayRemove ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {wanting.map((s) => {
              const base = `${serverHref({ tenantId, serverId: s.id })}/token`;
              const failure = props.failedServer === s.id ? props.failure : null;
              return (
                <tr>
                  <th scope="row">
                    <code>{s.namespace}</code>
                  </th>
                  <td>{s.token ? <code>{s.token.hint}</code> : <span class="muted">none</span>}</td>
                  <td>{s.token ? <Time ms={s.token.updated_at} /> : null}</td>
                  {maySet || mayRemove ? (
                    <td>
                      <Failure failure={failure} action="The token was not saved" />
                      {maySet ? (
                        <ActionForm action={base} session={session} class="actions">
                          <label for={fieldId(`token-${s.id}`)} class="inline">
                            {s.token ? 'Replace token' : 'Token'}
                          </label>
                          <input
                            id={fieldId(`token-${s.id}`)}
                            name="token"
                            type="password"
                            autocomplete="new-password"
                            required
                            aria-invalid={failure?.param === 'token' ? 'true' : undefined}
                          />
                          <button type="submit">Save token</button>
                        </ActionForm>
                      ) : null}
                      {mayRemove && s.token ? (
                        <ActionForm action={`${base}/delete`} session={session} class="inline">
                          <button
                            type="submit"
                            class="danger"
                            aria-label={`Remove the tenant's token for ${s.namespace}`}
                          >
                            Remove token
                          </button>
                        </ActionForm>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Which form on the list page a refusal belongs to. */
export type ListForm = 'global' | 'tenant' | 'token';

export function McpServersPage(props: {
  session: SignedIn;
  /** The global servers; null when the admin may not list them (a tenant_admin). */
  globals: McpServer[] | null;
  /** The tenants to pick from. */
  tenants: Tenant[];
  /** The picked tenant and its view (own servers and the global ones offered to it). */
  tenant: Tenant | null;
  tenantServers: McpServer[] | null;
  failure: ApiFailure | null;
  failed: ListForm | null;
  /** The token form's server, when a token was refused. */
  failedServer: string | null;
  values: FormValues;
  notice: string | null;
}) {
  const { session, tenant } = props;
  const failureOf = (form: ListForm) => (props.failed === form ? props.failure : null);
  const valuesOf = (form: ListForm) => (props.failed === form ? props.values : { enabled: 'on' });
  return (
    <>
      <h1>MCP servers</h1>
      <Notice text={props.notice} />
      <p class="muted">
        Upstream MCP servers whose tools, prompts and resources the gateway offers at <code>/mcp</code>, named{' '}
        <code>namespace__tool</code>. A global server is offered to every tenant; a tenant's own only to it.
        Which tools a tenant or key may call is set on its page (MCP tools).
      </p>
      {props.globals ? (
        <section aria-labelledby="mcp-global-h">
          <h2 id="mcp-global-h">Global servers</h2>
          {props.globals.length === 0 ? (
            <p>No global servers.</p>
          ) : (
            <ServersTable servers={props.globals} session={session} viewTenant={null} />
          )}
          {can(session.who, `POST ${GLOBAL_OP}`) ? (
            <AddServer
              session={session}
              action={MCP_HOME}
              heading="Register a global server"
              idPrefix="global-"
              values={valuesOf('global')}
              failure={failureOf('global')}
            />
          ) : null}
        </section>
      ) : null}
      <section aria-labelledby="mcp-tenant-h">
        <h2 id="mcp-tenant-h">{tenant ? `Servers of ${tenant.name}` : "A tenant's servers"}</h2>
        <form method="get" action={MCP_HOME} class="actions">
          <label for="f-mcp-tenant">Tenant</label>
          <select id="f-mcp-tenant" name="tenant_id">
            {tenant ? null : <option value="">Pick a tenant</option>}
            {props.tenants.map((t) => (
              <option value={t.id} selected={t.id === tenant?.id}>
                {t.name}
              </option>
            ))}
          </select>
          <button type="submit" class="secondary">
            Show
          </button>
        </form>
        {tenant && props.tenantServers ? (
          <>
            {props.tenantServers.length === 0 ? (
              <p>No servers: none of its own and no global ones.</p>
            ) : (
              <ServersTable servers={props.tenantServers} session={session} viewTenant={tenant.id} />
            )}
            <TokensSection
              session={session}
              tenantId={tenant.id}
              servers={props.tenantServers}
              failure={failureOf('token')}
              failedServer={props.failedServer}
            />
            {can(session.who, `POST ${TENANT_OP}`, tenant.id) ? (
              <AddServer
                session={session}
                action={`${MCP_HOME}/tenants/${encodeURIComponent(tenant.id)}`}
                heading={`Register a server of ${tenant.name}'s own`}
                idPrefix="tenant-"
                values={valuesOf('tenant')}
                failure={failureOf('tenant')}
              />
            ) : null}
          </>
        ) : (
          <Failure
            failure={props.failed === null ? props.failure : null}
            action="The servers could not be listed"
          />
        )}
      </section>
    </>
  );
}

/** One server: its facts, the edit form and the way to delete it (each only when allowed). */
export function McpServerPage(props: {
  session: SignedIn;
  server: McpServer;
  /** The tenant whose view it was opened from (a global server seen by a tenant_admin); else its own. */
  viewTenant: string | null;
  values: FormValues;
  failure: ApiFailure | null;
  notice: string | null;
}) {
  const { session, server: s } = props;
  const place = placeOf(s);
  return (
    <>
      <p>
        <a href={listHref(props.viewTenant ?? s.tenant_id)}>« MCP servers</a>
      </p>
      <h1>
        MCP server <code>{s.namespace}</code>
      </h1>
      <Notice text={props.notice} />
      <dl class="facts">
        <dt>ID</dt>
        <dd>
          <code>{s.id}</code>
        </dd>
        <dt>Scope</dt>
        <dd>
          {s.tenant_id === null ? (
            'global: offered to every tenant'
          ) : (
            <>
              tenant <a href={`/dashboard/tenants/${encodeURIComponent(s.tenant_id)}`}>{s.tenant_id}</a>
            </>
          )}
        </dd>
        <dt>URL</dt>
        <dd>
          <code>{s.url}</code> ({s.transport})
        </dd>
        <dt>Auth</dt>
        <dd>
          {describeAuth(s)}
          {s.auth.hint ? (
            <>
              {' '}
              · secret <code>{s.auth.hint}</code>
            </>
          ) : null}
        </dd>
        <dt>Timeout</dt>
        <dd>{fmtInt(s.timeout_ms)} ms</dd>
        <dt>Status</dt>
        <dd>
          <Badge value={s.enabled ? 'active' : 'disabled'} />
        </dd>
        <dt>Created</dt>
        <dd>
          <Time ms={s.created_at} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <Time ms={s.updated_at} />
        </dd>
      </dl>
      {can(session.who, serverOp('PATCH', s.tenant_id), s.tenant_id) ? (
        <section aria-labelledby="edit-h">
          <h2 id="edit-h">Edit</h2>
          <Failure failure={props.failure} action="The server was not changed" />
          <ActionForm action={serverHref(place)} session={session} class="stack">
            <ServerFields
              mode="edit"
              values={props.values}
              failure={props.failure}
              idPrefix=""
              hint={s.auth.hint}
            />
            <div>
              <button type="submit">Save changes</button>
            </div>
          </ActionForm>
        </section>
      ) : null}
      {can(session.who, serverOp('DELETE', s.tenant_id), s.tenant_id) ? (
        <section aria-labelledby="delete-h">
          <h2 id="delete-h">Delete</h2>
          <p>
            Deleting removes the server and its stored secret
            {s.tenant_id === null ? ' and every tenant token for it' : ''}: its tools are no longer offered.
          </p>
          <p>
            <a class="button danger" href={`${serverHref(place)}/delete`}>
              Delete this server…
            </a>
          </p>
        </section>
      ) : null}
    </>
  );
}

export function DeleteServerPage(props: { session: SignedIn; server: McpServer }) {
  const s = props.server;
  const href = serverHref(placeOf(s));
  return (
    <>
      <h1>
        Delete MCP server <code>{s.namespace}</code>?
      </h1>
      <p class="alert warn" role="alert">
        {s.tenant_id === null ? 'Every tenant' : 'The tenant'} loses its <code>{s.namespace}__*</code> tools
        from the next tool call on, and the stored secret
        {s.tenant_id === null ? ' and tenant tokens are' : ' is'} deleted. This cannot be undone.
      </p>
      <ActionForm action={`${href}/delete`} session={props.session} class="actions">
        <button type="submit" class="danger">
          Yes, delete this server
        </button>
        <a href={href}>Cancel</a>
      </ActionForm>
    </>
  );
}
