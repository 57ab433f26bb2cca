/**
 * Workload 1: added latency at concurrency 1. Each repeat runs every target
 * back to back (the order rotates between repeats so drift in the machine's
 * load does not always favour the same target); "added" is computed within a
 * repeat, then the median and min–max across repeats are reported.
 */
import { closedRun, medianOfRuns, warmUp } from '../measure.mjs';
import { acrossRuns } from '../stats.mjs';
import { chatBody, rotatedBy } from '../targets.mjs';

const PCTS = ['p50', 'p95', 'p99'];

export async function latencyWorkload(ctx, targets, { requests, repeats, warmup, latencyMs, tokens }) {
  const body = (t) => chatBody(t, { latencyMs, tokens });
  for (const t of targets) await warmUp(ctx, t, body(t), warmup);
  const runs = Object.fromEntries(targets.map((t) => [t.name, []]));
  for (let r = 0; r < repeats; r++) {
    const order = targets.map((_, i) => targets[(i + r) % targets.length]);
    for (const t of order) {
      ctx.log(`  latency c=1 · repeat ${r + 1}/${repeats} · ${t.label}`);
      // A target rotating a header (end users) goes on through its list from repeat to repeat.
      runs[t.name].push(await closedRun(ctx, rotatedBy(t, warmup + r * requests), body(t), { requests }));
    }
  }
  const perTarget = Object.fromEntries(
    targets.map((t) => [
      t.name,
      {
        label: t.label,
        latencyMs: medianOfRuns(runs[t.name].map((x) => x.latencyMs)),
        errors: runs[t.name].reduce((n, x) => n + x.errors, 0),
        requests: runs[t.name].reduce((n, x) => n + x.requests, 0),
        cpuMsPerRequest: acrossRuns(runs[t.name].map((x) => x.cpuMsPerRequest).filter((v) => v !== null)),
        overheadHeaderMs: runs[t.name].find((x) => x.overheadHeaderMs)?.overheadHeaderMs ?? null,
        runs: runs[t.name],
      },
    ]),
  );
  return {
    requestsPerRun: requests,
    repeats,
    perTarget,
    added: addedPairs(runs, [
      ['edgeway', 'direct'],
      ['edgeway', 'floor'],
      ['edgeway', 'floor-relay'],
      ['edgeway-consumer', 'edgeway'],
      // A key whose tenant meters its end users, against the plain key and the limited key.
      ['edgeway-end-users', 'edgeway'],
      ['edgeway-end-users', 'edgeway-limits'],
      ['edgeway-end-user-busy', 'edgeway'],
      ['edgeway-limits', 'edgeway'],
      ['floor-relay', 'floor'],
      ['floor', 'direct'],
    ]),
  };
}

/** Per-repeat differences of each percentile, summarised across repeats. */
export function addedPairs(runs, pairs) {
  const out = {};
  for (const [a, b] of pairs) {
    if (!runs[a] || !runs[b]) continue;
    out[`${a} − ${b}`] = Object.fromEntries(
      PCTS.map((p) => [p, acrossRuns(runs[a].map((x, i) => x.latencyMs[p] - runs[b][i].latencyMs[p]))]),
    );
  }
  return out;
}
