/**
 * The capacity model's measured parts (bench/capacity driver, its own workerd
 * process, real D1, R2 and KV bindings):
 *   1. the log write path: production-shaped queue batches (up to 100
 *      messages of 20–50 events) handed one after another to the real
 *      consumer in three modes, rotated: without the archive (whole rows in
 *      D1), with it (R2 objects, the slim D1 index, rollups) and with it and
 *      rollups only (LOG_INDEX_DAYS = 0: R2 objects, one log_ingest row per
 *      object, rollups), each into its own database; events a second, D1
 *      statements and rows written per batch, R2 puts per batch, D1 bytes
 *      per row or per batch; for a few payload shares;
 *   2. key lookups through the real TieredKeyStore: isolate memory, KV, D1
 *      (KV miss, D1 read, KV write-back), unknown (KV and D1 miss);
 *   3. the limiter figures of a hot-tenant result (this run's, else the
 *      newest in bench/results), not measured again here.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { growth, limiterFigures, logFigures, lookupFigures } from '../../capacity/analysis.mjs';
import { CONFIG, startDriver } from '../../capacity/start.mjs';
import { cpuMs } from '../procstat.mjs';
import { ROOT, bundle } from '../stack.mjs';

/** Per bench mode: messages per queue batch, queue batches per consume run, alternating rounds, payload shares; lookups per tier. */
export const CAPACITY_PROFILES = {
  smoke: { messages: 25, batches: 1, rounds: 1, shares: [0.2], keys: { n: 20, reps: 2, memoryN: 2000 } },
  quick: {
    messages: 100,
    batches: 2,
    rounds: 2,
    shares: [0, 0.2, 1],
    keys: { n: 100, reps: 3, memoryN: 20_000 },
  },
  full: {
    messages: 100,
    batches: 4,
    rounds: 3,
    shares: [0, 0.2, 1],
    keys: { n: 200, reps: 5, memoryN: 50_000 },
  },
};
const SHAPE = { messages: 100, lo: 20, hi: 50, tenants: 4, requestChars: 2000, responseChars: 1000 };
const GROWTH_RPS = 100;
/** The log modes, each with its own database in the driver (bench/capacity/wrangler.toml). */
export const LOG_MODES = ['whole', 'index', 'rollups'];

export async function capacityWorkload(ctx, { mode, hotTenant = null }) {
  const p = CAPACITY_PROFILES[mode];
  const worker = await startDriver(bundle(CONFIG, 'capacity'));
  try {
    const call = driverCalls(worker.url);
    const shape = { ...SHAPE, messages: p.messages };
    const logs = await logWorkload(ctx, call, worker.pid, p, shape);
    const keys = await keyWorkload(ctx, call, p.keys);
    const limiter = hotTenant ? limiterFigures(hotTenant, 'this run') : newestHotTenant();
    return { shape, logs, keys, limiter, growth: growthFigures(logs) };
  } catch (err) {
    err.message += `\n--- workerd output (tail) ---\n${worker.output().slice(-2000)}`;
    throw err;
  } finally {
    await worker.dispose();
  }
}

/** Fetch, naming the cause of a connection failure; a GET (read only) is tried once more after one. */
async function send(url, method) {
  try {
    return await fetch(url, { method });
  } catch (err) {
    if (method === 'GET') return fetch(url, { method });
    err.message += ` (${err.cause?.code ?? ''} ${err.cause?.message ?? ''})`;
    throw err;
  }
}

