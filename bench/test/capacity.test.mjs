// The capacity workload's pure parts: per-batch and per-event figures, lookup timing, limiter figures, growth.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { growth, limiterFigures, logFigures, lookupFigures } from '../capacity/analysis.mjs';
import { capacityModelSection } from '../capacity/report.mjs';

const tally = (over = {}) => ({
  batches: 1,
  statements: 10,
  rowsWritten: 500,
  rowsRead: 1500,
  sizeAfter: 200_000,
  puts: 40,
  putBytes: 25_000,
  ...over,
});
const run = (over = {}) => ({
  batches: 1,
  events: 100,
  messages: 2,
  messageBytes: 80_000,
  acked: 3,
  retried: 0,
  wallMs: 50,
  cpuMs: 20,
  sizeBefore: 130_000,
  tally: tally(),
  ...over,
});

test('log figures sum runs before dividing, per batch and per event', () => {
  const f = logFigures([
    run(),
    run({ events: 300, wallMs: 150, cpuMs: 40, sizeBefore: 200_000, tally: tally({ sizeAfter: 400_000 }) }),
  ]);
  assert.equal(f.events, 400);
  assert.equal(f.batches, 2);
  assert.equal(f.eventsPerSecond, 2000); // 400 events in 200 ms
  assert.equal(f.msPerBatch, 100);
  assert.equal(f.cpuMsPerEvent, 60 / 400);
  assert.equal(f.statementsPerBatch, 10);
  assert.equal(f.rowsWrittenPerEvent, 1000 / 400);
  assert.equal(f.putsPerBatch, 40);
  // Growth is each run's size after less its size before: 70,000 + 200,000 bytes over 400 rows.
  assert.equal(f.d1BytesPerEvent, 270_000 / 400);
  assert.equal(f.failedBatches, 0);
  assert.equal(f.eventsPerMessage, 100); // 400 events in 4 messages
  assert.equal(f.messageBytes, 40_000);
  assert.equal(f.d1BytesPerBatch, 270_000 / 2);
  assert.equal(f.d1BytesPerMessage, 270_000 / 4);
});

test('rollups-only figures: log_ingest rows per message and D1 bytes per batch, not per row', () => {
  const f = logFigures([
    run({ ingestRows: 8, messages: 2, tally: tally({ sizeAfter: 138_192 }) }),
    run({ ingestRows: 4, messages: 2, sizeBefore: 138_192, tally: tally({ sizeAfter: 142_288 }) }),
  ]);
  assert.equal(f.ingestRowsPerMessage, 3); // 12 objects recorded over 4 messages
  assert.equal(f.d1BytesPerBatch, 12_288 / 2);
  assert.equal(f.d1BytesPerMessage, 12_288 / 4);
  // A mode that records no objects says so, rather than leaving the figure out.
  assert.equal(logFigures([run({ ingestRows: 0 })]).ingestRowsPerMessage, 0);
});

test('log figures leave out what was not measured, and count batches that were retried', () => {
  const f = logFigures([run({ cpuMs: null, retried: 2, tally: tally({ sizeAfter: null }) })]);
  assert.equal(f.cpuMsPerEvent, null);
  assert.equal(f.d1BytesPerEvent, null);
  assert.equal(f.failedBatches, 1);
  assert.equal(logFigures([]).eventsPerSecond, null);
});

test('time per lookup is the median request less the median empty request, over its lookups', () => {
  const f = lookupFigures([12, 10, 50], [1, 2, 2], 10);
  assert.equal(f.usPerLookup, ((12 - 2) * 1000) / 10);
  assert.equal(f.requests, 3);
  // A request faster than the baseline's median is not a negative cost.
  assert.equal(lookupFigures([1], [2], 5).usPerLookup, 0);
  assert.equal(lookupFigures([], [1], 5).usPerLookup, null);
});

test('limiter figures come from the highest rate each mode held, not the last step tried', () => {
  const step = (targetRps, sustained, calls) => ({
    targetRps,
    sustained,
    objectCallsPerRequest: calls,
    cpuMsPerRequest: calls,
    latencyMs: { p99: targetRps / 100 },
  });
  const hot = {
    isolates: 4,
    perMode: {
      off: { leases: 'off', topSustainedRps: 500, steps: [step(500, true, 2), step(1000, false, 1.5)] },
      on: { leases: 'on', topSustainedRps: 1000, steps: [step(500, true, 0.01), step(1000, true, 0.002)] },
    },
  };
  const f = limiterFigures(hot, 'file.json');
  assert.equal(f.source, 'file.json');
  assert.deepEqual(f.modes.off, {
    topSustainedRps: 500,
    objectCallsPerRequest: 2,
    cpuMsPerRequest: 2,
    p99Ms: 5,
    triedRps: [500, 1000],
  });
  assert.equal(f.modes.on.objectCallsPerRequest, 0.002);
  assert.equal(limiterFigures(undefined, 'x'), null);
});

