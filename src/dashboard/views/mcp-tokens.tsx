/**
 * A tenant's own tokens for the global MCP servers that take one (auth `tenant_token`): each server with
 * the token's hint or none, a password field to set or replace it, and a button to remove it (each only
 * when allowed). A refusal is shown beside its server's form, or above the list for a server not in it.
 */
import type { ApiFailure } from '../admin-api';
import { can } from '../can';
import type { SignedIn } from '../context';
import { serverHref, TENANT_OP } from '../mcp-paths';
import type { McpServer } from '../schemas';
import { ActionForm, Failure, fieldId, Time } from './parts';

/** The tenant's own tokens for the global servers that take one: hint, set or replace, remove. */
export function TokensSection(props: {
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
