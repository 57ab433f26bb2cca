// `node bench/relay-costs/run.mjs [--levels 100,200,400,600,800]`: what the runtime charges for each
// way a Worker can stand between an upstream stream and its client (bench/relay-costs/index.js), with
// no gateway code around it. For each way, in its own workerd process: the most concurrent streams
// (64 chunks paced 20 ms, started over 1 s) served with every chunk delivered and no gap over 200 ms,
// and the process CPU per stream at each level. Prints a Markdown table; a few minutes.
import { parseArgs } from 'node:util';
import { createLoadgen } from '../lib/loadgen.mjs';
import { cpuLayout } from '../lib/machine.mjs';
import { settle, streamRun } from '../lib/measure.mjs';
import { bundle, startBareWorker, startMock } from '../lib/stack.mjs';
import { chatBody, target } from '../lib/targets.mjs';
import { streamsHealthy } from '../lib/workloads/streaming.mjs';

const { values } = parseArgs({
  options: { levels: { type: 'string' }, modes: { type: 'string' } },
});
const LEVELS = (values.levels ?? '100,200,400,600,800').split(',').map(Number);
const MODES = (values.modes ?? 'native,pipe,tee,tee-pipe,loop,js-stream,transform').split(',');
const STREAM = { latencyMs: 20, tokens: 64, paceMs: 20, stream: true };

const layout = cpuLayout(true);
const mock = await startMock(bundle('workers/mock-llm/wrangler.toml', 'mock'), { cpus: layout.rest });
const loadgen = createLoadgen({ prefer: 'go', cpus: layout.rest });
const ctx = { loadgen, log: () => {} };
const rows = [];
try {
  for (const mode of MODES) {
    const worker = await startBareWorker('relay-costs', mock.url, { cpus: layout.sut }, { RELAY: mode });
    try {
      const t = target(mode, { url: worker.url, key: 'mock-key', model: 'mock-small', pid: worker.pid });
      const body = chatBody(t, STREAM);
      const warm = await streamRun(ctx, t, body, { streams: 8, rampMs: 100 });
      const expected = warm.streams[0]?.events ?? 0;
      let held = 0;
      const cpu = [];
      for (const n of LEVELS) {
        const { streams, cpuMs } = await streamRun(ctx, t, body, { streams: n, rampMs: 1000, gaps: false });
        const verdict = streamsHealthy(streams, expected, 10 * STREAM.paceMs * 1000);
        cpu.push(`${n}: ${cpuMs === null ? '–' : (cpuMs / n).toFixed(1)}`);
        process.stderr.write(`${mode} ${n}: ${verdict.pass ? 'ok' : verdict.reasons.join(', ')}\n`);
        await settle([t.pid, mock.pid]);
        if (!verdict.pass) break;
        held = n;
      }
      rows.push(`| ${mode} | ${held || `< ${LEVELS[0]}`} | ${cpu.join(' · ')} |`);
    } finally {
      await worker.dispose();
    }
  }
} finally {
  await mock.dispose();
}
console.log('| way | concurrent streams held | CPU ms per stream, by level |');
console.log('| --- | --- | --- |');
for (const row of rows) console.log(row);
process.exit(0);
