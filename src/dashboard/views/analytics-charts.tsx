/**
 * The analytics page's time series: requests, error rate, errors by status class and by source, cache hit
 * rate, cost and tokens, one point per step of the chosen range (every step, zeros included, so the x axis
 * always spans the whole range with bars of one width), and the same numbers as a table.
 */
import { fmtCompact, fmtInt, fmtNum, fmtPercent, fmtUsd } from '../format';
import type { AnalyticsReport } from '../schemas';
import { BarChart, LineChart } from './charts';

type Point = AnalyticsReport['series'][number];

const DAY = 86_400_000;

/** An x-axis label: the time of day within a day's range, the day and hour beyond it; UTC (pure). */
export function stepLabel(start: number, spanMs: number): string {
  const iso = new Date(start).toISOString();
  return spanMs <= DAY ? iso.slice(11, 16) : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
}

const ratio = (part: number, whole: number) => (whole > 0 ? (100 * part) / whole : 0);
const pct = (n: number) => `${fmtNum(n)} %`;

export function SeriesCharts(props: { report: AnalyticsReport }) {
  const r = props.report;
  const t = r.totals;
  const span = r.to - r.from;
  const points = r.series;
  const labels = points.map((p) => stepLabel(p.start, span));
  const of = (f: (p: Point) => number) => points.map(f);
  return (
    <>
      <BarChart
        id="c-req"
        title="Requests"
        summary={`${fmtInt(t.requests)} requests, ${fmtInt(t.errors)} of them errors.`}
        labels={labels}
        format={fmtCompact}
        series={[
          { name: 'ok', values: of((p) => p.requests - p.errors) },
          { name: 'errors', values: of((p) => p.errors), alt: true },
        ]}
      />
      <LineChart
        id="c-err-rate"
        title="Error rate (%)"
        summary={`${fmtPercent(t.errors, t.requests)} of requests failed.`}
        labels={labels}
        format={pct}
        values={of((p) => ratio(p.errors, p.requests))}
      />
      <BarChart
        id="c-err-class"
        title="Errors by status class"
        summary={`${fmtInt(t.status_4xx)} 4xx, ${fmtInt(t.status_5xx)} 5xx; ${fmtInt(t.stream_errors)} streams failed after their 200 (in the table).`}
        labels={labels}
        format={fmtCompact}
        series={[
          { name: '4xx', values: of((p) => p.status_4xx) },
          { name: '5xx', values: of((p) => p.status_5xx), alt: true },
        ]}
      />
      <BarChart
        id="c-err-source"
        title="Errors by source"
        summary={`${fmtInt(t.err_gateway)} from the gateway (${fmtInt(t.denials)} limit or budget denials), ${fmtInt(t.err_provider)} from providers; ${fmtInt(t.err_client)} clients went away (in the table).`}
        labels={labels}
        format={fmtCompact}
        series={[
          { name: 'gateway', values: of((p) => p.err_gateway) },
          { name: 'provider', values: of((p) => p.err_provider), alt: true },
        ]}
      />
      <LineChart
        id="c-hit-rate"
        title="Cache hit rate (%)"
        summary={`${fmtPercent(t.cache_hits, t.requests)} of requests were answered from the cache, saving ${fmtUsd(t.saved_usd)}.`}
        labels={labels}
        format={pct}
        values={of((p) => ratio(p.cache_hits, p.requests))}
      />
      <BarChart
        id="c-cost"
        title="Cost (USD)"
        summary={`${fmtUsd(t.cost_usd)} in total.`}
        labels={labels}
        format={fmtUsd}
        series={[{ name: 'cost', values: of((p) => p.cost_usd) }]}
      />
      <BarChart
        id="c-tokens"
        title="Tokens"
        summary={`${fmtInt(t.input_tokens)} input and ${fmtInt(t.output_tokens)} output tokens.`}
        labels={labels}
        format={fmtCompact}
        series={[
          { name: 'input', values: of((p) => p.input_tokens) },
          { name: 'output', values: of((p) => p.output_tokens), alt: true },
        ]}
      />
      <details>
        <summary>Per step, as a table</summary>
        <div class="scroll">
          <table>
            <caption>Requests and errors per step (UTC)</caption>
            <thead>
              <tr>
                <th scope="col">Start</th>
                {[
                  'Requests',
                  '4xx',
                  '5xx',
                  'Stream',
                  'Gateway',
                  'Provider',
                  'Client',
                  'Denials',
                  'Cache hits',
                  'Cost',
                ].map((h) => (
                  <th scope="col" class="num">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {[...points]
                .reverse()
                .filter((p) => p.requests > 0)
                .map((p) => (
                  <tr>
                    <th scope="row">{stepLabel(p.start, span)}</th>
                    {[
                      p.requests,
                      p.status_4xx,
                      p.status_5xx,
                      p.stream_errors,
                      p.err_gateway,
                      p.err_provider,
                      p.err_client,
                      p.denials,
                      p.cache_hits,
                    ].map((n) => (
                      <td class="num">{fmtInt(n)}</td>
                    ))}
                    <td class="num">{fmtUsd(p.cost_usd)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}
