/**
 * Workload 4: streaming. (a) Time to first event and inter-event gaps at low
 * concurrency (streams staggered so about `overlap` run at once), added over
 * direct and floor per repeat. (b) The most concurrent streams a target serves
 * with every event delivered, the terminator seen and no gap longer than
 * `stallFactor` × pacing. TTFT here is the first SSE event the client receives
 * (the role chunk, sent by the mock after `latency_ms`; on the Responses API,
 * `response.created`).
 */
import { settle, streamRun } from '../measure.mjs';
import { rssMiB } from '../procstat.mjs';
import { bestLevel, nextLevel } from '../rate.mjs';
import { acrossRuns, summarize } from '../stats.mjs';
import { chatBody, chatJob } from '../targets.mjs';

const PCTS = ['p50', 'p95', 'p99'];

/** The most common value (the expected event count of a healthy stream). */
function mode(values) {
  const counts = new Map();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
}

export async function streamLatency(ctx, targets, { samples, repeats, overlap, latencyMs, tokens, paceMs }) {
  const streamMs = latencyMs + (tokens + 3) * paceMs;
  const rampMs = Math.round((samples * streamMs) / overlap);
  const body = (t) => chatBody(t, { latencyMs, tokens, paceMs, stream: true });
  const runs = Object.fromEntries(targets.map((t) => [t.name, []]));
  for (const t of targets) await streamRun(ctx, t, body(t), { streams: Math.min(4, samples), rampMs: 0 });
  for (let r = 0; r < repeats; r++) {
    for (const t of targets.map((_, i) => targets[(i + r) % targets.length])) {
      ctx.log(`  stream latency · repeat ${r + 1}/${repeats} · ${t.label}`);
      const { streams } = await streamRun(ctx, t, body(t), { streams: samples, rampMs });
      const ok = streams.filter((s) => s.status === 200 && s.done && !s.err);
      runs[t.name].push({
        ttftMs: summarize(ok.map((s) => s.first_event_us / 1000)),
        gapMs: summarize(ok.flatMap((s) => s.gaps_us.map((g) => g / 1000))),
        incomplete: streams.length - ok.length,
        events: mode(ok.map((s) => s.events)),
      });
    }
  }
  const perTarget = Object.fromEntries(
    targets.map((t) => {
      const rs = runs[t.name];
      return [
        t.name,
        {
          ttftMs: Object.fromEntries(PCTS.map((p) => [p, acrossRuns(rs.map((x) => x.ttftMs[p]))])),
          gapMs: Object.fromEntries(PCTS.map((p) => [p, acrossRuns(rs.map((x) => x.gapMs[p]))])),
          incomplete: rs.reduce((n, x) => n + x.incomplete, 0),
          expectedEvents: mode(rs.map((x) => x.events)),
        },
      ];
    }),
  );
  const added = {};
  for (const [a, b] of [
    ['edgeway', 'direct'],
    ['edgeway', 'floor'],
    ['edgeway-translated', 'edgeway'],
    ['edgeway-guarded', 'edgeway'],
    ['edgeway-responses', 'direct-responses'],
    ['edgeway-responses', 'edgeway'],
    ['edgeway-responses-translated', 'edgeway-responses'],
  ]) {
    if (!runs[a] || !runs[b]) continue;
    const diff = (field) =>
      Object.fromEntries(
        PCTS.map((p) => [p, acrossRuns(runs[a].map((x, i) => x[field][p] - runs[b][i][field][p]))]),
      );
    added[`${a} − ${b}`] = { ttftMs: diff('ttftMs'), gapMs: diff('gapMs') };
  }
  return { samplesPerRun: samples, repeats, overlap, tokens, paceMs, perTarget, added };
}

/** Judges one concurrency level. */
export function streamsHealthy(streams, expectedEvents, maxGapUs) {
  const reasons = [];
  const failed = streams.filter((s) => s.status !== 200 || s.err).length;
  const short = streams.filter(
    (s) => s.status === 200 && !s.err && (s.events !== expectedEvents || !s.done),
  ).length;
  const stalled = streams.filter((s) => s.max_gap_us > maxGapUs).length;
  if (failed) reasons.push(`${failed} failed`);
  if (short) reasons.push(`${short} incomplete`);
  if (stalled) reasons.push(`${stalled} stalled`);
  return { pass: reasons.length === 0, reasons };
}

