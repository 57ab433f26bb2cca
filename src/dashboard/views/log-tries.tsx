/**
 * A request's upstream calls on the logs pages: the route it called (list cell) and the table of its
 * attempts (detail), saying which one answered. Requests without a route or calls render nothing extra.
 */
import type { LogTryEntry as Try } from '../../logs/read/logs';
import { fmtMs } from '../format';
import { Id } from './parts';

/** The call whose answer the client got: the last one without an error (null when every call failed). */
export function answeredIndex(tries: readonly Try[]): number | null {
  for (let i = tries.length - 1; i >= 0; i--) if (tries[i]?.error === null) return i;
  return null;
}

/** The list's model cell for a request that called a named route: its name, a badge, the target that answered. */
export function RouteCell(props: { route: string; tries: readonly Try[] }) {
  const i = answeredIndex(props.tries);
  return (
    <>
      <Id value={props.route} max={12} /> <span class="badge">route</span>
      {i === null ? null : (
        <>
          {' → '}
          <Id value={props.tries[i]?.target ?? ''} max={14} />
        </>
      )}
    </>
  );
}

/** Every upstream call, in order: target, status, time to first byte, and how it ended. */
export function TriesTable(props: { tries: readonly Try[] }) {
  if (props.tries.length === 0) return null;
  const answered = answeredIndex(props.tries);
  return (
    <section aria-labelledby="tries-h">
      <h2 id="tries-h">Attempts</h2>
      <div class="scroll">
        <table>
          <caption>
            Upstream calls, in order
            {answered === null ? ' (none answered)' : `; call ${answered + 1} answered`}
          </caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Target</th>
              <th scope="col" class="num">
                Status
              </th>
              <th scope="col" class="num">
                Time to first byte
              </th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {props.tries.map((t, i) => (
              <tr>
                <th scope="row">{i + 1}</th>
                <td>
                  <Id value={t.target} />
                </td>
                <td class="num">{t.status === 0 ? <span class="muted">none</span> : t.status}</td>
                <td class="num">{fmtMs(Math.round(t.ttfb_ms))}</td>
                <td>
                  {i === answered ? (
                    <span class="badge ok">answered</span>
                  ) : t.error ? (
                    <>
                      <span class="badge error">failed</span> <Id value={t.error} />
                    </>
                  ) : (
                    <span class="muted">superseded</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
