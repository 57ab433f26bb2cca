/**
 * A route's health on its page (GET /admin/routes/{id}/health): one row per
 * target with its status badge (open, half-open and failing are unhealthy),
 * its breakers (state, since when, failures in the window), and its requests
 * and fallback rate over the last hour and 24 h; a note when the log read was
 * partial. The routes list shows the worst status per route (breakers only).
 */
import type { RouteHealth } from '../../admin/resources/route-health';
import { Badge, Id, Time } from './parts';

type Target = RouteHealth['targets'][number];

const pct = (rate: number | null | undefined) => (rate == null ? '–' : `${Math.round(rate * 100)} %`);

/** The route's worst status and how many targets are unhealthy, for the list. */
export function HealthSummary(props: { health: RouteHealth | null }) {
  const h = props.health;
  if (!h) return <span class="muted">unknown</span>;
  return (
    <>
      <Badge value={h.status} />
      {h.unhealthy > 0 ? <span class="muted">{` ${h.unhealthy} unhealthy`}</span> : null}
    </>
  );
}

function Breakers(props: { target: Target }) {
  const t = props.target;
  if (t.kind === 'route') return <span class="muted">see that route</span>;
  if (t.breakers.length === 0)
    return <span class="muted">{t.breaker_unavailable ? 'unavailable' : '–'}</span>;
  return (
    <>
      {t.breakers.map((b) => (
        <div>
          {`${b.state}${b.scope === 'tenant' ? " (tenant's key)" : ''}`}
          {b.since !== null ? (
            <>
              {' since '}
              <Time ms={b.since} />
            </>
          ) : null}
          {b.state === 'closed' ? (
            <span class="muted">{` · ${b.window_failures}/${b.window_calls} failed in 30 s`}</span>
          ) : (
            <span class="muted">{` · ${Math.round(b.recent_failures)} recent failures`}</span>
          )}
        </div>
      ))}
    </>
  );
}

export function RouteHealthTable(props: { health: RouteHealth }) {
  const h = props.health;
  const traffic = h.traffic;
  return (
    <>
      <p>
        <Badge value={h.status} />{' '}
        {h.unhealthy > 0
          ? `${h.unhealthy} of ${h.targets.length} targets unhealthy.`
          : 'No target is unhealthy.'}{' '}
        {traffic
          ? `${traffic.requests.last_hour} requests in the last hour (${traffic.fell_back.last_hour} fell back), ${traffic.requests.last_24h} in 24 h (${traffic.fell_back.last_24h} fell back).`
          : null}
      </p>
      {traffic?.truncated ? (
        <p class="alert warn">
          More than {traffic.limit} requests in 24 h: the figures cover the newest {traffic.rows}, since{' '}
          <Time ms={traffic.oldest} />.
        </p>
      ) : null}
      <div class="scroll">
        <table class="health">
          <thead>
            <tr>
              <th scope="col">Target</th>
              <th scope="col">Status</th>
              <th scope="col">Breaker</th>
              <th scope="col" class="num">
                Requests 1 h
              </th>
              <th scope="col" class="num">
                Fallback 1 h
              </th>
              <th scope="col" class="num">
                Requests 24 h
              </th>
              <th scope="col" class="num">
                Fallback 24 h
              </th>
            </tr>
          </thead>
          <tbody>
            {h.targets.map((t) => (
              <tr class={t.unhealthy ? 'unhealthy' : undefined} data-target={t.model}>
                <th scope="row">
                  <Id value={t.model} />
                  {t.kind === 'route' ? <span class="hint">a route</span> : null}
                  {t.in_spec ? null : (
                    <span class="hint">not in the spec (a nested route's, or removed)</span>
                  )}
                </th>
                <td>
                  <Badge value={t.status} />
                </td>
                <td class="breaker">
                  <Breakers target={t} />
                </td>
                <td class="num">{t.last_hour?.requests ?? '–'}</td>
                <td class="num">{pct(t.last_hour?.fallback_rate)}</td>
                <td class="num">{t.last_24h?.requests ?? '–'}</td>
                <td class="num">{pct(t.last_24h?.fallback_rate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="hint">
        Breakers are the shared ones each target's calls count toward (one per target, and per tenant for
        calls with a tenant's own key). Fallback rate: the share of the requests that reached a target which
        it did not serve. Read from at most {traffic?.limit ?? 'the newest'} logged requests of the last 24 h.
      </p>
    </>
  );
}
