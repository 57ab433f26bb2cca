/**
 * One measured run of each kind, with the OS accounting taken around it: the
 * CPU the target's process was charged per request and its peak RSS. Warm-ups
 * go through the same paths and are discarded.
 */
import { cpuMs, sampleRss } from './procstat.mjs';
import { analyzeOpenLoop } from './rate.mjs';
import { acrossRuns, summarize } from './stats.mjs';
import { chatJob, errorCount, okLatenciesMs } from './targets.mjs';

/**
 * Runs `job` while measuring the CPU charged to `pids` and sampling the first
 * pid's RSS. CPU is read after the processes settle, so work the run caused
 * but that finished after its last reply (the log queue's consumer, requests
 * abandoned at a timeout) is charged to the run that caused it.
 */
async function accounted(ctx, pids, job) {
  const before = pids.map(cpuMs);
  const rss = sampleRss(pids[0], 100);
  const result = await ctx.loadgen.run(job);
  const memory = rss.stop();
  await settle(pids);
  const after = pids.map(cpuMs);
  const cpu = before.map((b, i) => (b === null || after[i] === null ? null : after[i] - b));
  return { result, cpu, memory };
}

const perRequest = (cpu, n) => (cpu === null || n === 0 ? null : cpu / n);

/** Closed loop at `concurrency` (1 for the added-latency numbers). */
export async function closedRun(ctx, t, body, { requests, concurrency = 1 }) {
  const { result, cpu, memory } = await accounted(
    ctx,
    [t.pid],
    chatJob(t, body, { mode: 'closed', requests, concurrency }),
  );
  const ok = okLatenciesMs(result);
  return {
    latencyMs: summarize(ok),
    requests: result.samples.status.length,
    errors: errorCount(result),
    errorKinds: result.errors,
    cpuMsPerRequest: perRequest(cpu[0], result.samples.status.length),
    rssPeakMiB: memory?.peak ?? null,
    headerCounts: result.header_counts,
    overheadHeaderMs: result.header_values['x-edgeway-overhead-ms']
      ? summarize(result.header_values['x-edgeway-overhead-ms'])
      : null,
  };
}

export function warmUp(ctx, t, body, requests) {
  return ctx.loadgen.run(chatJob(t, body, { mode: 'closed', requests, concurrency: 2 }));
}

/**
 * Open loop at `rate` for `durationMs` (the first `warmupMs` are not counted); `extraPids` are also
 * accounted (the mock). Requests time out after 2 s: beyond the 1 s p99 bound they only prolong an
 * overload. At most 1,000 requests are in flight (more count as errors): past the knee workerd opens
 * one outbound connection per waiting request, and an unbounded client ran a Worker out of file
 * descriptors (workerd aborts on EMFILE).
 */
export async function openRun(ctx, t, body, { rate, durationMs, warmupMs, extraPids = [] }) {
  const pids = [t.pid, ...extraPids];
  const job = chatJob(t, body, {
    mode: 'open',
    rate,
    duration_ms: durationMs,
    timeout_ms: 2000,
    max_in_flight: 1000,
  });
  const { result, cpu, memory } = await accounted(ctx, pids, job);
  const run = analyzeOpenLoop({ samples: result.samples, rate, durationMs, warmupMs });
  const n = result.samples.status.length;
  return {
    ...run,
    errorKinds: result.errors,
    cpuMsPerRequest: perRequest(cpu[0], n),
    upstreamCpuMsPerRequest: extraPids.length ? perRequest(cpu[1], n) : null,
    rssPeakMiB: memory?.peak ?? null,
    clientCpuPct: result.wall_ms ? (100 * result.client_cpu_ms) / result.wall_ms : null,
    schedulerLagMs: result.max_lag_us / 1000,
  };
}

/** `streams` SSE requests started evenly over `rampMs`; returns per-stream results and the target's peak RSS. */
export async function streamRun(
  ctx,
  t,
  body,
  { streams, rampMs, gaps = true, readBps = 0, timeoutMs = 60_000 },
) {
  const job = chatJob(t, body, {
    mode: 'stream',
    streams,
    ramp_ms: rampMs,
    gaps,
    read_bps: Math.round(readBps),
    timeout_ms: timeoutMs,
  });
  const { result, cpu, memory } = await accounted(ctx, [t.pid], job);
  return { streams: result.streams, cpuMs: cpu[0], memory };
}

/**
 * Waits until the processes are idle again (each under `idlePct` % of a CPU over
 * a 250 ms window), at most `maxMs`. After an overload the Workers keep working
 * for seconds: the mock finishes requests whose clients gave up and thousands
 * of connections close, and the next run must not inherit that. Returns the ms waited.
 */
export async function settle(pids, { idlePct = 5, maxMs = 20_000 } = {}) {
  const started = Date.now();
  for (;;) {
    const before = pids.map(cpuMs);
    await new Promise((r) => setTimeout(r, 250));
    const busy = pids.some(
      (pid, i) => before[i] !== null && ((cpuMs(pid) - before[i]) / 250) * 100 >= idlePct,
    );
    if (!busy || Date.now() - started >= maxMs) return Date.now() - started;
  }
}

/** Median and min–max across repeats of each percentile of per-run summaries. */
export function medianOfRuns(summaries, fields = ['p50', 'p95', 'p99']) {
  return Object.fromEntries(fields.map((f) => [f, acrossRuns(summaries.map((s) => s[f]))]));
}
