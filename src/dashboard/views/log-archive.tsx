/**
 * The logs page's ways past the recent index: find one request by id (the
 * archive needs its tenant, so the box sends the tenant picked) and export a
 * tenant's raw logs for a time range as NDJSON. Each form is shown only when
 * the signed-in admin's role allows the call behind it.
 */
import type { Tenant } from '../schemas';

export const FIND_PATH = '/dashboard/logs/find';
export const EXPORT_PATH = '/dashboard/logs/export';

function TenantSelect(props: { id: string; tenants: Tenant[]; picked: string | undefined; any: string }) {
  return (
    <select id={props.id} name="tenant_id">
      <option value="">{props.any}</option>
      {props.tenants.map((t) => (
        <option value={t.id} selected={t.id === props.picked}>
          {t.name}
        </option>
      ))}
    </select>
  );
}

/** One request by its id; the tenant picked goes with it so an archived request is found too. */
export function FindRequestForm(props: {
  tenants: Tenant[];
  tenantId: string | undefined;
  requestId?: string;
}) {
  return (
    <form method="get" action={FIND_PATH} class="grid" aria-label="Find a request">
      <div>
        <label for="find-id">
          Request id<span class="hint">its x-edgeway-request-id</span>
        </label>
        <input id="find-id" name="request_id" value={props.requestId ?? ''} required autocomplete="off" />
      </div>
      <div>
        <label for="find-tenant">
          Tenant<span class="hint">needed for requests older than a few days</span>
        </label>
        <TenantSelect id="find-tenant" tenants={props.tenants} picked={props.tenantId} any="Any tenant" />
      </div>
      <div class="actions">
        <button type="submit">Find</button>
      </div>
    </form>
  );
}

/** A tenant's raw logs for a range, streamed from the archive as a download (times read as UTC). */
export function ExportForm(props: { tenants: Tenant[]; tenantId: string | undefined }) {
  return (
    <form method="get" action={EXPORT_PATH} class="grid" aria-label="Export logs">
      <div>
        <label for="export-tenant">Tenant</label>
        <TenantSelect
          id="export-tenant"
          tenants={props.tenants}
          picked={props.tenantId}
          any="Pick a tenant"
        />
      </div>
      <div>
        <label for="export-from">From (UTC)</label>
        <input id="export-from" name="from" type="datetime-local" required />
      </div>
      <div>
        <label for="export-to">
          To (UTC)<span class="hint">default now</span>
        </label>
        <input id="export-to" name="to" type="datetime-local" />
      </div>
      <div class="actions">
        <button type="submit">Export NDJSON</button>
      </div>
    </form>
  );
}

/** The archive section of the logs page: the forms the admin may use, or nothing. */
export function LogArchiveForms(props: {
  tenants: Tenant[];
  tenantId: string | undefined;
  find: boolean;
  exports: boolean;
}) {
  if (!props.find && !props.exports) return null;
  return (
    <section aria-labelledby="archive-h">
      <h2 id="archive-h">Older requests</h2>
      <p class="muted">
        The table shows the last few days. Older requests are kept in the archive: find one by its id, or
        export a tenant's requests for a time range.
      </p>
      {props.find ? <FindRequestForm tenants={props.tenants} tenantId={props.tenantId} /> : null}
      {props.exports ? <ExportForm tenants={props.tenants} tenantId={props.tenantId} /> : null}
    </section>
  );
}

/** The API could not look in the archive without a tenant: say so, and ask for one. */
export function TenantNeededPage(props: { requestId: string; tenants: Tenant[] }) {
  return (
    <>
      <p>
        <a href="/dashboard/logs">« Logs</a>
      </p>
      <h1>
        Request <code>{props.requestId}</code>
      </h1>
      <div class="alert warn" role="alert">
        This request is not in the recent index. Pick its tenant to look for it in the archive.
      </div>
      <FindRequestForm tenants={props.tenants} tenantId={undefined} requestId={props.requestId} />
    </>
  );
}
