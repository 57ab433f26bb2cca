/**
 * What the guardrails did, as the logs and usage pages show it: a compact
 * badge per verdict in the log list, the verdicts table on a request's page
 * (guardrail, side, action, how many values of which kinds, the injection
 * score, errors; the tool results the injection guardrail fired on, by id,
 * position and score) and the per-day counts under the usage charts. Only kinds,
 * counts and ids exist to show: the log never holds the values a guardrail
 * found, nor the text of a tool result.
 */
import { fmtInt } from '../format';
import type { GuardrailDay, Verdict } from '../schemas';
import { Id } from './parts';

const SIDE: Record<Verdict['direction'], string> = {
  request: 'request',
  response: 'answer',
  tool: 'tool results',
};
/** What the badge adds after the guardrail's name: nothing on the request's user turns. */
const BADGE_SIDE: Record<Verdict['direction'], string> = {
  request: '',
  response: ' (answer)',
  tool: ' (tools)',
};

/** `card ×2, email ×1`, in a stable order. */
export function describeKinds(kinds: Record<string, number>): string {
  const parts = Object.entries(kinds)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, n]) => `${kind} ×${fmtInt(n)}`);
  return parts.length ? parts.join(', ') : '—';
}

/** The log list's cell: one badge per verdict, e.g. `pii redact ×2`, `injection block`. */
export function VerdictBadges(props: { verdicts: readonly Verdict[] }) {
  if (props.verdicts.length === 0) return <span class="muted">—</span>;
  return (
    <>
      {props.verdicts.map((v) => (
        <span
          class={`badge ${v.action}`}
          title={`${v.guardrail} on the ${SIDE[v.direction]}: ${v.action}, ${v.count} found`}
        >
          {`${v.guardrail}${BADGE_SIDE[v.direction]} ${v.action}`}
          {v.count > 1 ? ` ×${fmtInt(v.count)}` : ''}
          {v.error ? ' !' : ''}
        </span>
      ))}
    </>
  );
}

export function VerdictsTable(props: { verdicts: readonly Verdict[] }) {
  return (
    <section aria-labelledby="guardrails-h">
      <h2 id="guardrails-h">Guardrails</h2>
      {props.verdicts.length === 0 ? (
        <p class="muted">No guardrail fired on this request.</p>
      ) : (
        <div class="scroll">
          <table>
            <caption>What each guardrail found and did (kinds and counts only, never the values)</caption>
            <thead>
              <tr>
                <th scope="col">Guardrail</th>
                <th scope="col">On</th>
                <th scope="col">Action</th>
                <th scope="col" class="num">
                  Found
                </th>
                <th scope="col">Kinds</th>
                <th scope="col" class="num">
                  Score
                </th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {props.verdicts.map((v) => (
                <tr>
                  <th scope="row">
                    <Id value={v.guardrail} />
                  </th>
                  <td>{SIDE[v.direction]}</td>
                  <td>
                    <span class={`badge ${v.action}`}>{v.action}</span>
                  </td>
                  <td class="num">{fmtInt(v.count)}</td>
                  <td>{describeKinds(v.kinds)}</td>
                  <td class="num">{v.score === null ? '—' : v.score.toFixed(3)}</td>
                  <td>
                    {v.error ? (
                      <>
                        <Id value={v.error} /> <span class="muted">(let through)</span>
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {props.verdicts
        .filter((v) => v.results && v.results.length > 0)
        .map((v) => (
          <ToolResultsTable verdict={v} />
        ))}
    </section>
  );
}

/** The tool results one verdict fired on: the client's tool call id, the position and the score. */
function ToolResultsTable(props: { verdict: Verdict }) {
  const { verdict } = props;
  const results = verdict.results ?? [];
  const unlisted = verdict.count - results.length;
  return (
    <div class="scroll">
      <table>
        <caption>
          {`Tool results ${PAST[verdict.action] ?? verdict.action} (${fmtInt(verdict.count)}; ids and scores only, never their text)`}
        </caption>
        <thead>
          <tr>
            <th scope="col">Tool call id</th>
            <th scope="col" class="num">
              Position
            </th>
            <th scope="col" class="num">
              Score
            </th>
          </tr>
        </thead>
        <tbody>
          {results.map((r) => (
            <tr>
              <th scope="row">{r.id === null ? <span class="muted">none</span> : <Id value={r.id} />}</th>
              <td class="num">{`#${r.index}`}</td>
              <td class="num">{r.score.toFixed(4)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {unlisted > 0 ? <p class="muted">{`and ${fmtInt(unlisted)} more, not listed`}</p> : null}
    </div>
  );
}

const PAST: Partial<Record<Verdict['action'], string>> = {
  log: 'logged',
  flag: 'flagged',
  quarantine: 'quarantined',
  block: 'blocked',
};

/** Per day and guardrail, newest day first: requests it fired on, blocked, values it redacted. */
export function GuardrailDaysTable(props: { days: readonly GuardrailDay[] }) {
  const rows = [...props.days].sort(
    (a, b) => b.day.localeCompare(a.day) || a.guardrail.localeCompare(b.guardrail),
  );
  const total = (k: 'fired' | 'blocked' | 'redacted') => rows.reduce((n, r) => n + r[k], 0);
  return (
    <section aria-labelledby="guardrail-days-h">
      <h2 id="guardrail-days-h">Guardrails per day</h2>
      {rows.length === 0 ? (
        <p class="muted">No guardrail fired in this range.</p>
      ) : (
        <div class="scroll">
          <table>
            <caption>{`Guardrails: ${fmtInt(total('fired'))} requests fired on, ${fmtInt(total('blocked'))} blocked, ${fmtInt(total('redacted'))} values redacted`}</caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col">Guardrail</th>
                <th scope="col" class="num">
                  Fired
                </th>
                <th scope="col" class="num">
                  Blocked
                </th>
                <th scope="col" class="num">
                  Redacted
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr>
                  <th scope="row">{r.day}</th>
                  <td>
                    <Id value={r.guardrail} />
                  </td>
                  <td class="num">{fmtInt(r.fired)}</td>
                  <td class="num">{fmtInt(r.blocked)}</td>
                  <td class="num">{fmtInt(r.redacted)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
