/**
 * A tenant's fired budget alerts: which budget (its own or a key's) reached which threshold, or
 * started refusing requests, in which period, when, and where its webhook delivery stands (waiting
 * to be queued, queued, delivered, retrying with the next attempt's time, or failed with the last
 * error). Read from GET /admin/tenants/:id/alerts.
 */
import { fmtNum, fmtUsd } from '../format';
import type { FiredAlert } from '../schemas';
import { Id, Time } from './parts';

const amount = (a: FiredAlert, v: number) => (a.budget.startsWith('usd_') ? fmtUsd(v) : fmtNum(v));

/** Where an alert's webhook delivery stands, in words. */
export function DeliveryState(props: { alert: FiredAlert; webhook: boolean }) {
  const { alert } = props;
  const d = alert.delivery;
  if (!alert.queued) return <span class="muted">waiting to be queued</span>;
  if (!d)
    return <span class="muted">{props.webhook ? 'queued for the webhook' : 'not sent: no webhook'}</span>;
  const tries = `${d.attempts} ${d.attempts === 1 ? 'attempt' : 'attempts'}`;
  if (d.status === 'delivered')
    return (
      <>
        <span class="badge delivered">delivered</span> <Time ms={d.delivered_at} />{' '}
        <span class="muted">({tries})</span>
      </>
    );
  if (d.status === 'retrying')
    return (
      <>
        <span class="badge retrying">retrying</span> {tries}, last: <code>{d.last_error}</code>; next{' '}
        <Time ms={d.next_attempt_at} />
      </>
    );
  return (
    <>
      <span class="badge failed">failed</span> after {tries}: <code>{d.last_error}</code>
    </>
  );
}

export function AlertsPage(props: {
  tenant: { id: string; name: string; alert_webhook: string | null; alerts: { thresholds: number[] } };
  alerts: FiredAlert[];
}) {
  const { tenant, alerts } = props;
  const thresholds = tenant.alerts.thresholds;
  return (
    <>
      <p>
        <a href={`/dashboard/tenants/${encodeURIComponent(tenant.id)}`}>« {tenant.name}</a>
      </p>
      <h1>Budget alerts</h1>
      <p class="muted">
        Tenant thresholds: {thresholds.length > 0 ? thresholds.map((t) => `${t} %`).join(', ') : 'none'}
        {' · '}webhook:{' '}
        {tenant.alert_webhook ? <Id value={tenant.alert_webhook} /> : 'none (alerts are only listed)'}. Each
        threshold fires once per budget and period; keys may set their own. A budget's first refused request
        of a period fires a "refusing" alert, thresholds or not.
      </p>
      {alerts.length === 0 ? (
        <p>No alert has fired.</p>
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Fired</th>
                <th scope="col">Scope</th>
                <th scope="col">Budget</th>
                <th scope="col">Period</th>
                <th scope="col">Alert</th>
                <th scope="col">Spent / limit</th>
                <th scope="col">Delivery</th>
              </tr>
            </thead>
            <tbody>
              {alerts.map((a) => (
                <tr>
                  <td>
                    <Time ms={Date.parse(a.fired_at)} />
                  </td>
                  <td>
                    {a.key_id ? (
                      <Id value={a.key_id} href={`/dashboard/keys/${encodeURIComponent(a.key_id)}`} />
                    ) : (
                      a.scope
                    )}
                    {a.scope_id ? (
                      <>
                        {' '}
                        {a.scope} <Id value={a.scope_id} />
                      </>
                    ) : null}
                  </td>
                  <td>
                    <code>{a.budget}</code>
                  </td>
                  <td>{a.period}</td>
                  <th scope="row">
                    {a.threshold === null ? <span class="badge refusing">refusing</span> : `${a.threshold} %`}
                  </th>
                  <td>
                    {amount(a, a.spent)} / {amount(a, a.limit)}
                  </td>
                  <td>
                    <DeliveryState alert={a} webhook={tenant.alert_webhook !== null} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
