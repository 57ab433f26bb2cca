/**
 * The MCP servers page (docs/mcp.md): the global servers (offered to every tenant) with a form to
 * register one; a tenant's view (its own servers and the global ones offered to it, with their scope),
 * with a form to register one of its own and its tokens for the global servers that take one. Each form
 * is shown only when the signed-in admin may make the change (can.ts); a tenant_admin sees only its
 * tenants' views.
 */
import type { ApiFailure } from '../admin-api';
import { can } from '../can';
import type { SignedIn } from '../context';
import type { FormValues } from '../forms';
import { GLOBAL_OP, MCP_HOME, TENANT_OP } from '../mcp-paths';
import type { McpServer, Tenant } from '../schemas';
import { ServerFields } from './mcp-server-fields';
import { ServersTable } from './mcp-server-table';
import { TokensSection } from './mcp-tokens';
import { ActionForm, Failure, Notice } from './parts';

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
  // The tenant shown is always a choice, even past the first page of the tenants list.
  const listed = tenant === null || props.tenants.some((t) => t.id === tenant.id);
  const choices = listed || tenant === null ? props.tenants : [tenant, ...props.tenants];
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
            {choices.map((t) => (
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
