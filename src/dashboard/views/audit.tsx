/**
 * The audit page: who changed what and when, newest first, each entry's
 * before → after shown as the changed fields only (audit-diff.ts), with
 * filters (tenant, admin, resource) and a pager. A tenant_admin always reads
 * one of its own tenants, so its tenant filter has no "all" choice.
 */
import type { ApiFailure } from '../admin-api';
import { changedFields } from '../audit-diff';
import { AuditEntry } from '../schemas';
import { Badge, Failure, fieldId, Id, Pager, Time } from './parts';

/** Every resource the audit log records (src/storage/audit-log.ts), for its filter. */
export const AUDIT_RESOURCES = AuditEntry.shape.resource.options;

export interface AuditFilters {
  tenant_id?: string;
  actor_id?: string;
  resource?: string;
  cursor?: string;
}

function Select(props: {
  name: keyof AuditFilters;
  label: string;
  value: string | undefined;
  all: string | null;
  options: { value: string; label: string }[];
}) {
  return (
    <div>
      <label for={fieldId(props.name)}>{props.label}</label>
      <select id={fieldId(props.name)} name={props.name}>
        {props.all === null ? null : <option value="">{props.all}</option>}
        {props.options.map((o) => (
          <option value={o.value} selected={o.value === props.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function Changes(props: { entry: AuditEntry }) {
  const changes = changedFields(props.entry.before, props.entry.after);
  if (changes.length === 0) return <span class="muted">no field changed</span>;
  return (
    <ul class="changes">
      {changes.map((ch) => (
        <li>
          <code>{ch.field}</code>: {ch.before === null ? null : <del>{ch.before}</del>}
          {ch.before !== null && ch.after !== null ? ' → ' : null}
          {ch.after === null ? null : <ins>{ch.after}</ins>}
        </li>
      ))}
    </ul>
  );
}

export function AuditPage(props: {
  filters: AuditFilters;
  /** The tenants the admin may filter by; `allTenants` false for a tenant_admin. */
  tenants: { id: string; name: string }[];
  allTenants: boolean;
  /** Admins to filter by, when the signed-in admin may list them; else the filter is a text field. */
  admins: { id: string; name: string }[] | null;
  entries: AuditEntry[] | null;
  next: string | null;
  failure: ApiFailure | null;
}) {
  const f = props.filters;
  return (
    <>
      <h1>Audit log</h1>
      <p class="muted">
        Every change made through the admin API, the dashboard or the CLI, with the admin who made it. Secrets
        are never recorded.
      </p>
      <form method="get" action="/dashboard/audit" class="grid" aria-label="Audit filters">
        <Select
          name="tenant_id"
          label="Tenant"
          value={f.tenant_id}
          all={props.allTenants ? 'All tenants' : null}
          options={props.tenants.map((t) => ({ value: t.id, label: `${t.name} (${t.id})` }))}
        />
        {props.admins ? (
          <Select
            name="actor_id"
            label="Admin"
            value={f.actor_id}
            all="Every admin"
            options={props.admins.map((a) => ({ value: a.id, label: a.name }))}
          />
        ) : (
          <div>
            <label for={fieldId('actor_id')}>Admin id</label>
            <input id={fieldId('actor_id')} name="actor_id" value={f.actor_id ?? ''} autocomplete="off" />
          </div>
        )}
        <Select
          name="resource"
          label="Resource"
          value={f.resource}
          all="Every resource"
          options={AUDIT_RESOURCES.map((r) => ({ value: r, label: r }))}
        />
        <div>
          <button type="submit">Filter</button>
        </div>
      </form>
      <Failure failure={props.failure} action="The audit log could not be read" />
      {props.entries === null ? null : props.entries.length === 0 ? (
        <p>No changes match.</p>
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Operation</th>
                <th scope="col">Resource</th>
                <th scope="col">Change</th>
              </tr>
            </thead>
            <tbody>
              {props.entries.map((e) => (
                <tr>
                  <td>
                    <Time ms={e.at} />
                  </td>
                  <td>
                    <Id value={e.actor.id} name={e.actor.name} max={12} />
                  </td>
                  <td>{e.operation ? <Id value={e.operation} /> : <span class="muted">—</span>}</td>
                  <td>
                    {e.resource} <Id value={e.resource_id} max={12} />
                  </td>
                  <td>
                    <Badge value={e.change} /> <Changes entry={e} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager base="/dashboard/audit" query={{ ...f }} next={props.next} label="Audit" />
    </>
  );
}
