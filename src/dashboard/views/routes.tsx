/**
 * Named routes: the list (name, scope, strategy, targets in one line) with the
 * create form (name, scope, the spec as JSON), and one route's page (its spec,
 * an edit form and a delete button; the forms only for admins who may change
 * routes). A refusal names its field, which the form marks.
 */
import type { ApiFailure } from '../admin-api';
import type { FormValues } from '../forms';
import type { RouteGroup } from '../../core/route-spec';
import { can } from '../can';
import type { SignedIn } from '../context';
import type { Route, Tenant } from '../schemas';
import { ActionForm, Failure, Field, fieldId, Notice, Pager, Time } from './parts';

/** What the create form starts with: a small fallback the admin edits. */
export const EXAMPLE_SPEC = `{
  "strategy": "fallback",
  "targets": [
    { "model": "openai/gpt-4o-mini", "ttfb_timeout_ms": 5000 },
    { "model": "anthropic/claude-3-5-haiku-latest" }
  ]
}`;

/** A route's targets in one line: fallback steps joined by →, a weighted group as a | b with weights. */
export function describeTargets(group: Pick<RouteGroup, 'strategy' | 'targets'>): string {
  const steps = group.targets.map((t) => {
    if ('strategy' in t) return `(${describeTargets(t)})`;
    return group.strategy === 'loadbalance' ? `${t.model} ×${t.weight}` : t.model;
  });
  return steps.join(group.strategy === 'loadbalance' ? ' | ' : ' → ');
}

function scopeOf(route: Route, tenants: ReadonlyMap<string, string>): string {
  if (route.tenant_id === null) return 'Global';
  return `Tenant ${tenants.get(route.tenant_id) ?? route.tenant_id}`;
}

const routePath = (id: string) => `/dashboard/routes/${encodeURIComponent(id)}`;

/** The spec as JSON, marked invalid when the API named a field inside it. */
function SpecField(props: { values: FormValues; failure?: ApiFailure | null }) {
  const invalid = props.failure?.param === 'spec' || (props.failure?.param?.startsWith('spec.') ?? false);
  return (
    <div>
      <label for={fieldId('spec')}>
        Spec (JSON)
        <span class="hint" id="spec-hint">
          <code>strategy</code> (fallback or loadbalance) over <code>targets</code>: each a{' '}
          <code>provider/model</code> or another route's name, with optional <code>weight</code>,{' '}
          <code>ttfb_timeout_ms</code>, <code>attempts</code>, <code>credential</code> and{' '}
          <code>overrides</code>; a target may itself be a group. <code>"on_unsupported": "refuse"</code>{' '}
          skips targets whose translation would drop fields (and refuses with a 400 when none is left). See
          docs/routes.md.
        </span>
      </label>
      <textarea
        id={fieldId('spec')}
        name="spec"
        rows={12}
        class="mono"
        spellcheck={false}
        aria-describedby={invalid ? 'spec-hint form-error' : 'spec-hint'}
        aria-invalid={invalid ? 'true' : undefined}
      >
        {props.values.spec ?? ''}
      </textarea>
    </div>
  );
}

