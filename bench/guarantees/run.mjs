// `node bench/guarantees/run.mjs [--rate 1000] [--rounds 6] [--ways ...]`: what the runtime charges for
// the per-request guarantees Edgeway's JSON path carries, with no gateway code around them
// (bench/guarantees/index.js): the relay floor's steps alone, with each guarantee alone, and with all of
// them. Each way runs in its own workerd process; every round drives each way open loop at `rate` for 6 s,
// in alternating order, and the process CPU per request is compared within the round against the relay
// floor's steps alone. Prints a Markdown table (medians across rounds, min…max); a few minutes.
import { parseArgs } from 'node:util';
import { createLoadgen } from '../lib/loadgen.mjs';
import { cpuLayout } from '../lib/machine.mjs';
import { openRun, settle, warmUp } from '../lib/measure.mjs';
import { bundle, startBareWorker, startMock } from '../lib/stack.mjs';
import { acrossRuns } from '../lib/stats.mjs';
import { chatBody, target } from '../lib/targets.mjs';

const GUARANTEES = ['signal', 'ttfb', 'body', 'waituntil', 'headers'];
const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '6' },
    ways: { type: 'string', default: `none,${GUARANTEES.join(',')},all` },
  },
});
const RATE = Number(values.rate);
/** "none" is the relay floor's steps alone, "all" every guarantee at once. */
const WAYS = values.ways.split(',');
const carried = (way) => (way === 'none' ? '' : way === 'all' ? GUARANTEES.join(',') : way);

const layout = cpuLayout('auto');
const mock = await startMock(bundle('workers/mock-llm/wrangler.toml', 'mock'), { cpus: layout.rest });
const ctx = { loadgen: createLoadgen({ prefer: 'go', cpus: layout.rest }), log: () => {} };
const workers = [];
try {
  for (const way of WAYS) {
    const bindings = { CARRY: carried(way) };
    const worker = await startBareWorker('guarantees', mock.url, { cpus: layout.sut }, bindings);
    const t = target(way, { url: worker.url, key: 'mock-key', model: 'mock-small', pid: worker.pid });
    const body = chatBody(t, { latencyMs: 20, tokens: 16 });
    workers.push({ worker, t, body, cpu: [], errors: 0, sent: 0 });
    await warmUp(ctx, t, body, 500);
  }
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = round % 2 ? [...workers].reverse() : workers;
    for (const w of order) {
      const run = await openRun(ctx, w.t, w.body, { rate: RATE, durationMs: 6000, warmupMs: 1000 });
      w.cpu.push(run.cpuMsPerRequest);
      w.errors += run.errors;
      w.sent += run.sent;
      await settle([w.t.pid, mock.pid]);
    }
  }
} finally {
  for (const w of workers) await w.worker.dispose();
  await mock.dispose();
}
const base = workers[0].cpu;
const fmt = (s) => `${s.median.toFixed(3)} (${s.min.toFixed(3)}…${s.max.toFixed(3)})`;
console.log(
  `| carried | CPU ms per request at ${RATE}/s | over the relay floor's steps, within a round | errors |`,
);
console.log('| --- | --- | --- | --- |');
for (const w of workers) {
  const over = w.cpu.map((c, i) => c - base[i]);
  const name =
    w.t.name === 'none' ? "nothing (the relay floor's steps)" : carried(w.t.name).replaceAll(',', ', ');
  const over0 = w === workers[0] ? '' : fmt(acrossRuns(over));
  console.log(`| ${name} | ${fmt(acrossRuns(w.cpu))} | ${over0} | ${w.errors}/${w.sent} |`);
}
process.exit(0);