export async function streamConcurrency(
  ctx,
  targets,
  {
    start,
    factor,
    precision,
    maxSteps,
    max,
    rampMs,
    latencyMs,
    tokens,
    paceMs,
    stallFactor,
    expected,
    mockPid,
  },
) {
  const out = {};
  const maxGapUs = stallFactor * paceMs * 1000;
  for (const t of targets) {
    const history = [];
    const opts = { start, factor, precision, maxSteps, max };
    for (let n = nextLevel(history, opts); n !== null; n = nextLevel(history, opts)) {
      const { streams, cpuMs, memory } = await streamRun(
        ctx,
        t,
        chatBody(t, { latencyMs, tokens, paceMs, stream: true }),
        { streams: n, rampMs, gaps: false },
      );
      const verdict = streamsHealthy(streams, expected[t.name], maxGapUs);
      const worstGapMs = Math.max(0, ...streams.map((s) => s.max_gap_us)) / 1000;
      ctx.log(
        `  concurrent streams · ${t.label} · ${n} → ${verdict.pass ? 'ok' : verdict.reasons.join(', ')} (worst gap ${worstGapMs.toFixed(0)} ms)`,
      );
      history.push({
        level: n,
        pass: verdict.pass,
        reasons: verdict.reasons,
        worstGapMs,
        cpuMsPerStream: cpuMs === null ? null : cpuMs / n,
        rssPeakMiB: memory?.peak ?? null,
      });
      await settle([t.pid, mockPid]);
    }
    out[t.name] = {
      sustainedStreams: bestLevel(history),
      capped: history.some((h) => h.level >= max && h.pass),
      history,
    };
  }
  return { stallMs: maxGapUs / 1000, perTarget: out };
}

/**
 * Workload 5b: memory while very large responses stream through to throttled
 * clients (`streams` responses of `tokens` events at once, each client reading
 * at `readBps`). The mock is pull-based and the clients slow, so a gateway that
 * buffered (or tee'd without backpressure) would have to hold most of the bytes.
 * RSS alone cannot tell: V8 grows its heap under a high allocation rate and
 * never returns it (measured: RSS climbs for two or three such runs, then stays
 * put). So where a heap probe is given (the gateway, through its inspector), the
 * verdict uses the JS heap's low-water mark over the second half of the run:
 * the garbage collector's sawtooth bottoms out at the live heap, which would
 * hold the buffered bytes. Flat = that low-water mark minus the idle heap, or
 * (without a probe) the RSS growth over the second half, under max(8 MiB, 10 %
 * of the bytes streamed). A smaller unthrottled stream runs first, discarded.
 */
export async function bigStream(ctx, targets, { tokens, streams = 1, readBps, heapProbes = {} }) {
  const out = {};
  for (const t of targets) {
    ctx.log(`  ${streams} large stream(s) of ${tokens} events · ${t.label}`);
    const body = chatBody(t, { latencyMs: 0, tokens, paceMs: 0, stream: true });
    await streamRun(
      ctx,
      t,
      chatBody(t, { latencyMs: 0, tokens: Math.ceil(tokens / 5), paceMs: 0, stream: true }),
      { streams: 1, rampMs: 0, gaps: false },
    );
    const probe = heapProbes[t.name] ?? null;
    const idleHeap = probe ? await probe() : null;
    const samples = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        samples.push({ rss: rssMiB(t.pid), heap: probe ? await probe() : null });
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const job = chatJob(t, body, {
      mode: 'stream',
      streams,
      ramp_ms: 0,
      gaps: false,
      read_bps: Math.round(readBps),
      timeout_ms: 300_000,
    });
    const run = (await ctx.loadgen.run(job)).streams;
    sampling = false;
    await sampler;
    const responseMiB = run.reduce((n, x) => n + x.bytes, 0) / 1048576;
    const half = samples.slice(Math.floor(samples.length / 2));
    const rss = samples.map((x) => x.rss ?? 0);
    const rssSecondHalfGrowth = Math.max(...half.map((x) => x.rss ?? 0)) - (half[0]?.rss ?? 0);
    const heapLowWater = probe ? Math.min(...half.map((x) => x.heap)) : null;
    const heapGrowthMiB = probe ? heapLowWater - idleHeap : null;
    const measured = probe ? heapGrowthMiB : rssSecondHalfGrowth;
    out[t.name] = {
      complete: run.every((x) => x.status === 200 && x.done && !x.err),
      events: run[0]?.events ?? 0,
      responseMiB,
      seconds: Math.max(...run.map((x) => x.end_us - x.start_us)) / 1e6,
      rssMiB: { first: rss[0], peak: Math.max(...rss), last: rss[rss.length - 1] },
      growthMiB: rss[rss.length - 1] - rss[0],
      rssSecondHalfGrowthMiB: rssSecondHalfGrowth,
      heapIdleMiB: idleHeap,
      heapLowWaterMiB: heapLowWater,
      heapGrowthMiB,
      verdictFrom: probe ? 'JS heap low-water mark' : 'RSS, second half',
      flat: measured < Math.max(8, responseMiB / 10),
    };
    await settle([t.pid]);
  }
  return { tokens, streams, readBps, perTarget: out };
}
