#!/usr/bin/env node
/**
 * `npm run bench:mcp`: what the gateway adds to an MCP `tools/call`, alone (the same workload runs inside
 * `npm run bench` as `mcp`). Starts the mock (its /mcp/healthy server) and the gateway under workerd as the
 * bench does (bench/lib/stack.mjs: Miniflare direct sockets, 127.0.0.1, in-memory storage, the log queue's
 * consumer unbound), registers the mock as an upstream and measures `echo` directly, through /mcp with a
 * plain key and with a governed key (bench/lib/mcp-bench.mjs), with the official SDK client and with raw
 * JSON-RPC POSTs, at concurrency 1 and at 8 sessions in parallel.
 *
 *   node bench/mcp.mjs [--quick | --smoke] [--requests 300] [--repeats 3] [--concurrency 1,8]
 *                      [--harness sdk,raw] [--split] [--profile N] [--out DIR] [--no-write]
 *
 * `--split` adds a key with the limits only and one with the guardrails only, to tell their costs apart.
 * `--profile N` starts the gateway with its inspector on and, after the measured runs, takes a V8 CPU profile
 * of N calls through each key (bench/lib/profile.mjs): busy ms per call and self time by source module.
 *
 * Writes bench/results/<date>-mcp-<mode>.{md,json} and prints the tables. Exits 1 when calls fail at
 * concurrency 1, the governed key's limits or guardrails did not engage, or the run overruns its
 * deadline; never because the machine is slow.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { machine } from './lib/machine.mjs';
import { runMcpBench } from './lib/mcp-bench.mjs';
import { mcpSection } from './lib/mcp-report.mjs';
import { benchKeysSecret } from './lib/mcp-seed.mjs';
import { PROFILES } from './lib/profiles.mjs';
import { ROOT, bundle, startGateway, startMock } from './lib/stack.mjs';

/** Each mode's deadline (bundling included); the sizes are the bench's own (bench/lib/profiles.mjs, `mcp`). */
const DEADLINE_S = { smoke: 120, quick: 240, full: 420 };

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    smoke: { type: 'boolean' },
    requests: { type: 'string' },
    repeats: { type: 'string' },
    warmup: { type: 'string' },
    concurrency: { type: 'string' },
    harness: { type: 'string' },
    out: { type: 'string' },
    split: { type: 'boolean' },
    profile: { type: 'string' },
    'no-write': { type: 'boolean' },
  },
});
const mode = values.smoke ? 'smoke' : values.quick ? 'quick' : 'full';
const deadlineS = DEADLINE_S[mode];
const base = PROFILES[mode].mcp;
const list = (s, f = String) =>
  s
    .split(',')
    .map((x) => f(x.trim()))
    .filter((x) => x !== '' && x !== 0);
const profile = {
  ...base,
  ...(values.requests ? { requests: Number(values.requests) } : {}),
  ...(values.repeats ? { repeats: Number(values.repeats) } : {}),
  ...(values.warmup ? { warmup: Number(values.warmup) } : {}),
  ...(values.concurrency ? { concurrencies: list(values.concurrency, Number) } : {}),
  ...(values.harness ? { harnesses: list(values.harness) } : {}),
};

const started = Date.now();
const log = (msg) =>
  process.stdout.write(`[mcp ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${msg}\n`);
const workers = [];
async function shutdown(code) {
  await Promise.allSettled(workers.map((w) => w.dispose()));
  process.exit(code);
}
setTimeout(() => {
  console.error(`bench/mcp: the ${mode} run exceeded its ${deadlineS}s deadline`);
  void shutdown(1);
}, deadlineS * 1000).unref();

const meta = { date: new Date().toISOString(), mode, machine: machine(), profile };
log(`${mode} run · bundling the gateway and the mock (wrangler deploy --dry-run)`);
const gatewayScript = bundle('wrangler.toml', 'gateway');
const mockScript = bundle('workers/mock-llm/wrangler.toml', 'mock');
log('starting the mock and the gateway under workerd');
const mock = await startMock(mockScript);
workers.push(mock);
const adminToken = `bench_${randomBytes(12).toString('hex')}`;
const keysSecret = benchKeysSecret();
const gateway = await startGateway(gatewayScript, {
  mockUrl: mock.url,
  adminToken,
  logConsumer: false,
  vars: { PROVIDER_KEYS_SECRET: keysSecret },
  // The inspector only when a CPU profile is asked for: the measured runs are otherwise without one.
  ...(values.profile ? { extra: { inspectorPort: 0 } } : {}),
});
workers.push(gateway);

let result;
try {
  result = await runMcpBench(
    { log },
    {
      mock,
      gateway,
      adminToken,
      keysSecret,
      profile,
      split: Boolean(values.split),
      cpuProfile: values.profile ? { calls: Number(values.profile), script: gatewayScript } : null,
    },
  );
} catch (err) {
  console.error(`bench/mcp: ${err.stack ?? err}`);
  for (const w of workers)
    if (w.output().trim()) console.error(`--- ${w.name} (tail) ---\n${w.output().slice(-3000)}`);
  await shutdown(1);
}
meta.loadAverageAfter = machine().loadAverage;
meta.seconds = Math.round((Date.now() - started) / 1000);
const failures = [...result.problems];
for (const [h, byC] of Object.entries(result.harnesses))
  for (const [c, run] of Object.entries(byC))
    for (const [name, t] of Object.entries(run.perTarget))
      if (t.errors && Number(c) === 1)
        failures.push(`${h}, concurrency 1: ${t.errors} failed calls against ${name} (${t.firstError})`);

const report = [
  `# MCP bench, ${mode} run, ${meta.date}`,
  '',
  `Commit ${meta.machine.commit ?? '?'}, ${meta.machine.cpus} × ${meta.machine.cpuModel ?? 'CPU'}, load average ` +
    `${meta.machine.loadAverage?.join(' / ') ?? '?'} before and ${meta.loadAverageAfter?.join(' / ') ?? '?'} after, ` +
    `${meta.seconds} s, not pinned.`,
  '',
  mcpSection(result),
  ...(failures.length ? ['', '## Harness failures', '', ...failures.map((f) => `- ${f}`)] : []),
].join('\n');
process.stdout.write(`\n${report}\n`);
if (!values['no-write']) {
  const outDir = values.out ?? join(ROOT, 'bench', 'results');
  mkdirSync(outDir, { recursive: true });
  const stem = join(outDir, `${meta.date.slice(0, 19).replace(/:/g, '-')}-mcp-${mode}`);
  writeFileSync(`${stem}.json`, `${JSON.stringify({ meta, mcp: result, failures }, null, 2)}\n`);
  writeFileSync(`${stem}.md`, `${report}\n`);
  log(`report: ${stem}.md (+ .json)`);
}
if (failures.length) console.error(`\nbench/mcp: ${failures.length} problem(s):\n- ${failures.join('\n- ')}`);
await shutdown(failures.length ? 1 : 0);
