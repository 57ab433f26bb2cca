// `node bench/in-isolate/run.mjs [--requests 8000] [--concurrency 8] [--gap-ms 0] [--rounds 3] [--profile]`:
// what the gateway's own JavaScript costs a JSON request, with no socket in the way. The gateway's
// bundle with a driver in front (bench/in-isolate/index.ts) runs the requests inside its isolate,
// the upstream answered there with an answer recorded from the mock; the relay floor's steps run in
// the same isolate for comparison. Process CPU per request (utime + stime) for each way, rounds in
// rotating order: `edgeway` (logging as configured: the queue and its consumer run in this process),
// `edgeway, LOG_SINK=off`, `relay floor`. `--gap-ms 20 --concurrency 1` leaves the isolate idle
// between requests as a client at concurrency 1 does. `--profile` also writes a V8 CPU profile of
// one `edgeway, LOG_SINK=off` drive to .build/bench/in-isolate/edgeway.cpuprofile, with no I/O wait
// in it to blur the attribution. A minute or two.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { settle } from '../lib/measure.mjs';
import { cpuMs } from '../lib/procstat.mjs';
import { inspectorSession } from '../lib/profile.mjs';
import { BUILD, bundle, seedKeys, startGateway, startMock } from '../lib/stack.mjs';
import { PROMPT } from '../lib/targets.mjs';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '8000' },
    concurrency: { type: 'string', default: '8' },
    'gap-ms': { type: 'string', default: '0' },
    rounds: { type: 'string', default: '3' },
    profile: { type: 'boolean', default: false },
  },
});
const N = Number(values.requests);
const WAYS = [
  { name: 'edgeway', mode: 'edgeway', logOff: false },
  { name: 'edgeway, LOG_SINK=off', mode: 'edgeway', logOff: true },
  { name: 'relay floor', mode: 'relay', logOff: false },
];

const mock = await startMock(bundle('workers/mock-llm/wrangler.toml', 'mock'));
const adminToken = `bench_${'x'.repeat(24)}`;
const script = bundle('wrangler.toml', 'in-isolate', 'bench/in-isolate/index.ts');
const gateway = await startGateway(script, {
  mockUrl: mock.url,
  adminToken,
  label: 'in-isolate',
  extra: values.profile ? { inspectorPort: 0 } : {},
});
try {
  const { plain } = await seedKeys(gateway, adminToken, { plain: {} });
  const body = (model) =>
    JSON.stringify({
      model,
      messages: [{ role: 'user', content: PROMPT }],
      mock: { latency_ms: 0, tokens: 16 },
    });
  const res = await fetch(`${mock.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer mock-key', 'content-type': 'application/json' },
    body: body('mock-small'),
  });
  const answer = { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
  const drive = async (way, n) => {
    const out = await fetch(`${gateway.url}/drive`, {
      method: 'POST',
      body: JSON.stringify({
        mode: way.mode,
        logOff: way.logOff,
        n,
        concurrency: Number(values.concurrency),
        gapMs: Number(values['gap-ms']),
        key: plain,
        body: body('mock/mock-small'),
        upstream: `${mock.url}/v1`,
        answer,
      }),
    }).then((r) => r.json());
    if (out.ok !== n) throw new Error(`${way.name}: ${out.ok}/${n} answered 200; ${out.failure}`);
  };
  for (const way of WAYS) await drive(way, Math.min(N, 2000));
  const perRequest = Object.fromEntries(WAYS.map((w) => [w.name, []]));
  for (let r = 0; r < Number(values.rounds); r++) {
    for (let i = 0; i < WAYS.length; i++) {
      const way = WAYS[(i + r) % WAYS.length];
      await settle([gateway.pid]);
      const before = cpuMs(gateway.pid);
      await drive(way, N);
      // The log consumer's work for this drive runs after it (once a second): it is charged here too.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await settle([gateway.pid]);
      perRequest[way.name].push((cpuMs(gateway.pid) - before) / N);
    }
  }
  console.log(
    `| way | CPU ms per request, ${values.rounds} rounds (${N} requests, ${values.concurrency} at a time, gap ${values['gap-ms']} ms) |`,
  );
  console.log('| --- | --- |');
  for (const [name, xs] of Object.entries(perRequest))
    console.log(`| ${name} | ${xs.map((x) => x.toFixed(3)).join(' · ')} |`);
  if (values.profile) {
    const session = await inspectorSession(gateway.mf, 'edgeway');
    try {
      await session.send('Profiler.enable');
      await session.send('Profiler.setSamplingInterval', { interval: 50 });
      await session.send('Profiler.start');
      await drive(WAYS[1], N);
      const { profile } = await session.send('Profiler.stop');
      const file = join(BUILD, 'in-isolate', 'edgeway.cpuprofile');
      writeFileSync(file, JSON.stringify(profile));
      console.log(`profile: ${file} (the bundle: ${script})`);
    } finally {
      await session.close();
    }
  }
} finally {
  await gateway.dispose();
  await mock.dispose();
}
