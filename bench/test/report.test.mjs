// Report pieces that are pure: stream health verdicts, chart series and the Markdown tables.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chartSeries, latencyChart, niceCeil } from '../lib/chart.mjs';
import { endUserLines, markdownReport, ms, summaryTable } from '../lib/report.mjs';
import { chatJob, rotatedBy, target } from '../lib/targets.mjs';
import { streamsHealthy } from '../lib/workloads/streaming.mjs';

const stream = (over = {}) => ({ status: 200, events: 67, done: true, max_gap_us: 25_000, ...over });

test('a concurrency level passes only when every stream is whole, terminated and never stalled', () => {
  assert.deepEqual(streamsHealthy([stream(), stream()], 67, 200_000), { pass: true, reasons: [] });
  assert.deepEqual(streamsHealthy([stream(), stream({ events: 40 })], 67, 200_000).reasons, ['1 incomplete']);
  assert.deepEqual(streamsHealthy([stream({ done: false })], 67, 200_000).reasons, ['1 incomplete']);
  assert.deepEqual(streamsHealthy([stream({ max_gap_us: 250_000 })], 67, 200_000).reasons, ['1 stalled']);
  assert.deepEqual(
    streamsHealthy([stream({ status: 502 }), stream({ err: 'timeout' })], 67, 200_000).reasons,
    ['2 failed'],
  );
});

const run = (target, targetRps, p50, p99, sustained = true) => ({
  target,
  targetRps,
  p50,
  p99,
  sustained,
  achievedRps: targetRps,
  errors: 0,
  sent: 10,
  max: p99,
  cpuMsPerRequest: 1,
  upstreamCpuMsPerRequest: 0.5,
  clientCpuPct: 5,
});

const results = {
  meta: {
    date: '2026-01-02T03:04:05.000Z',
    mode: 'quick',
    mock: { latencyMs: 20, tokens: 16 },
    machine: {
      cpus: 2,
      cpuModel: 'x',
      memoryGiB: 24,
      os: 'linux',
      node: 'v20',
      workerd: '1',
      miniflare: '4',
      wrangler: '4',
      commit: 'abc',
      loadAverage: [0, 0, 0],
    },
    cpuLayout: 'not pinned',
    loadgen: 'go',
    idleRssMiB: { mock: 50, floor: 50, gateway: 90, 'gateway-consumer': 95 },
  },
  rates: [
    run('direct', 100, 21, 25),
    run('edgeway', 100, 23, 30),
    run('floor', 100, 22, 26),
    run('floor-relay', 100, 22, 27),
    { ...run('edgeway-consumer', 100, 24, 34), cpuMsPerRequest: 1.2 },
    run('edgeway', 500, 40, 900, false),
  ],
  capacity: {
    edgeway: {
      sustainedRps: 300,
      capped: false,
      history: [
        { level: 300, pass: true, reasons: [], p50: 24, p99: 60 },
        { level: 500, pass: false, reasons: ['p99 1200 ms'], p50: 30, p99: 1200 },
      ],
    },
  },
  notes: [],
};

test('chart series merge fixed-rate and search runs per target, ordered by rate', () => {
  const s = chartSeries(results);
  assert.deepEqual(
    s.edgeway.map((p) => p.rate),
    [100, 300, 500],
  );
  assert.equal(s.edgeway[2].p99, 1200, 'the search step replaces the fixed run at the same rate');
  const svg = latencyChart(results);
  assert.match(svg, /^<svg /);
  assert.match(svg, /p99 bound/);
  assert.deepEqual([1234, 5400, 100, 0].map(niceCeil), [1500, 6000, 100, 1]);
});

