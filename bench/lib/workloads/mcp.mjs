/**
 * The MCP workload: what the gateway adds to a `tools/call`. The same call (`echo` of a fixed benign
 * paragraph) goes to the upstream MCP server directly and through the gateway's /mcp, with each client
 * harness of bench/lib/mcp-clients.mjs (the official SDK client, and raw JSON-RPC POSTs), at concurrency
 * 1 (one session per target, calls back to back) and at a modest concurrency (that many sessions per
 * target, each calling back to back). Each session is opened and warmed up first; each repeat runs every
 * target in turn (order rotating between repeats), and "added" is computed within a repeat, then reported
 * as the median and min…max across repeats, as the latency workload does. The OS CPU of the gateway's
 * and the mock's workerd processes is charged per call.
 * Targets are { name, label, url, headers, tool }; the pairs compared are MCP_PAIRS.
 */
import { openSession } from '../mcp-clients.mjs';
import { medianOfRuns, settle } from '../measure.mjs';
import { cpuMs } from '../procstat.mjs';
import { acrossRuns, summarize } from '../stats.mjs';
import { addedPairs } from './latency.mjs';

/** The tool-call's argument: a benign paragraph (no PII, no credential, no injection) of about 300 bytes. */
export const ECHO_TEXT =
  'Quarterly planning notes: the search team ships the new ranking model in the second week, the ' +
  'platform team moves the build cache to the shared cluster, and the design review for the billing ' +
  'page is on Thursday. Open questions go to the weekly sync; nothing here needs a decision today.';

/** Differences reported, a − b. */
export const MCP_PAIRS = [
  ['gateway', 'direct'],
  ['gateway-governed', 'direct'],
  ['gateway-governed', 'gateway'],
  // With `split`: each governed feature alone, over the plain key.
  ['gateway-limits', 'gateway'],
  ['gateway-guardrails', 'gateway'],
];

const SETTLE = { idlePct: 5, maxMs: 1_500 };

/** `count` calls on each session, the sessions in parallel; every call's outcome. */
async function callsOn(sessions, count, args) {
  const per = await Promise.all(
    sessions.map(async (s) => {
      const out = [];
      for (let i = 0; i < count; i++) out.push(await s.call(args));
      return out;
    }),
  );
  return per.flat();
}

/** One measured run of `requests` calls spread over the target's sessions, with the processes' CPU. */
async function measuredRun(sessions, requests, args, pids) {
  const quiet = () => (Object.keys(pids).length ? settle(Object.values(pids), SETTLE) : null);
  await quiet();
  const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMs(pid)]));
  const t0 = performance.now();
  const calls = await callsOn(sessions, Math.ceil(requests / sessions.length), args);
  const wallMs = performance.now() - t0;
  await quiet();
  const cpuMsPerCall = Object.fromEntries(
    Object.entries(pids).map(([k, pid]) => {
      const after = cpuMs(pid);
      return [k, before[k] === null || after === null ? null : (after - before[k]) / calls.length];
    }),
  );
  const failed = calls.filter((c) => !c.ok);
  return {
    latencyMs: summarize(calls.filter((c) => c.ok).map((c) => c.ms)),
    requests: calls.length,
    errors: failed.length,
    firstError: failed[0]?.error ?? null,
    callsPerSecond: calls.length / (wallMs / 1000),
    cpuMsPerCall,
  };
}

/**
 * Runs the workload. `pids`: { gateway, mock } (workerd processes whose CPU is charged per call);
 * `harnesses`: subset of ['sdk', 'raw']; `concurrencies`: sessions per target, e.g. [1, 8].
 * Returns { requestsPerRun, repeats, warmup, argBytes, harnesses: { [h]: { [c]: { perTarget, added } } } }.
 */
export async function mcpWorkload(
  ctx,
  targets,
  { pids, harnesses, concurrencies, requests, repeats, warmup, text = ECHO_TEXT },
) {
  const args = { text };
  const out = {
    requestsPerRun: requests,
    repeats,
    warmup,
    argBytes: Buffer.byteLength(text),
    harnesses: {},
  };
  for (const h of harnesses) {
    out.harnesses[h] = {};
    for (const c of concurrencies) {
      ctx.log(`  mcp · ${h} client · ${c} session${c === 1 ? '' : 's'} per target`);
      const sessions = {};
      const openMs = {};
      try {
        for (const t of targets) {
          const opened = await Promise.all(
            Array.from({ length: c }, async () => {
              const t0 = performance.now();
              const s = await openSession(h, t);
              return { s, ms: performance.now() - t0 };
            }),
          );
          sessions[t.name] = opened.map((o) => o.s);
          openMs[t.name] = summarize(opened.map((o) => o.ms));
        }
        for (const t of targets) {
          const warm = await callsOn(sessions[t.name], Math.max(1, Math.ceil(warmup / c)), args);
          const bad = warm.find((w) => !w.ok);
          if (bad) throw new Error(`warm-up call to ${t.label} failed: ${bad.error}`);
        }
        const runs = Object.fromEntries(targets.map((t) => [t.name, []]));
        for (let r = 0; r < repeats; r++) {
          const order = targets.map((_, i) => targets[(i + r) % targets.length]);
          for (const t of order) runs[t.name].push(await measuredRun(sessions[t.name], requests, args, pids));
        }
        out.harnesses[h][c] = {
          perTarget: Object.fromEntries(
            targets.map((t) => [
              t.name,
              {
                label: t.label,
                latencyMs: medianOfRuns(runs[t.name].map((x) => x.latencyMs)),
                requests: runs[t.name].reduce((n, x) => n + x.requests, 0),
                errors: runs[t.name].reduce((n, x) => n + x.errors, 0),
                firstError: runs[t.name].find((x) => x.firstError)?.firstError ?? null,
                callsPerSecond: acrossRuns(runs[t.name].map((x) => x.callsPerSecond)),
                cpuMsPerCall: Object.fromEntries(
                  Object.keys(pids).map((k) => [
                    k,
                    acrossRuns(runs[t.name].map((x) => x.cpuMsPerCall[k]).filter((v) => v !== null)),
                  ]),
                ),
                openMs: openMs[t.name],
                runs: runs[t.name],
              },
            ]),
          ),
          added: addedPairs(runs, MCP_PAIRS),
        };
      } finally {
        await Promise.allSettled(
          Object.values(sessions)
            .flat()
            .map((s) => s.close()),
        );
      }
    }
  }
  return out;
}
