/**
 * A tenant's fired budget alerts: which budget (its own or a key's) reached which threshold in which
 * period, when, and whether it has left for the webhook yet. Read from GET /admin/tenants/:id/alerts.
 */
import { fmtNum, fmtUsd } from '../format';
import type { FiredAlert } from '../schemas';
import { Time } from './parts';

const amount = (a: FiredAlert, v: number) => (a.budget.startsWith('usd_') ? fmtUsd(v) : fmtNum(v));

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
        {tenant.alert_webhook ? <code>{tenant.alert_webhook}</code> : 'none (alerts are only listed)'}. Each
        threshold fires once per budget and period; keys may set their own.
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
                <th scope="col">Threshold</th>
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
                      <a href={`/dashboard/keys/${encodeURIComponent(a.key_id)}`}>{a.key_id}</a>
                    ) : (
                      'tenant'
                    )}
                  </td>
                  <td>
                    <code>{a.budget}</code>
                  </td>
                  <td>{a.period}</td>
                  <th scope="row">{a.threshold} %</th>
                  <td>
                    {amount(a, a.spent)} / {amount(a, a.limit)}
                  </td>
                  <td>{a.queued ? 'queued for the webhook' : 'waiting to be queued'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
