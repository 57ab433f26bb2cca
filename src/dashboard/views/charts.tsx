/**
 * Hand-made SVG charts: stacked bars and a line over days, horizontal bars
 * per model. No script, no style attributes (the CSP forbids them): colours
 * come from classes. Each chart is an image with a title and a summary, and
 * each bar or point carries its exact value as a tooltip title; the tables
 * beside the charts hold the same numbers for screen readers. Charts keep their drawn size (between 45 and
 * 60 rem wide, scrolling inside their figure on a narrow screen), so labels stay ~11 px whatever the data:
 * a label too long for its place is cut with an ellipsis and carries its full text as a tooltip.
 */
const W = 720;
const H = 180;
const PAD = { left: 64, right: 8, top: 10, bottom: 22 };

/** How many label characters surely fit in `px` user units at the 11 px label size (wide letters ~8 px). */
const fits = (px: number) => Math.max(3, Math.floor(px / 8));

/** A label cut to `max` characters with an ellipsis (pure). */
export function clip(label: string, max: number): string {
  return label.length > max ? `${label.slice(0, Math.max(1, max - 1))}…` : label;
}

/** An SVG text label, cut to fit, with its full text as a tooltip when cut. */
function Label(props: {
  text: string;
  max: number;
  x: number;
  y: number;
  anchor: 'start' | 'middle' | 'end';
}) {
  const shown = clip(props.text, props.max);
  return (
    <text x={props.x} y={props.y} text-anchor={props.anchor}>
      {shown !== props.text ? <title>{props.text}</title> : null}
      {shown}
    </text>
  );
}

/** The smallest 1·2·5·10ⁿ at or above `max`, so axis labels are round (pure). */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 5, 10]) if (m * p >= max) return m * p;
  return 10 * p;
}

export interface Series {
  name: string;
  values: number[];
  /** Drawn in the second colour. */
  alt?: boolean;
}

interface ChartProps {
  id: string;
  title: string;
  summary: string;
  labels: string[];
  format: (n: number) => string;
}

function Axes(props: { max: number; labels: string[]; format: (n: number) => string }) {
  const plotH = H - PAD.top - PAD.bottom;
  const slot = (W - PAD.left - PAD.right) / Math.max(1, props.labels.length);
  const every = Math.max(1, Math.ceil(props.labels.length / 8));
  return (
    <g aria-hidden="true">
      {[0, 0.5, 1].map((f) => {
        const y = PAD.top + plotH * (1 - f);
        return (
          <>
            <line class="axis" x1={PAD.left} x2={W - PAD.right} y1={y} y2={y} />
            <text x={PAD.left - 6} y={y + 4} text-anchor="end">
              {props.format(props.max * f)}
            </text>
          </>
        );
      })}
      {props.labels.map((l, i) =>
        i % every === 0 ? (
          <Label
            text={l.length === 10 ? l.slice(5) : l}
            max={fits(slot * every)}
            x={PAD.left + slot * (i + 0.5)}
            y={H - 6}
            anchor="middle"
          />
        ) : null,
      )}
    </g>
  );
}

function Figure(props: { id: string; title: string; summary: string; legend?: Series[]; children: unknown }) {
  return (
    <figure>
      <figcaption id={`${props.id}-t`}>{props.title}</figcaption>
      {props.legend && props.legend.length > 1 ? (
        <div class="legend" aria-hidden="true">
          {props.legend.map((s) => (
            <span>
              <span class={s.alt ? 'sw alt' : 'sw'} />
              {s.name}
            </span>
          ))}
        </div>
      ) : null}
      <svg class="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${props.id}-t ${props.id}-d`}>
        <desc id={`${props.id}-d`}>{props.summary}</desc>
        {props.children}
      </svg>
    </figure>
  );
}

/** Stacked vertical bars, one per label; series stack bottom-up in order. */
export function BarChart(props: ChartProps & { series: Series[] }) {
  const totals = props.labels.map((_, i) => props.series.reduce((s, x) => s + (x.values[i] ?? 0), 0));
  const max = niceMax(Math.max(0, ...totals));
  const plotH = H - PAD.top - PAD.bottom;
  const slot = (W - PAD.left - PAD.right) / Math.max(1, props.labels.length);
  return (
    <Figure id={props.id} title={props.title} summary={props.summary} legend={props.series}>
      <Axes max={max} labels={props.labels} format={props.format} />
      {props.labels.map((label, i) => {
        let base = PAD.top + plotH;
        return props.series.map((s) => {
          const v = s.values[i] ?? 0;
          const h = (v / max) * plotH;
          base -= h;
          return v > 0 ? (
            <rect
              class={s.alt ? 'bar alt' : 'bar'}
              x={PAD.left + slot * i + slot * 0.15}
              y={base}
              width={slot * 0.7}
              height={h}
            >
              <title>{`${label}: ${props.format(v)} ${s.name}`}</title>
            </rect>
          ) : null;
        });
      })}
    </Figure>
  );
}

/** A line with a dot per label. */
export function LineChart(props: ChartProps & { values: number[] }) {
  const max = niceMax(Math.max(0, ...props.values));
  const plotH = H - PAD.top - PAD.bottom;
  const slot = (W - PAD.left - PAD.right) / Math.max(1, props.labels.length);
  const pts = props.values.map(
    (v, i) => [PAD.left + slot * (i + 0.5), PAD.top + plotH * (1 - v / max)] as const,
  );
  return (
    <Figure id={props.id} title={props.title} summary={props.summary}>
      <Axes max={max} labels={props.labels} format={props.format} />
      <polyline class="line" points={pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ')} />
      {pts.map(([x, y], i) => (
        <circle class="dot" cx={x} cy={y} r={3}>
          <title>{`${props.labels[i] ?? ''}: ${props.format(props.values[i] ?? 0)}`}</title>
        </circle>
      ))}
    </Figure>
  );
}

/** Horizontal bars, one row per label (models), longest first as given. */
export function HBarChart(props: ChartProps & { values: number[] }) {
  const rowH = 24;
  const left = 220;
  const height = Math.max(1, props.labels.length) * rowH + 8;
  const max = niceMax(Math.max(0, ...props.values));
  return (
    <figure>
      <figcaption id={`${props.id}-t`}>{props.title}</figcaption>
      <svg
        class="chart"
        viewBox={`0 0 ${W} ${height}`}
        role="img"
        aria-labelledby={`${props.id}-t ${props.id}-d`}
      >
        <desc id={`${props.id}-d`}>{props.summary}</desc>
        {props.labels.map((label, i) => {
          const v = props.values[i] ?? 0;
          const w = ((W - left - 90) * v) / max;
          const y = 4 + i * rowH;
          return (
            <>
              <Label text={label} max={fits(left - 12)} x={left - 8} y={y + 15} anchor="end" />
              <rect class="bar" x={left} y={y + 3} width={Math.max(w, v > 0 ? 1 : 0)} height={rowH - 8}>
                <title>{`${label}: ${props.format(v)}`}</title>
              </rect>
              <text x={left + w + 6} y={y + 15}>
                {props.format(v)}
              </text>
            </>
          );
        })}
      </svg>
    </figure>
  );
}