export function RoutesPage(props: {
  session: SignedIn;
  routes: Route[];
  tenants: Tenant[];
  moreTenants: boolean;
  next: string | null;
  cursor?: string;
  failure?: ApiFailure | null;
  values?: FormValues;
  notice?: string | null;
}) {
  const values: FormValues = { spec: EXAMPLE_SPEC, ...props.values };
  const names = new Map(props.tenants.map((t) => [t.id, t.name]));
  const scopeInvalid = props.failure?.param === 'tenant_id';
  return (
    <>
      <h1>Routes</h1>
      <p class="muted">
        A route is a name clients put in <code>model</code>, served by a strategy over targets: the first that
        answers (fallback) or a weighted draw (loadbalance). A tenant's own route shadows a global one of the
        same name.
      </p>
      <Notice text={props.notice} />
      <h2>All routes</h2>
      {props.routes.length === 0 ? (
        <p>No routes yet.</p>
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scope</th>
                <th scope="col">Strategy</th>
                <th scope="col">Targets</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {props.routes.map((r) => (
                <tr>
                  <th scope="row">
                    <a href={routePath(r.id)}>{r.name}</a>
                  </th>
                  <td>{scopeOf(r, names)}</td>
                  <td>{r.spec.strategy}</td>
                  <td>{describeTargets(r.spec)}</td>
                  <td>
                    <Time ms={r.updated_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager base="/dashboard/routes" query={{ cursor: props.cursor }} next={props.next} label="Routes" />
      {can(props.session.who, 'POST /admin/routes') ? (
        <section aria-labelledby="create-route-h">
          <h2 id="create-route-h">Define a route</h2>
          <Failure failure={props.failure} action="The route was not created" />
          <ActionForm action="/dashboard/routes" session={props.session} class="stack">
            <Field
              name="name"
              label="Route name"
              hint='What clients put in model, e.g. smart: letters, digits, ".", "_" and "-", no "/".'
              values={values}
              failure={props.failure}
              required
            />
            <div>
              <label for={fieldId('tenant_id')}>
                Scope
                {props.moreTenants ? <span class="hint">The newest 100 tenants are listed.</span> : null}
              </label>
              <select
                id={fieldId('tenant_id')}
                name="tenant_id"
                aria-invalid={scopeInvalid ? 'true' : undefined}
                aria-describedby={scopeInvalid ? 'form-error' : undefined}
              >
                <option value="">Global: every tenant</option>
                {props.tenants.map((t) => (
                  <option
                    value={t.id}
                    selected={t.id === values.tenant_id}
                  >{`Tenant ${t.name} (${t.id})`}</option>
                ))}
              </select>
            </div>
            <SpecField values={values} failure={props.failure} />
            <div>
              <button type="submit">Create route</button>
            </div>
          </ActionForm>
        </section>
      ) : null}
    </>
  );
}

export function RoutePage(props: {
  session: SignedIn;
  route: Route;
  tenantName: string | null;
  values: FormValues;
  failure?: ApiFailure | null;
  /** Which form the failure belongs to. */
  failed?: 'edit' | 'delete';
  notice?: string | null;
}) {
  const { route, session } = props;
  const edit = props.failed === 'delete' ? null : props.failure;
  const remove = props.failed === 'delete' ? props.failure : null;
  return (
    <>
      <p>
        <a href="/dashboard/routes">« All routes</a>
      </p>
      <h1>Route {route.name}</h1>
      <Notice text={props.notice} />
      <dl class="facts">
        <dt>ID</dt>
        <dd>
          <code>{route.id}</code>
        </dd>
        <dt>Scope</dt>
        <dd>
          {route.tenant_id === null ? (
            'Global: every tenant'
          ) : (
            <a href={`/dashboard/tenants/${encodeURIComponent(route.tenant_id)}`}>
              {`Tenant ${props.tenantName ?? route.tenant_id}`}
            </a>
          )}
        </dd>
        <dt>Targets</dt>
        <dd>{`${route.spec.strategy}: ${describeTargets(route.spec)}`}</dd>
        <dt>Translation</dt>
        <dd>
          {route.spec.on_unsupported === 'refuse'
            ? 'refused: targets that would drop them are skipped'
            : 'dropped and named (unless the key or tenant refuses)'}
        </dd>
        <dt>Created</dt>
        <dd>
          <Time ms={route.created_at} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <Time ms={route.updated_at} />
        </dd>
      </dl>
      {can(session.who, 'PATCH /admin/routes/{id}') ? null : (
        <pre class="scroll">{props.values.spec ?? ''}</pre>
      )}
      {can(session.who, 'PATCH /admin/routes/{id}') ? (
        <section aria-labelledby="edit-route-h">
          <h2 id="edit-route-h">Edit</h2>
          <Failure failure={edit} action="The route was not changed" />
          <ActionForm action={routePath(route.id)} session={session} class="stack">
            <Field name="name" label="Route name" values={props.values} failure={edit} required />
            <SpecField values={props.values} failure={edit} />
            <div>
              <button type="submit">Save route</button>
            </div>
          </ActionForm>
        </section>
      ) : null}
      {can(session.who, 'DELETE /admin/routes/{id}') ? (
        <section aria-labelledby="delete-route-h">
          <h2 id="delete-route-h">Delete</h2>
          <p class="muted">
            Clients calling <code>{route.name}</code> are refused from then on (or reach the global route of
            that name). A route that other routes name cannot be deleted.
          </p>
          <Failure failure={remove} action="The route was not deleted" />
          <ActionForm action={`${routePath(route.id)}/delete`} session={session}>
            <button type="submit" class="danger">
              Delete route {route.name}
            </button>
          </ActionForm>
        </section>
      ) : null}
    </>
  );
}