test('the summary compares CPU at the highest rate every target sustained, and the report renders every section present', () => {
  const table = summaryTable(results);
  // direct, floor, relay floor, Edgeway, Edgeway with its log consumer in its process: each has its column.
  assert.match(table, /\| Edgeway \| Edgeway, log consumer in its process \| Edgeway − direct \|/);
  assert.match(
    table,
    /CPU ms per request of the Worker's process at 100\/s \| 1\.00 \| 1\.00 \| 1\.00 \| 1\.00 \| 1\.20 \| {2}\| \+0\.00 \|/,
  );
  assert.match(table, /\| RSS after start, MiB \| 50\.0 \| 50\.0 \| – \| 90\.0 \| 95\.0 \|/);
  const md = markdownReport(results, 'chart.svg');
  assert.match(md, /## Open loop at fixed rates/);
  assert.match(md, /!\[Latency against request rate\]\(chart\.svg\)/);
  assert.match(md, /\*\*edgeway: 300 req\/s\*\*/);
  assert.doesNotMatch(md, /## Streaming/);
});

test('numbers are shown with precision that fits their size', () => {
  assert.deepEqual([1.234, 12.34, 123.4, null, Number.NaN].map(ms), ['1.23', '12.3', '123', '–', '–']);
});

test('the latency section lists the relay floor and the difference of each pair within a repeat', () => {
  const one = (median) => ({ median, min: median, max: median, runs: 3 });
  const target = (label, p50) => ({
    label,
    latencyMs: { p50: one(p50), p95: one(p50 + 1), p99: one(p50 + 2) },
    errors: 0,
    requests: 300,
    cpuMsPerRequest: one(1),
    overheadHeaderMs: null,
  });
  const latency = {
    repeats: 3,
    requestsPerRun: 100,
    perTarget: {
      floor: target('floor', 22),
      'floor-relay': target('relay floor', 22.4),
      edgeway: target('Edgeway', 23),
      'edgeway-consumer': target('Edgeway, log consumer in its process', 23.5),
    },
    added: {
      'edgeway − floor': { p50: one(1), p95: one(1), p99: one(1) },
      'edgeway − floor-relay': { p50: one(0.6), p95: one(0.6), p99: one(0.6) },
    },
  };
  const md = markdownReport({ ...results, latency }, 'chart.svg');
  assert.match(md, /\| relay floor \| 22\.4 \(22\.4…22\.4\) \|/);
  assert.match(md, /\| Edgeway, log consumer in its process \| 23\.5 \(23\.5…23\.5\) \|/);
  assert.match(md, /\| edgeway − floor-relay \| \+0\.60 \(\+0\.60…\+0\.60\) \|/);
  assert.match(
    summaryTable({ ...results, latency }),
    /latency p50 at concurrency 1, ms \| – \| 22\.0 \(22\.0…22\.0\) \| 22\.4 \(22\.4…22\.4\) \| 23\.0/,
  );
});

test('the streaming section lists the Responses API targets and says what translation adds over pass-through', () => {
  const one = (median) => ({ median, min: median, max: median, runs: 1 });
  const pcts = (v) => ({ p50: one(v), p95: one(v), p99: one(v + 1) });
  const target = (ttft, gap) => ({ ttftMs: pcts(ttft), gapMs: pcts(gap), incomplete: 0, expectedEvents: 71 });
  const diff = (ttft, gap) => ({ ttftMs: pcts(ttft), gapMs: pcts(gap) });
  const streams = {
    low: {
      samplesPerRun: 4,
      repeats: 1,
      overlap: 4,
      tokens: 64,
      paceMs: 20,
      perTarget: {
        edgeway: target(22, 20),
        'direct-responses': target(21, 20),
        'edgeway-responses': target(23, 20),
        'edgeway-responses-translated': target(24, 20.5),
      },
      added: {
        'edgeway-responses − edgeway': diff(1, 0),
        'edgeway-responses − direct-responses': diff(2, 0),
        'edgeway-responses-translated − edgeway-responses': diff(0.5, 0.25),
      },
    },
    concurrency: { stallMs: 200, perTarget: {} },
  };
  const md = markdownReport({ ...results, streams }, 'chart.svg');
  assert.match(md, /\| edgeway-responses-translated \| 24\.0 \| 25\.0 \| 20\.5 \| 21\.5 \| 71 \| 0 \|/);
  assert.match(md, /\| direct-responses \| 21\.0 \|/);
  assert.match(
    md,
    /Responses API translated \([^)]*\) over Responses same-format pass-through, same run: first event p50 \+0\.50 ms, p99 \+1\.50 ms; gap p50 \+0\.25 ms, p99 \+1\.25 ms\./,
  );
  assert.match(
    md,
    /Responses API pass-through over Chat Completions pass-through[^:]*: first event p50 \+1\.00 ms/,
  );
  assert.match(md, /Responses API pass-through over the mock direct, same run: first event p50 \+2\.00 ms/);
});

test('the end-user key goes on through its users from job to job, and its added latency is judged against +0.1 ms', () => {
  const t = target('edgeway-end-users', {
    url: 'http://x',
    key: 'k',
    model: 'm',
    pid: 1,
    rotateHeaders: { 'x-edgeway-user': ['a', 'b', 'c'] },
  });
  assert.deepEqual(rotatedBy(t, 4).rotateHeaders['x-edgeway-user'], ['b', 'c', 'a']);
  assert.deepEqual(chatJob(rotatedBy(t, 2), '{}', {}).rotate_headers, { 'x-edgeway-user': ['c', 'a', 'b'] });
  const plain = target('edgeway', { url: 'http://x', key: 'k', model: 'm', pid: 1 });
  assert.equal(rotatedBy(plain, 3), plain);
  assert.equal(chatJob(plain, '{}', {}).rotate_headers, undefined);

  const one = (median) => ({ median, min: median - 0.02, max: median + 0.02, runs: 3 });
  const lat = (p50) => ({
    added: {
      'edgeway-end-users − edgeway': { p50: one(p50), p95: one(1), p99: one(0.5) },
      'edgeway-end-users − edgeway-limits': { p50: one(0.04), p95: one(1), p99: one(0.3) },
    },
    scopes: { limitsEngaged: true, endUsers: { users: 1000, spentBySample: { a: 3, b: 3, c: 2 } } },
  });
  const met = endUserLines(lat(0.08)).join('\n');
  assert.match(met, /added p50 \+0\.08 \(\+0\.06…\+0\.10\) ms, p99 \+0\.50 .* over the plain key/);
  assert.match(met, /p50 \+0\.04 .* over the limited key/);
  assert.match(met, /— met in this run/);
  assert.match(met, /counted 3, 3, 2 requests today/);
  const notMet = endUserLines({
    ...lat(0.3),
    scopes: { limitsEngaged: false, endUsers: { users: 1000, spentBySample: { a: 0 } } },
  }).join('\n');
  assert.match(notMet, /\*\*not met\*\*/);
  assert.match(notMet, /\*\*no\*\*/);
  assert.match(notMet, /without x-ratelimit/);
  assert.equal(endUserLines({ added: {} }), null);
});
