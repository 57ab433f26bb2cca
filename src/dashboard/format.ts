/** How the dashboard writes numbers, money and times (pure). Times are UTC, said so on the page. */

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const dec = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export function fmtInt(n: number): string {
  return int.format(n);
}

export function fmtNum(n: number): string {
  return dec.format(n);
}

/** Dollars with enough decimals that small per-request costs do not read as zero. */
export function fmtUsd(n: number): string {
  if (n === 0) return '$0';
  const abs = Math.abs(n);
  const digits = abs >= 100 ? 2 : abs >= 1 ? 2 : abs >= 0.01 ? 4 : 6;
  return `$${n.toFixed(digits)}`;
}

/** Compact axis labels: 1.2k, 3.4M. */
export function fmtCompact(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${dec.format(n / 1e9)}B`;
  if (abs >= 1e6) return `${dec.format(n / 1e6)}M`;
  if (abs >= 1e3) return `${dec.format(n / 1e3)}k`;
  return dec.format(n);
}

export function fmtTime(ms: number | null): string {
  if (ms === null) return '—';
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function fmtMs(ms: number | null): string {
  return ms === null ? '—' : `${fmtInt(ms)} ms`;
}

export function fmtPercent(part: number, whole: number): string {
  return whole === 0 ? '—' : `${dec.format((part / whole) * 100)} %`;
}