function driverCalls(base) {
  return async (method, path, params = {}) => {
    const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
    const res = await send(`${base}${path}?${query}`, method);
    const text = await res.text();
    if (!res.ok) throw new Error(`capacity driver ${path} → ${res.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text);
  };
}

async function logWorkload(ctx, call, pid, p, shape) {
  const runs = {};
  for (let round = 0; round < p.rounds; round++)
    for (const [i, payloadShare] of p.shares.entries()) {
      // Rotate which mode goes first, so none always meets the warmer process.
      const first = (round + i) % LOG_MODES.length;
      const order = [...LOG_MODES.slice(first), ...LOG_MODES.slice(0, first)];
      for (const mode of order) {
        const before = await call('GET', '/logs/tables', { mode });
        const prepared = await call('POST', '/logs/prepare', {
          ...shape,
          payloadShare,
          batches: p.batches,
          seed: round * 10 + i + 1,
        });
        const cpu0 = cpuMs(pid);
        const t0 = performance.now();
        const out = await call('POST', '/logs/consume', { mode });
        const wallMs = performance.now() - t0;
        // The consumer retries a batch whose write failed instead of throwing: its time would not be a write's.
        if (out.retried > 0) throw new Error(`the consumer retried ${out.retried} messages: a write failed`);
        const cpu1 = cpuMs(pid);
        const after = await call('GET', '/logs/tables', { mode });
        const run = { ...out, wallMs, cpuMs: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0 };
        run.sizeBefore = before.sizeBytes;
        run.ingestRows = after.ingestRows - before.ingestRows;
        run.messages = prepared.messages;
        run.messageBytes = prepared.messageBytes;
        const key = `${payloadShare}:${mode}`;
        runs[key] = [...(runs[key] ?? []), run];
        ctx.log(
          `  capacity · logs · payloads ${payloadShare * 100}% · ${mode} · ${out.events} events in ${wallMs.toFixed(0)} ms, ${out.tally.statements} statements, ${out.tally.puts} puts`,
        );
      }
    }
  return Object.entries(runs).map(([key, list]) => {
    const [share, mode] = key.split(':');
    return { payloadShare: Number(share), mode, archive: mode !== 'whole', ...logFigures(list) };
  });
}

/** The key store's miss budget refill rate (src/storage/tiered-lookup.ts, STORE_MISSES.perSecond). */
const MISS_REFILL_PER_S = 100;

async function keyWorkload(ctx, call, { n, reps, memoryN }) {
  const unknownN = Math.min(n, 50);
  await call('POST', '/keys/seed', { prefix: 'mem_', n: 1 });
  await call('POST', '/keys/seed', { prefix: 'kv_', n: n * reps, kv: 1 });
  await call('POST', '/keys/seed', { prefix: 'd1_', n: n * reps });
  const timed = async (params, expectFound) => {
    const t0 = performance.now();
    const out = await call('POST', '/keys/lookup', params);
    const ms = performance.now() - t0;
    if (out.found !== expectFound)
      throw new Error(`key lookup ${JSON.stringify(params)} found ${out.found}, expected ${expectFound}`);
    return ms;
  };
  const baseline = [];
  for (let i = 0; i < reps * 3; i++) baseline.push(await timed({ n: 0 }, 0));
  await timed({ hash: 'mem_0', n: 1 }, 1);
  const tiers = {
    memory: { per: memoryN, run: () => timed({ hash: 'mem_0', n: memoryN }, memoryN) },
    kv: { per: n, run: (i) => timed({ prefix: 'kv_', from: i * n, n }, n) },
    d1: { per: n, run: (i) => timed({ prefix: 'd1_', from: i * n, n }, n) },
    // Unknown hashes spend the store's miss budget (src/storage/tiered-lookup.ts STORE_MISSES: a burst of
    // 200, refilled at 100/s); each run waits for it to refill, or a full run's later reps answer 503.
    unknown: {
      per: unknownN,
      run: async (i) => {
        await new Promise((r) => setTimeout(r, Math.ceil((unknownN / MISS_REFILL_PER_S) * 1000) + 100));
        return timed({ prefix: 'none_', from: i * unknownN, n: unknownN }, 0);
      },
    },
  };
  const out = {};
  for (const [tier, { per, run }] of Object.entries(tiers)) {
    const samples = [];
    for (let i = 0; i < reps; i++) samples.push(await run(i));
    out[tier] = lookupFigures(samples, baseline, per);
    ctx.log(`  capacity · key lookup · ${tier}: ${out[tier].usPerLookup?.toFixed(1)} µs each`);
  }
  return out;
}

/** The newest bench result holding a hot-tenant section, as limiter figures; null when there is none. */
function newestHotTenant() {
  const dir = join(ROOT, 'bench', 'results');
  let files = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return null;
  }
  for (const f of files.sort().reverse()) {
    try {
      const r = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      if (r['hot-tenant']) return limiterFigures(r['hot-tenant'], `bench/results/${f}`);
    } catch {
      // A file being written or not a bench result: look further back.
    }
  }
  return null;
}

/**
 * D1 growth at GROWTH_RPS with each mode's measured bytes, kept as long as retention keeps them: whole
 * rows LOG_RETENTION_DAYS, the index LOG_INDEX_DAYS, and in the rollups-only mode the log_ingest rows and
 * receipts of each producer batch LOG_RETENTION_DAYS (src/logs/retention.ts).
 */
function growthFigures(logs) {
  const vars = unstable_getMiniflareWorkerOptions(join(ROOT, 'wrangler.toml')).workerOptions.bindings ?? {};
  const retention = Number(vars.LOG_RETENTION_DAYS ?? 30);
  const keep = { whole: retention, index: Number(vars.LOG_INDEX_DAYS ?? 3), rollups: retention };
  return logs
    .filter((l) => Number.isFinite(l.d1BytesPerEvent))
    .map((l) => {
      const perBatch = l.mode === 'rollups' && Number.isFinite(l.eventsPerMessage);
      return {
        payloadShare: l.payloadShare,
        mode: l.mode,
        archive: l.archive,
        r2BytesPerRequest: l.archive ? l.putBytesPerEvent : 0,
        ...growth({
          rps: GROWTH_RPS,
          bytesPerRow: perBatch ? l.d1BytesPerMessage : l.d1BytesPerEvent,
          requestsPerUnit: perBatch ? l.eventsPerMessage : 1,
          keepDays: keep[l.mode],
        }),
      };
    });
}
