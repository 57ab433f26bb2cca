// The cold-start workload's pure parts: startup CPU read from a .cpuprofile, and its report rows.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { SAMPLING_INTERVAL_MS, bundleSize, startupCpu } from '../lib/cold-start.mjs';
import { markdownReport, summaryTable } from '../lib/report.mjs';

const frame = (functionName, url = '', lineNumber = -1) => ({ functionName, scriptId: '1', url, lineNumber });
/** A profile of `samples` (node ids) taken `deltas` µs apart. */
const profile = (samples, deltas) => ({
  nodes: [
    { id: 1, callFrame: frame('(root)') },
    { id: 2, callFrame: frame('(idle)') },
    { id: 3, callFrame: frame('(program)') },
    { id: 4, callFrame: frame('(garbage collector)') },
    { id: 5, callFrame: frame('', 'worker/index.js', 0) },
    { id: 6, callFrame: frame('init', 'worker/index.js', 900) },
  ],
  samples,
  timeDeltas: deltas,
  startTime: 0,
  endTime: deltas.reduce((a, b) => a + b, 0),
});

test('startup CPU counts JavaScript and GC samples at the sampling interval, not idle or program time', () => {
  // The 50 ms gap is the thread descheduled on a busy machine: not CPU the Worker used.
  const p = profile([2, 3, 5, 6, 6, 4, 6, 2], [40_000, 1000, 1000, 1000, 50_000, 1000, 1000, 1000]);
  const cpu = startupCpu(p);
  assert.equal(cpu.samples, 8);
  assert.equal(cpu.ms, 5 * SAMPLING_INTERVAL_MS);
  assert.equal(cpu.gcMs, SAMPLING_INTERVAL_MS);
  assert.deepEqual(cpu.top[0], { fn: 'init index.js:901', ms: 3 });
  assert.deepEqual(
    cpu.top.map((t) => t.fn),
    ['init index.js:901', '(top level) index.js:1', '(garbage collector) :0'],
  );
});

test('a profile with no JavaScript sample reads 0 ms', () => {
  assert.equal(startupCpu(profile([2, 3, 3], [5000, 1000, 1000])).ms, 0);
});

test("a bundle's size is its bytes and its gzip at zlib's default level, in KiB", () => {
  const dir = mkdtempSync(join(tmpdir(), 'cold-start-'));
  const file = join(dir, 'index.js');
  const text = 'export default {};\n'.repeat(200);
  writeFileSync(file, text);
  assert.deepEqual(bundleSize(file), {
    rawKiB: text.length / 1024,
    gzipKiB: gzipSync(Buffer.from(text)).length / 1024,
  });
});

test('the report shows each Worker’s bundle and startup CPU, in the summary and its own section', () => {
  const t = (rawKiB, gzipKiB, startupMs) => ({
    rawKiB,
    gzipKiB,
    startupMs,
    runsMs: [startupMs],
    samples: 9,
    top: [],
  });
  const results = {
    meta: {
      date: '2026-01-02T03:04:05.000Z',
      mode: 'smoke',
      mock: { latencyMs: 20, tokens: 16 },
      machine: { cpus: 2, cpuModel: 'x', memoryGiB: 8, os: 'linux', node: 'v20', loadAverage: [0, 0, 0] },
    },
    notes: [],
    'cold-start': {
      runs: 1,
      perTarget: { floor: t(0.4, 0.3, 1.2), 'floor-relay': t(2.1, 1, 1.5), edgeway: t(729.4, 291.6, 41.3) },
    },
  };
  const summary = summaryTable(results);
  assert.match(
    summary,
    /\| bundle as deployed, KiB \(gzipped\) \| {2}\| 0\.4 \(0\.3\) \| 2\.1 \(1\.0\) \| 729 \(292\) \|/,
  );
  assert.match(summary, /\| startup CPU \(wrangler check startup\), ms \| {2}\| 1\.20 \| 1\.50 \| 41\.3 \|/);
  assert.match(
    markdownReport(results, 'x.svg'),
    /## Cold start[^\n]*\n[\s\S]*\| edgeway \| 729 \| 292 \| 41\.3 \| 41 \|/,
  );
});
