/**
 * Workload 4: streaming. (a) Time to first event and inter-event gaps at low
 * concurrency (streams staggered so about `overlap` run at once), added over
 * direct and floor per repeat. (b) The most concurrent streams a target serves
 * with every event delivered, the terminator seen and no gap longer than
 * `stallFactor` × pacing. TTFT here is the first SSE event the client receives
 * (the role chunk, sent by the mock after `latency_ms`).
 */
import { settle, streamRun } from '../measure.mjs';
import { bestLevel, nextLevel } from '../rate.mjs';
import { acrossRuns, summarize } from '../stats.mjs';
import { chatBody } from '../targets.mjs';

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
      return [t.name, {
        ttftMs: Object.fromEntries(PCTS.map((p) => [p, acrossRuns(rs.map((x) => x.ttftMs[p]))])),
        gapMs: Object.fromEntries(PCTS.map((p) => [p, acrossRuns(rs.map((x) => x.gapMs[p]))])),
        incomplete: rs.reduce((n, x) => n + x.incomplete, 0),
        expectedEvents: mode(rs.map((x) => x.events)),
      }];
    }),
  );
  const added = {};
  for (const [a, b] of [['edgeway', 'direct'], ['edgeway', 'floor']]) {
    if (!runs[a] || !runs[b]) continue;
    const diff = (field) => Object.fromEntries(PCTS.map((p) => [p, acrossRuns(runs[a].map((x, i) => x[field][p] - runs[b][i][field][p]))]));
    added[`${a} − ${b}`] = { ttftMs: diff('ttftMs'), gapMs: diff('gapMs') };
  }
  return { samplesPerRun: samples, repeats, overlap, tokens, paceMs, perTarget, added };
}

/** Judges one concurrency level. */
export function streamsHealthy(streams, expectedEvents, maxGapUs) {
  const reasons = [];
  const failed = streams.filter((s) => s.status !== 200 || s.err).length;
  const short = streams.filter((s) => s.status === 200 && !s.err && (s.events !== expectedEvents || !s.done)).length;
  const stalled = streams.filter((s) => s.max_gap_us > maxGapUs).length;
  if (failed) reasons.push(`${failed} failed`);
  if (short) reasons.push(`${short} incomplete`);
  if (stalled) reasons.push(`${stalled} stalled`);
  return { pass: reasons.length === 0, reasons };
}

export async function streamConcurrency(ctx, targets, { start, factor, precision, maxSteps, max, rampMs, latencyMs, tokens, paceMs, stallFactor, expected, mockPid }) {
  const out = {};
  const maxGapUs = stallFactor * paceMs * 1000;
  for (const t of targets) {
    const history = [];
    const opts = { start, factor, precision, maxSteps, max };
    for (let n = nextLevel(history, opts); n !== null; n = nextLevel(history, opts)) {
      const { streams, cpuMs, memory } = await streamRun(ctx, t, chatBody(t, { latencyMs, tokens, paceMs, stream: true }), { streams: n, rampMs, gaps: false });
      const verdict = streamsHealthy(streams, expected[t.name], maxGapUs);
      const worstGapMs = Math.max(0, ...streams.map((s) => s.max_gap_us)) / 1000;
      ctx.log(`  concurrent streams · ${t.label} · ${n} → ${verdict.pass ? 'ok' : verdict.reasons.join(', ')} (worst gap ${worstGapMs.toFixed(0)} ms)`);
      history.push({ level: n, pass: verdict.pass, reasons: verdict.reasons, worstGapMs, cpuMsPerStream: cpuMs === null ? null : cpuMs / n, rssPeakMiB: memory?.peak ?? null });
      await settle([t.pid, mockPid]);
    }
    out[t.name] = { sustainedStreams: bestLevel(history), capped: history.some((h) => h.level >= max && h.pass), history };
  }
  return { stallMs: maxGapUs / 1000, perTarget: out };
}

/**
 * Workload 5b: memory while one very large response streams through, read by a
 * throttled client so a gateway that buffered (or tee'd without backpressure)
 * would have to hold the response in memory. A smaller unthrottled stream runs
 * first and is discarded: the first large stream grows V8's heap once (RSS
 * never shrinks back), which is not what this measures. Flat = peak growth
 * under a quarter of the response size (and at least 4 MiB of slack for the
 * runtime's own noise).
 */
export async function bigStream(ctx, targets, { tokens, readBps }) {
  const out = {};
  for (const t of targets) {
    ctx.log(`  large stream (${tokens} events) · ${t.label}`);
    await streamRun(ctx, t, chatBody(t, { latencyMs: 0, tokens: Math.ceil(tokens / 5), paceMs: 0, stream: true }), { streams: 1, rampMs: 0, gaps: false });
    const body = chatBody(t, { latencyMs: 0, tokens, paceMs: 0, stream: true });
    const { streams, cpuMs, memory } = await streamRun(ctx, t, body, { streams: 1, rampMs: 0, gaps: false, readBps, timeoutMs: 300_000 });
    const s = streams[0];
    const responseMiB = s.bytes / 1048576;
    const growthMiB = memory ? memory.peak - memory.first : null;
    out[t.name] = {
      status: s.status,
      complete: s.done && !s.err,
      events: s.events,
      responseMiB,
      seconds: (s.end_us - s.start_us) / 1e6,
      rssMiB: memory,
      growthMiB,
      flat: growthMiB === null ? null : growthMiB < Math.max(4, responseMiB / 4),
      cpuMsPerMiB: cpuMs === null ? null : cpuMs / responseMiB,
    };
  }
  return { tokens, readBps, perTarget: out };
}
