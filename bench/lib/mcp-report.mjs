/**
 * The MCP section of the bench report (bench/lib/report.mjs and bench/mcp.mjs call it): per client
 * harness and concurrency, one table of the targets (p50/p99 of a tools/call, calls per second, the
 * workerd processes' CPU per call) and one of the differences within each repeat (gateway − direct),
 * median and min…max across repeats; then whether the governed key's limits and guardrails engaged.
 */
import { MCP_PAIRS } from './workloads/mcp.mjs';

const ms = (v) => {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  return a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : v.toFixed(2);
};
const signed = (v) => (Number.isFinite(v) && v >= 0 ? `+${ms(v)}` : ms(v));
/** "median (min…max)" of an acrossRuns value. */
const spread = (r, fmt = ms) =>
  !r || !Number.isFinite(r.median)
    ? '–'
    : r.runs > 1
      ? `${fmt(r.median)} (${fmt(r.min)}…${fmt(r.max)})`
      : fmt(r.median);
const int = (r) => (r && Number.isFinite(r.median) ? String(Math.round(r.median)) : '–');
const row = (cells) => `| ${cells.join(' | ')} |`;
const table = (header, rows) => [row(header), row(header.map(() => '---')), ...rows.map(row)].join('\n');

const HARNESS_LABEL = {
  sdk: 'official SDK client (`@modelcontextprotocol/sdk` Client, StreamableHTTPClientTransport)',
  raw: 'raw JSON-RPC POSTs (hand-built, session id reused)',
};

/** The tables of one harness at one concurrency. */
export function mcpTables(run) {
  const targets = Object.entries(run.perTarget).map(([, t]) => [
    t.label,
    spread(t.latencyMs.p50),
    spread(t.latencyMs.p99),
    int(t.callsPerSecond),
    spread(t.cpuMsPerCall.gateway),
    spread(t.cpuMsPerCall.mock),
    `${t.errors}/${t.requests}`,
  ]);
  const added = MCP_PAIRS.filter(([a, b]) => run.added[`${a} − ${b}`]).map(([a, b]) => {
    const d = run.added[`${a} − ${b}`];
    return [
      `${run.perTarget[a].label} − ${run.perTarget[b].label}`,
      spread(d.p50, signed),
      spread(d.p99, signed),
    ];
  });
  return [
    table(
      ['target', 'p50 ms', 'p99 ms', 'calls/s', 'gateway CPU ms/call', 'mock CPU ms/call', 'errors'],
      targets,
    ),
    '',
    table(['added, within each repeat', 'p50 ms', 'p99 ms'], added),
  ].join('\n');
}

/** The engagement lines: the governed key's limits counted every call, its guardrails redacted. */
export function mcpChecksLines(checks) {
  if (!checks) return [];
  const lines = [];
  const l = checks.limits;
  if (l)
    lines.push(
      l.counted === null
        ? `- Tool-call limits: the Limiter's count could not be read (${l.error ?? 'unknown'}).`
        : `- Tool-call limits engaged: the key's Limiter counted ${l.counted} calls today against ${l.sent} ` +
            `answered (${l.counted === l.sent ? 'exact' : 'NOT EXACT'}).`,
    );
  const g = checks.guardrails;
  if (g)
    lines.push(
      `- Guardrails engaged: an echo carrying an e-mail address and an AWS key id came back ` +
        `${g.governedRedacted ? 'redacted' : 'NOT REDACTED'} through the governed key` +
        ` and ${g.plainIntact ? 'unchanged' : 'CHANGED'} through the plain key.`,
    );
  return lines;
}

export function mcpSection(m) {
  const parts = [
    `## MCP: tools/call through the gateway (${m.repeats} × ${m.requestsPerRun} calls per target and run)`,
    '',
    `\`echo\` of a ${m.argBytes}-byte benign paragraph: the mock's /mcp/healthy directly, and through /mcp ` +
      `with a plain key and with a governed key (${m.governedLabel ?? 'tool-call limits and guardrails'}). ` +
      `Sessions opened and warmed up (${m.warmup} calls per target) first; added latency within each repeat, ` +
      'median (min…max) across repeats. CPU: the OS time of each workerd process per call.',
  ];
  for (const [h, byC] of Object.entries(m.harnesses)) {
    for (const [c, run] of Object.entries(byC)) {
      parts.push(
        '',
        `### ${HARNESS_LABEL[h] ?? h}, ${c} session${Number(c) === 1 ? '' : 's'} per target` +
          `${Number(c) === 1 ? ' (calls back to back)' : ' in parallel'}`,
        '',
        mcpTables(run),
      );
    }
  }
  const checks = mcpChecksLines(m.checks);
  if (checks.length) parts.push('', ...checks);
  if (m.profiles) parts.push('', mcpProfileLines(m.profiles));
  return parts.join('\n');
}

/** The CPU profiles' tables: busy ms per call, and the modules with the most self time (≥ 2 % of busy). */
export function mcpProfileLines(profiles) {
  const parts = ['### CPU profile of the gateway isolate (raw client, one session, calls back to back)'];
  for (const p of Object.values(profiles)) {
    const rows = p.modules
      .filter((x) => x.pctOfBusy >= 2)
      .slice(0, 15)
      .map((x) => [x.name, (x.ms / p.requests).toFixed(3), `${x.pctOfBusy.toFixed(1)} %`]);
    parts.push(
      '',
      `${p.label}: ${p.requests} calls, ${p.busyMsPerRequest.toFixed(2)} ms busy per call (sampled; read shares as indications).`,
      '',
      table(['module', 'self ms/call', 'share of busy'], rows),
      '',
      `Runtime calls (charged to the module that made them): ${p.natives
        .slice(0, 6)
        .map((x) => `${x.name} ${(x.ms / p.requests).toFixed(3)} ms/call`)
        .join(', ')}.`,
    );
  }
  return parts.join('\n');
}
