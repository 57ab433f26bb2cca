/** "Remaining budget at a glance": a tenant's or key's rate windows and budgets, from /admin/limits/…. */
import { fmtInt, fmtNum, fmtUsd } from '../format';
import type { LimitsReport } from '../schemas';

type Report = LimitsReport;
const PERIODS = ['day', 'month', 'total'] as const;

type Unit = 'tokens' | 'usd' | 'requests';
const UNIT_NAMES: Record<Unit, string> = { usd: 'USD', tokens: 'Tokens', requests: 'Requests' };

function amount(unit: Unit, n: number): string {
  return unit === 'usd' ? fmtUsd(n) : fmtInt(n);
}

function Window(props: { label: string; used: number; limit: number | null }) {
  return (
    <div class="card">
      {props.label}
      <b>
        {props.limit === null
          ? `${fmtNum(props.used)} (no limit)`
          : `${fmtNum(props.used)} / ${fmtInt(props.limit)}`}
      </b>
    </div>
  );
}

export function BudgetGlance(props: { report: Report; heading?: string }) {
  const r = props.report;
  const rows = (['usd', 'tokens', 'requests'] as const).flatMap((unit) =>
    PERIODS.map((p) => ({ unit, p, u: r.budget_usage[unit][p] })).filter((x) => x.u.limit !== null),
  );
  return (
    <section aria-labelledby="glance-h">
      <h2 id="glance-h">{props.heading ?? 'Remaining budget'}</h2>
      <div class="cards">
        <Window label="Requests, last minute" used={r.requests.used} limit={r.requests.limit} />
        <Window label="Tokens, last minute" used={r.tokens.used} limit={r.tokens.limit} />
        <Window label="In flight" used={r.concurrent.in_flight} limit={r.concurrent.limit} />
        <div class="card">
          Spent today<b>{fmtUsd(r.budget_usage.usd.day.spent)}</b>
        </div>
        <div class="card">
          Spent this month<b>{fmtUsd(r.budget_usage.usd.month.spent)}</b>
        </div>
      </div>
      {rows.length === 0 ? (
        <p class="muted">
          No budgets set: spending is not capped
          {r.scope === 'key' ? ' for this key (its tenant’s budgets still apply)' : ''}.
        </p>
      ) : (
        <div class="scroll">
          <table>
            <caption>Budgets</caption>
            <thead>
              <tr>
                <th scope="col">Budget</th>
                <th scope="col">Period</th>
                <th scope="col" class="num">
                  Spent
                </th>
                <th scope="col" class="num">
                  Reserved
                </th>
                <th scope="col" class="num">
                  Limit
                </th>
                <th scope="col" class="num">
                  Remaining
                </th>
                <th scope="col">Used</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ unit, p, u }) => {
                const limit = u.limit ?? 0;
                return (
                  <tr>
                    <th scope="row">
                      {UNIT_NAMES[unit]}, per {p === 'total' ? 'all time' : p}
                    </th>
                    <td>{u.period}</td>
                    <td class="num">{amount(unit, u.spent)}</td>
                    <td class="num">{amount(unit, u.reserved)}</td>
                    <td class="num">{amount(unit, limit)}</td>
                    <td class="num">
                      <strong>{amount(unit, u.remaining ?? 0)}</strong>
                    </td>
                    <td>
                      <meter
                        min={0}
                        max={limit}
                        low={limit * 0.75}
                        high={limit * 0.9}
                        optimum={0}
                        value={Math.min(limit, u.spent + u.reserved)}
                        aria-label={`${unit} ${p} used`}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

const RULE_STATUS = {
  ok: 'ok',
  near_limit: 'near limit',
  refusing: 'refusing',
  exhausted: 'exhausted',
} as const;

/** Each model and tag rule of a tenant or key with its status, spend and its tightest budget's remaining share. */
export function RuleStatusTable(props: { report: Report }) {
  const rules = props.report.rules ?? [];
  if (rules.length === 0) return null;
  return (
    <section aria-labelledby="rules-h">
      <h2 id="rules-h">Model and tag rules in force</h2>
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">Status</th>
              <th scope="col" class="num">
                Requests, last minute
              </th>
              <th scope="col" class="num">
                Spent today
              </th>
              <th scope="col" class="num">
                Spent this month
              </th>
              <th scope="col">Last refusal</th>
            </tr>
          </thead>
          <tbody>
            {rules.map((r) => (
              <tr>
                <th scope="row">
                  {r.scope === 'model' ? 'model ' : 'tag '}
                  <code title={r.id}>{r.id}</code>
                </th>
                <td>
                  <span class={`badge ${r.status}`}>{RULE_STATUS[r.status]}</span>
                </td>
                <td class="num">
                  {r.requests.limit === null
                    ? fmtNum(r.requests.used)
                    : `${fmtNum(r.requests.used)} / ${fmtInt(r.requests.limit)}`}
                </td>
                <td class="num">{fmtUsd(r.budget_usage.usd.day.spent)}</td>
                <td class="num">{fmtUsd(r.budget_usage.usd.month.spent)}</td>
                <td>{r.last_denial ? `${r.last_denial.kind} × ${fmtInt(r.last_denial.count)}` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
