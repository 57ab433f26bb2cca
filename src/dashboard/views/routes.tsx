/**
 * Named routes: the list (name, scope, strategy, targets in one line, health)
 * with the create form, and one route's page (its facts, per-target health,
 * an edit form and a delete button; the forms only for admins who may change
 * routes). Each form has two editors: fields (src/dashboard/route-form.ts)
 * and, below them, the spec as JSON; the JSON is used when the admin changed
 * it (it differs from the hidden `spec_was`), the fields otherwise. A refusal
 * is shown at the top of the page, naming its field with a link to it, and
 * the field is marked.
 */
import type { RouteHealth } from '../../admin/resources/route-health';
import type { RouteGroup } from '../../core/route-spec';
import type { ApiFailure } from '../admin-api';
import { can } from '../can';
import type { SignedIn } from '../context';
import type { FormValues } from '../forms';
import { fieldLabel } from '../route-form';
import type { Route, Tenant } from '../schemas';
import { RouteFormButtons, RouteSpecFields } from './route-form';
import { HealthSummary, RouteHealthTable } from './route-health';
import { ActionForm, Failure, Field, fieldId, Id, Notice, Pager, Time } from './parts';

/** The JSON editor's placeholder on the create form: a small fallback. */
export const EXAMPLE_SPEC = `{
  "strategy": "fallback",
  "targets": [
    { "model": "openai/gpt-4o-mini", "ttfb_timeout_ms": 5000 },
    { "model": "anthropic/claude-3-5-haiku-latest" }
  ]
}`;

/** Which editor a submission came from: the fields or the JSON. */
export type Editor = 'form' | 'json';

/** A route's targets in one line: fallback steps joined by →, a weighted group as a | b with weights. */
export function describeTargets(group: Pick<RouteGroup, 'strategy' | 'targets'>): string {
  const steps = group.targets.map((t) => {
    if ('strategy' in t) return `(${describeTargets(t)})`;
    return group.strategy === 'loadbalance' ? `${t.model} ×${t.weight}` : t.model;
  });
  return steps.join(group.strategy === 'loadbalance' ? ' | ' : ' → ');
}

const routePath = (id: string) => `/dashboard/routes/${encodeURIComponent(id)}`;

/** A refusal at the top of the page, with a link to the field it names when the form has it. */
function TopFailure(props: { failure?: ApiFailure | null; action: string; editor?: Editor }) {
  const f = props.failure;
  if (!f) return null;
  const label = fieldLabel(f.param);
  const json = props.editor === 'json';
  const param = f.param ?? '';
  const anchor = json && param.startsWith('spec') ? 'spec' : param;
  return (
    <>
      <Failure failure={f} action={props.action} />
      {label ? (
        <p class="alert error">
          Fix <a href={`#${fieldId(anchor)}`}>{label}</a>
          {json ? ' in the JSON' : ''} and save again.
        </p>
      ) : null}
    </>
  );
}

/**
 * The spec as JSON, the alternative to the fields: used when its text differs from `spec_was` (what the
 * page showed). Marked invalid when the API named a field inside it.
 */
function SpecJson(props: { values: FormValues; failure?: ApiFailure | null; placeholder?: string }) {
  const invalid = props.failure?.param === 'spec' || (props.failure?.param?.startsWith('spec.') ?? false);
  const id = fieldId('spec');
  return (
    <div>
      <input type="hidden" name="spec_was" value={props.values.spec_was ?? ''} />
      <label for={id}>
        Spec (JSON)
        <span class="hint" id="spec-hint">
          Instead of the fields above: change this and the JSON is saved (the fields are then ignored).{' '}
          <code>strategy</code> (fallback or loadbalance) over <code>targets</code>: each a{' '}
          <code>provider/model</code> or another route's name, with optional <code>weight</code>,{' '}
          <code>ttfb_timeout_ms</code>, <code>attempts</code>, <code>credential</code> and{' '}
          <code>overrides</code>; a target may itself be a group. <code>"on_unsupported": "refuse"</code>{' '}
          skips targets whose translation would drop fields (and refuses with a 400 when none is left). See
          docs/routes.md.
        </span>
      </label>
      <textarea
        id={id}
        name="spec"
        rows={12}
        class="mono"
        spellcheck={false}
        aria-describedby={invalid ? 'spec-hint form-error' : 'spec-hint'}
        aria-invalid={invalid ? 'true' : undefined}
        placeholder={props.placeholder}
      >
        {props.values.spec ?? ''}
      </textarea>
    </div>
  );
}

function ScopeSelect(props: {
  tenants: Tenant[];
  more: boolean;
  values: FormValues;
  failure?: ApiFailure | null;
}) {
  const invalid = props.failure?.param === 'tenant_id';
  const id = fieldId('tenant_id');
  return (
    <div>
      <label for={id}>
        Scope
        {props.more ? <span class="hint">The newest 100 tenants are listed.</span> : null}
      </label>
      <select
        id={id}
        name="tenant_id"
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={invalid ? 'form-error' : undefined}
      >
        <option value="">Global: every tenant</option>
        {props.tenants.map((t) => (
          <option
            value={t.id}
            selected={t.id === props.values.tenant_id}
          >{`Tenant ${t.name} (${t.id})`}</option>
        ))}
      </select>
    </div>
  );
}

