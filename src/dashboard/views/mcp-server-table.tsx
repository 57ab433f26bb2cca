/**
 * MCP servers as a table: namespace (a link to the page the admin may open), scope in a tenant's view,
 * URL and transport, auth, the secret's hint (never the secret), timeout, status, description.
 */
import { can } from '../can';
import type { SignedIn } from '../context';
import { fmtInt } from '../format';
import { GLOBAL_OP, placeOf, serverHref } from '../mcp-paths';
import type { McpServer } from '../schemas';
import { Badge } from './parts';

/** How the gateway authenticates to the server, in words. */
export function describeAuth(s: McpServer): string {
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

export function ServersTable(props: {
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
