/**
 * Workload 7: a CPU profile of the gateway isolate per pipeline stage, for plain
 * JSON requests and for streams, on the separate gateway instance that has the
 * inspector enabled (so the latency and throughput runs never have one attached).
 */
import { profileDuring } from '../profile.mjs';
import { chatBody, chatJob } from '../targets.mjs';

export async function profileWorkload(
  ctx,
  { worker, t, script, requests, streams, latencyMs, tokens, stream },
) {
  const json = chatBody(t, { latencyMs, tokens });
  const sse = chatBody(t, { latencyMs, tokens: stream.tokens, paceMs: stream.paceMs, stream: true });
  await ctx.loadgen.run(
    chatJob(t, json, { mode: 'closed', requests: Math.min(300, requests), concurrency: 4 }),
  );
  ctx.log(`  profile · ${requests} JSON requests`);
  const jsonProfile = await profileDuring(worker.mf, 'edgeway', script, requests, () =>
    ctx.loadgen.run(chatJob(t, json, { mode: 'closed', requests, concurrency: 4 })),
  );
  ctx.log(`  profile · ${streams} streams of ${stream.tokens} chunks`);
  const streamProfile = await profileDuring(worker.mf, 'edgeway', script, streams, () =>
    ctx.loadgen.run(
      chatJob(t, sse, { mode: 'stream', streams, ramp_ms: 1000, gaps: false, timeout_ms: 60_000 }),
    ),
  );
  return { json: jsonProfile, stream: { ...streamProfile, chunks: stream.tokens } };
}
