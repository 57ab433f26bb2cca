/**
 * A hand-made SVG chart of latency (p50 solid, p99 dashed; log scale) against
 * the offered request rate, one colour per target, from every open-loop run of
 * the bench (fixed rates and the capacity search's steps). Runs that did not
 * sustain their rate are hollow dots: past the knee the latency of the replies
 * that did arrive says little, errors and the achieved rate say the rest.
 */

const COLORS = { direct: '#6b7280', floor: '#2563eb', 'floor-relay': '#16a34a', edgeway: '#ea580c' };
const W = 760;
const H = 440;
const M = { left: 78, right: 150, top: 36, bottom: 52 };

/** Open-loop points per target: [{ rate, p50, p99 }] sorted by rate (the later run wins a tie). */
export function chartSeries(results) {
  const byTarget = {};
  const add = (target, { targetRps, p50, p99 }, ok) => {
    if (!Number.isFinite(p50) || !Number.isFinite(p99)) return;
    byTarget[target] ??= new Map();
    byTarget[target].set(targetRps, { rate: targetRps, p50, p99, ok });
  };
  for (const row of results.rates ?? []) add(row.target, row, row.sustained);
  for (const [target, c] of Object.entries(results.capacity ?? {}))
    for (const h of c.history) add(target, { ...h, targetRps: h.level }, h.pass);
  return Object.fromEntries(
    Object.entries(byTarget).map(([t, m]) => [t, [...m.values()].sort((a, b) => a.rate - b.rate)]),
  );
}

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function latencyChart(results) {
  const series = chartSeries(results);
  const points = Object.values(series).flat();
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const head = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, sans-serif" font-size="12">`;
  const title = `<text x="${M.left}" y="22" font-size="14" font-weight="600">Latency vs offered rate (mock ${results.meta.mock.latencyMs} ms; p50 solid, p99 dashed)</text>`;
  if (points.length === 0)
    return `${head}<rect width="${W}" height="${H}" fill="white"/>${title}<text x="${M.left}" y="${H / 2}">No open-loop runs in this report.</text></svg>\n`;

  const xMax = niceCeil(Math.max(...points.map((p) => p.rate)));
  const yMin = 10 ** Math.floor(Math.log10(Math.max(0.1, Math.min(...points.map((p) => p.p50)))));
  const yMax = 10 ** Math.ceil(Math.log10(Math.max(...points.map((p) => p.p99))));
  const x = (v) => M.left + (v / xMax) * pw;
  const y = (v) =>
    M.top +
    ph -
    ((Math.log10(Math.max(v, yMin)) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * ph;

  const parts = [head, `<rect width="${W}" height="${H}" fill="white"/>`, title];
  for (let d = yMin; d <= yMax; d *= 10) {
    parts.push(`<line x1="${M.left}" x2="${M.left + pw}" y1="${y(d)}" y2="${y(d)}" stroke="#e5e7eb"/>`);
    parts.push(
      `<text x="${M.left - 6}" y="${y(d) + 4}" text-anchor="end">${d >= 1 ? d : d.toFixed(1)} ms</text>`,
    );
  }
  for (let i = 0; i <= 5; i++) {
    const v = (xMax * i) / 5;
    parts.push(`<line x1="${x(v)}" x2="${x(v)}" y1="${M.top}" y2="${M.top + ph}" stroke="#f3f4f6"/>`);
    parts.push(`<text x="${x(v)}" y="${M.top + ph + 18}" text-anchor="middle">${Math.round(v)}</text>`);
  }
  parts.push(
    `<text x="${M.left + pw / 2}" y="${H - 12}" text-anchor="middle">offered rate (requests/s)</text>`,
  );
  if (yMax >= 1000) {
    parts.push(
      `<line x1="${M.left}" x2="${M.left + pw}" y1="${y(1000)}" y2="${y(1000)}" stroke="#dc2626" stroke-dasharray="2 3"/>`,
    );
    parts.push(
      `<text x="${M.left + pw - 4}" y="${y(1000) - 4}" text-anchor="end" fill="#dc2626">p99 bound for "sustained"</text>`,
    );
  }
  parts.push(`<rect x="${M.left}" y="${M.top}" width="${pw}" height="${ph}" fill="none" stroke="#9ca3af"/>`);

  let legendY = M.top + 10;
  for (const [name, pts] of Object.entries(series)) {
    const color = COLORS[name] ?? '#111827';
    for (const [field, dash] of [
      ['p50', ''],
      ['p99', ' stroke-dasharray="6 4"'],
    ]) {
      const d = pts
        .map((p, i) => `${i ? 'L' : 'M'}${x(p.rate).toFixed(1)},${y(p[field]).toFixed(1)}`)
        .join(' ');
      parts.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2"${dash}/>`);
      for (const p of pts)
        parts.push(
          `<circle cx="${x(p.rate).toFixed(1)}" cy="${y(p[field]).toFixed(1)}" r="3" fill="${p.ok ? color : 'white'}" stroke="${color}"/>`,
        );
    }
    parts.push(
      `<line x1="${W - M.right + 14}" x2="${W - M.right + 38}" y1="${legendY}" y2="${legendY}" stroke="${color}" stroke-width="3"/>`,
    );
    parts.push(`<text x="${W - M.right + 44}" y="${legendY + 4}">${esc(name)}</text>`);
    legendY += 20;
  }
  parts.push(`<text x="${W - M.right + 14}" y="${legendY + 8}" fill="#6b7280">hollow: rate not</text>`);
  parts.push(`<text x="${W - M.right + 14}" y="${legendY + 22}" fill="#6b7280">sustained</text>`);
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

/** The smallest of 1, 1.5, 2, 3, 4, 5, 6, 8 or 10 times a power of ten that is at least v. */
export function niceCeil(v) {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 1.5, 2, 3, 4, 5, 6, 8, 10].map((m) => m * p).find((c) => c >= v);
}
