/**
 * The providers page: each provider this deployment knows, whether its own
 * configuration makes it usable, whether tenants may bring their own key for
 * it and how many do. Secrets are named nowhere: configuring them is a deploy
 * step (README, "Models and providers").
 */
import type { ApiFailure } from '../admin-api';
import type { ProviderInfo } from '../schemas';
import { Failure } from './parts';

export function ProvidersPage(props: { providers: ProviderInfo[] | null; failure: ApiFailure | null }) {
  return (
    <>
      <h1>Providers</h1>
      <p class="muted">
        A provider is usable once its key or binding is set on the deployment, or, for one tenant, once that
        tenant stores its own key (on the tenant's page). Any client reaches any provider: requests are
        translated between wire formats where they differ.
      </p>
      <Failure failure={props.failure} action="The providers could not be listed" />
      {props.providers ? (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Deployment</th>
                <th scope="col">Tenants' own keys</th>
                <th scope="col">Own models</th>
              </tr>
            </thead>
            <tbody>
              {props.providers.map((p) => (
                <tr>
                  <th scope="row">
                    <code>{p.id}</code>
                  </th>
                  <td>
                    <span class={`badge ${p.configured ? 'ok' : 'disabled'}`}>
                      {p.configured ? (p.keyless ? 'no key needed' : 'configured') : 'not configured'}
                    </span>
                  </td>
                  <td>{p.accepts_tenant_keys ? `${p.tenants_with_own_key} tenant(s)` : 'not accepted'}</td>
                  <td>{p.models.length > 0 ? p.models.length : '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