test('growth: rows and bytes a day at a steady rate, the size kept, and days until the limit', () => {
  const g = growth({ rps: 100, bytesPerRow: 500, keepDays: 3, limitBytes: 10e9 });
  assert.equal(g.rowsPerDay, 8_640_000);
  assert.equal(g.bytesPerDay, 4.32e9);
  assert.equal(g.steadyBytes, 12.96e9);
  assert.ok(Math.abs(g.shareOfLimit - 1.296) < 1e-9);
  assert.ok(Math.abs(g.daysToLimit - 10e9 / 4.32e9) < 1e-9);
  assert.equal(growth({ rps: 0, bytesPerRow: 500, keepDays: 3 }).daysToLimit, null);
  // The average rate whose steady state is the limit: 10 GB ÷ (500 B × 86,400 s × 3 days).
  assert.ok(Math.abs(g.largestRps - 10e9 / (500 * 86_400 * 3)) < 1e-9);
  assert.ok(Math.abs(growth({ rps: 7, bytesPerRow: 500, keepDays: 3 }).largestRps - g.largestRps) < 1e-9);
});

test('growth per producer batch: units a day divide by the requests each carries', () => {
  const g = growth({ rps: 100, bytesPerRow: 1000, keepDays: 30, requestsPerUnit: 40 });
  assert.equal(g.rowsPerDay, 216_000); // 8,640,000 requests in messages of 40
  assert.equal(g.bytesPerDay, 216e6);
  assert.equal(g.steadyBytes, 6.48e9);
  assert.ok(Math.abs(g.largestRps - 10e9 / (25 * 86_400 * 30)) < 1e-9); // 25 bytes a request
  // Per unit of one request it is the per-row model.
  const row = growth({ rps: 100, bytesPerRow: 25, keepDays: 30 });
  assert.equal(row.steadyBytes, g.steadyBytes);
});

test('the report section shows each mode, each tier and says when no limiter figures were found', () => {
  const logs = [
    { payloadShare: 0.2, mode: 'whole', archive: false, ...logFigures([run()]) },
    { payloadShare: 0.2, mode: 'index', archive: true, ...logFigures([run()]) },
    { payloadShare: 0.2, mode: 'rollups', archive: true, ...logFigures([run({ ingestRows: 6 })]) },
  ];
  const md = capacityModelSection({
    shape: { messages: 100, lo: 20, hi: 50, tenants: 4, requestChars: 2000, responseChars: 1000 },
    logs,
    keys: { memory: lookupFigures([5], [1], 1000), d1: lookupFigures([30], [1], 10) },
    limiter: null,
    growth: [
      {
        payloadShare: 0.2,
        mode: 'index',
        archive: true,
        r2BytesPerRequest: 250,
        ...growth({ rps: 100, bytesPerRow: 700, keepDays: 3 }),
      },
      {
        payloadShare: 0.2,
        mode: 'rollups',
        archive: true,
        r2BytesPerRequest: 250,
        ...growth({ rps: 100, bytesPerRow: 1000, keepDays: 30, requestsPerUnit: 40 }),
      },
    ],
  });
  assert.match(md, /\| 20 % \| whole rows in D1 \| 100 \| 50\.0 \| 40\.0 \| 2,000 \|/);
  assert.match(md, /\| 20 % \| archive \(R2 \+ D1 index\) \|/);
  // 70,000 bytes over one batch of 100 events; 6 objects over 2 messages.
  assert.match(md, /\| 20 % \| archive, rollups only \| 100 \|.* \| 700 \| 70,000 \| 3\.00 \|/);
  assert.match(md, /\| memory \| 4\.0 \| 1,000 \|/);
  assert.match(md, /\| d1 \| 2900\.0 \| 10 \|/);
  assert.match(md, /No hot-tenant result found/);
  assert.match(md, /\| 8,640,000 \| 700 \| 6\.05 GB \| 3 \| 18\.14 GB \| 55 \| 2\.16 GB \|/);
  assert.match(md, /rollups only \| 216,000 \| 1,000 \| 0\.22 GB \| 30 \| 6\.48 GB \| 154 \| 2\.16 GB \|/);
});
