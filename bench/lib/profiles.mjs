/**
 * Run profiles and command-line flags. `full` is sized to finish in about twenty
 * minutes on a 2-core machine, `quick` in one to two, `smoke` in seconds (CI:
 * low rates, the Node generator, no pinning, every workload touched once so
 * the harness cannot rot). Bounds, not thresholds: nothing here fails a run
 * for being slow.
 */
import { parseArgs } from 'node:util';

const MOCK = { latencyMs: 20, tokens: 16 };
const STREAM = { tokens: 64, paceMs: 20 };

export const PROFILES = {
  smoke: {
    loadgen: 'node',
    pin: false,
    latency: { requests: 25, repeats: 1, warmup: 5 },
    fixedRates: { rates: [25], durationMs: 800, warmupMs: 200, warmupRequests: 5 },
    capacity: null,
    streamLatency: { samples: 3, repeats: 1, overlap: 3, tokens: 8, paceMs: 10 },
    streamConcurrency: {
      start: 8,
      factor: 2,
      precision: 0.5,
      maxSteps: 1,
      max: 8,
      rampMs: 100,
      stallFactor: 10,
      tokens: 8,
      paceMs: 10,
    },
    bigStream: { tokens: 2000, streams: 1, readBps: 0 },
    scenarios: { requests: 10, repeats: 1, warmup: 3 },
    profile: { requests: 30, streams: 3 },
    guardrails: { iterations: 50 },
    mcp: { requests: 12, repeats: 1, warmup: 4, concurrencies: [1, 4], harnesses: ['sdk', 'raw'] },
    coldStart: { runs: 1 },
    // The hot tenant with end users added about 12 s and the latency workload's two scope keys a few more;
    // the MCP workload about 15 s (its own gateway process, 4 × 3 short runs).
    deadlineMs: 170_000,
  },
  quick: {
    loadgen: 'go',
    pin: 'auto',
    latency: { requests: 50, repeats: 3, warmup: 60 },
    fixedRates: { rates: [200, 600], durationMs: 1500, warmupMs: 500, warmupRequests: 20 },
    capacity: {
      start: 500,
      factor: 2,
      precision: 0.3,
      maxSteps: 4,
      max: 20_000,
      stepMs: 1500,
      warmupMs: 500,
    },
    streamLatency: { samples: 4, repeats: 1, overlap: 4, ...STREAM },
    streamConcurrency: {
      start: 150,
      factor: 2,
      precision: 0.5,
      maxSteps: 2,
      max: 3200,
      rampMs: 1000,
      stallFactor: 10,
      ...STREAM,
    },
    bigStream: { tokens: 20_000, streams: 3, readBps: 1.5 * 1048576 },
    scenarios: { requests: 30, repeats: 3, warmup: 20 },
    profile: { requests: 400, streams: 10 },
    guardrails: { iterations: 2_000 },
    mcp: { requests: 150, repeats: 3, warmup: 40, concurrencies: [1, 8], harnesses: ['sdk', 'raw'] },
    coldStart: { runs: 3 },
    // A quick run takes about seven minutes on a shared 2-core host (the hot tenant with end users about one
    // of them); the deadline catches a hang, not a slow machine.
    deadlineMs: 10 * 60_000,
  },
  full: {
    loadgen: 'go',
    pin: 'auto',
    latency: { requests: 300, repeats: 5, warmup: 200 },
    fixedRates: { rates: [100, 300, 600, 1000], durationMs: 7000, warmupMs: 1000, warmupRequests: 200 },
    capacity: {
      start: 500,
      factor: 1.6,
      precision: 0.1,
      maxSteps: 8,
      max: 20_000,
      stepMs: 4000,
      warmupMs: 1000,
    },
    streamLatency: { samples: 12, repeats: 3, overlap: 4, ...STREAM },
    streamConcurrency: {
      start: 100,
      factor: 2,
      precision: 0.25,
      maxSteps: 6,
      max: 6400,
      rampMs: 1000,
      stallFactor: 10,
      ...STREAM,
    },
    bigStream: { tokens: 100_000, streams: 3, readBps: 3 * 1048576 },
    scenarios: { requests: 300, repeats: 3, warmup: 50 },
    profile: { requests: 3000, streams: 50 },
    guardrails: { iterations: 10_000 },
    mcp: { requests: 200, repeats: 5, warmup: 50, concurrencies: [1, 8], harnesses: ['sdk', 'raw'] },
    coldStart: { runs: 7 },
    deadlineMs: 30 * 60_000,
  },
};

const HELP = `Usage: node bench/run.mjs [--quick | --smoke] [options]

  (default)          full run, about 20 minutes
  --quick            about 1–2 minutes
  --smoke            a few seconds; what CI runs
  --loadgen go|node  load generator (default: go for full/quick, node for smoke)
  --pin / --no-pin   pin the Worker under test to its own CPU (default: only when the machine is idle)
  --rates 100,500    fixed open-loop rates (requests/s)
  --mock-latency 20  mock latency in ms
  --out DIR          where to write the report (default bench/results)
  --only LIST        workloads to run: latency,rates,capacity,streams,memory,scenarios,guardrails,mcp,hot-tenant,
                     hot-tenant-users (also under hot-tenant),profile,capacity-model,cold-start
`;

export function readArgs(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean' },
      smoke: { type: 'boolean' },
      loadgen: { type: 'string' },
      pin: { type: 'boolean' },
      'no-pin': { type: 'boolean' },
      rates: { type: 'string' },
      'mock-latency': { type: 'string' },
      out: { type: 'string' },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const mode = values.smoke ? 'smoke' : values.quick ? 'quick' : 'full';
  const profile = structuredClone(PROFILES[mode]);
  if (values.loadgen) profile.loadgen = values.loadgen;
  if (values.pin) profile.pin = true;
  if (values['no-pin']) profile.pin = false;
  if (values.rates)
    profile.fixedRates.rates = values.rates
      .split(',')
      .map(Number)
      .filter((n) => n > 0);
  const mock = {
    ...MOCK,
    latencyMs: values['mock-latency'] ? Number(values['mock-latency']) : MOCK.latencyMs,
  };
  const only = values.only ? new Set(values.only.split(',')) : null;
  return { mode, profile, mock, out: values.out ?? null, runs: (name) => only === null || only.has(name) };
}