export function RoutesPage(props: {
  session: SignedIn;
  routes: Route[];
  health: ReadonlyMap<string, RouteHealth>;
  tenants: Tenant[];
  moreTenants: boolean;
  next: string | null;
  cursor?: string;
  failure?: ApiFailure | null;
  editor?: Editor;
  values?: FormValues;
  notice?: string | null;
}) {
  const editor = props.editor ?? 'form';
  const values: FormValues = props.values ?? {};
  const formFailure = editor === 'form' ? props.failure : null;
  const jsonFailure = editor === 'json' ? props.failure : null;
  const names = new Map(props.tenants.map((t) => [t.id, t.name]));
  const mayCreate = can(props.session.who, 'POST /admin/routes');
  return (
    <>
      <h1>Routes</h1>
      <TopFailure failure={props.failure} action="The route was not created" editor={editor} />
      <Notice text={props.notice} />
      <p class="muted">
        A route is a name clients put in <code>model</code>, served by a strategy over targets: the first that
        answers (fallback) or a weighted draw (loadbalance). A tenant's own route shadows a global one of the
        same name.
      </p>
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
                <th scope="col">Health</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {props.routes.map((r) => {
                const targets = describeTargets(r.spec);
                return (
                  <tr>
                    <th scope="row">
                      <Id value={r.name} href={routePath(r.id)} />
                    </th>
                    <td>
                      {r.tenant_id === null ? (
                        'Global'
                      ) : (
                        <>
                          Tenant <Id value={r.tenant_id} name={names.get(r.tenant_id) ?? null} />
                        </>
                      )}
                    </td>
                    <td>{r.spec.strategy}</td>
                    <td>
                      <span class="id long" title={targets}>
                        {targets}
                      </span>
                    </td>
                    <td>
                      <HealthSummary health={props.health.get(r.id) ?? null} />
                    </td>
                    <td>
                      <Time ms={r.updated_at} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager base="/dashboard/routes" query={{ cursor: props.cursor }} next={props.next} label="Routes" />
      {mayCreate ? (
        <section aria-labelledby="create-route-h">
          <h2 id="create-route-h">Define a route</h2>
          <ActionForm action="/dashboard/routes" session={props.session} class="stack wide">
            <Field
              name="name"
              label="Route name"
              hint='What clients put in model, e.g. smart: letters, digits, ".", "_" and "-", no "/".'
              values={values}
              failure={props.failure}
              required
            />
            <ScopeSelect
              tenants={props.tenants}
              more={props.moreTenants}
              values={values}
              failure={props.failure}
            />
            <RouteSpecFields values={values} failure={formFailure} />
            <SpecJson values={values} failure={jsonFailure} placeholder={EXAMPLE_SPEC} />
            <RouteFormButtons label="Create route" values={values} />
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
  health: RouteHealth | null;
  healthFailure?: ApiFailure | null;
  /** The form's values: the fields, and the JSON editor's `spec` and `spec_was`. */
  values: FormValues;
  failure?: ApiFailure | null;
  /** Which form the failure belongs to. */
  failed?: Editor | 'delete';
  notice?: string | null;
}) {
  const { route, session } = props;
  const edit = props.failed === 'form' ? props.failure : null;
  const editJson = props.failed === 'json' ? props.failure : null;
  const action = props.failed === 'delete' ? 'The route was not deleted' : 'The route was not changed';
  const mayEdit = can(session.who, 'PATCH /admin/routes/{id}');
  return (
    <>
      <p>
        <a href="/dashboard/routes">« All routes</a>
      </p>
      <h1>
        Route <Id value={route.name} />
      </h1>
      <TopFailure
        failure={props.failure}
        action={action}
        editor={props.failed === 'json' ? 'json' : 'form'}
      />
      <Notice text={props.notice} />
      <dl class="facts">
        <dt>ID</dt>
        <dd>
          <Id value={route.id} />
        </dd>
        <dt>Scope</dt>
        <dd>
          {route.tenant_id === null ? (
            'Global: every tenant'
          ) : (
            <Id
              value={route.tenant_id}
              name={props.tenantName}
              href={`/dashboard/tenants/${encodeURIComponent(route.tenant_id)}`}
            />
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
      <section aria-labelledby="health-h">
        <h2 id="health-h">Health</h2>
        {props.health ? (
          <RouteHealthTable health={props.health} />
        ) : (
          <Failure failure={props.healthFailure} action="Health could not be read" />
        )}
      </section>
      {mayEdit ? null : <pre class="scroll">{props.values.spec ?? ''}</pre>}
      {mayEdit ? (
        <section aria-labelledby="edit-route-h">
          <h2 id="edit-route-h">Edit</h2>
          <ActionForm action={routePath(route.id)} session={session} class="stack wide">
            <Field name="name" label="Route name" values={props.values} failure={props.failure} required />
            <RouteSpecFields values={props.values} failure={edit} />
            <SpecJson values={props.values} failure={editJson} />
            <RouteFormButtons label="Save route" values={props.values} />
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
          <ActionForm action={`${routePath(route.id)}/delete`} session={session}>
            <button type="submit" class="danger">
              Delete route <Id value={route.name} />
            </button>
          </ActionForm>
        </section>
      ) : null}
    </>
  );
}
