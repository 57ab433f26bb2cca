/**
 * One MCP server's page: its facts (the secret's hint only), the edit form and the way to delete it,
 * each only when the signed-in admin may (a global server seen through a tenant's view is read-only);
 * and the delete confirmation.
 */
import type { ApiFailure } from '../admin-api';
import { can } from '../can';
import type { SignedIn } from '../context';
import { fmtInt } from '../format';
import type { FormValues } from '../forms';
import { listHref, placeOf, serverHref, serverOp } from '../mcp-paths';
import type { McpServer } from '../schemas';
import { ServerFields } from './mcp-server-fields';
import { describeAuth } from './mcp-server-table';
import { ActionForm, Badge, Failure, Notice, Time } from './parts';

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
