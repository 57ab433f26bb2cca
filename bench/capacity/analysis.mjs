/**
 * Pure arithmetic of the capacity workload: the log write path's figures per
 * queue batch and per event (throughput, D1 statements and rows, R2 puts,
 * bytes per row), time per key lookup net of the request's own cost, the
 * limiter figures taken from a hot-tenant result, and D1 growth at a steady
 * request rate. No I/O, so bench/test/capacity.test.mjs covers it.
 */
import { percentile } from '../lib/stats.mjs';

const per = (a, b) => (b > 0 && Number.isFinite(a) ? a / b : null);

/**
 * One mode's consume runs summed: each run is the driver's /logs/consume answer with the harness's wall
 * time, the workerd process's CPU over it, the database's size before it and the log_ingest rows it added
 * (`ingestRows`, the rollups-only mode's one row per archive object).
 */
export function logFigures(runs) {
  const sum = (f) => runs.reduce((n, r) => n + f(r), 0);
  const events = sum((r) => r.events);
  const batches = sum((r) => r.batches);
  const wallMs = sum((r) => r.wallMs);
  const cpu = runs.every((r) => Number.isFinite(r.cpuMs)) ? sum((r) => r.cpuMs) : null;
  const grown = runs.every((r) => Number.isFinite(r.tally.sizeAfter) && Number.isFinite(r.sizeBefore))
    ? sum((r) => r.tally.sizeAfter - r.sizeBefore)
    : null;
  const t = (k) => sum((r) => r.tally[k]);
  return {
    runs: runs.length,
    batches,
    events,
    failedBatches: sum((r) => (r.retried > 0 ? 1 : 0)),
    eventsPerSecond: per(events * 1000, wallMs),
    msPerBatch: per(wallMs, batches),
    cpuMsPerEvent: cpu === null ? null : per(cpu, events),
    statementsPerBatch: per(t('statements'), batches),
    rowsWrittenPerBatch: per(t('rowsWritten'), batches),
    rowsWrittenPerEvent: per(t('rowsWritten'), events),
    rowsReadPerEvent: per(t('rowsRead'), events),
    putsPerBatch: per(t('puts'), batches),
    putBytesPerEvent: per(t('putBytes'), events),
    eventsPerMessage: per(
      events,
      sum((r) => r.messages ?? 0),
    ),
    messageBytes: per(
      sum((r) => r.messageBytes ?? 0),
      sum((r) => r.messages ?? 0),
    ),
    d1BytesPerEvent: grown === null ? null : per(grown, events),
    d1BytesPerBatch: grown === null ? null : per(grown, batches),
    d1BytesPerMessage:
      grown === null
        ? null
        : per(
            grown,
            sum((r) => r.messages ?? 0),
          ),
    ingestRowsPerMessage: per(
      sum((r) => r.ingestRows ?? 0),
      sum((r) => r.messages ?? 0),
    ),
  };
}

/**
 * Time per lookup of one tier: the median request's wall time less the median of empty requests
 * (the request's own cost), over the lookups each request made.
 */
export function lookupFigures(samplesMs, baselineMs, lookupsPerRequest) {
  const median = percentile(samplesMs, 50);
  const b = percentile(baselineMs, 50);
  const base = Number.isFinite(b) ? b : 0;
  if (!Number.isFinite(median) || !lookupsPerRequest)
    return { requests: samplesMs.length, usPerLookup: null };
  return {
    requests: samplesMs.length,
    lookupsPerRequest,
    usPerLookup: (Math.max(0, median - base) * 1000) / lookupsPerRequest,
  };
}

/**
 * The limiter's figures from a hot-tenant result (bench/lib/workloads/hot-tenant.mjs): per limits mode,
 * the highest rate held, and at that rate the object calls and CPU per request and the p99.
 */
export function limiterFigures(hot, source) {
  if (!hot?.perMode) return null;
  const modes = {};
  for (const m of Object.values(hot.perMode)) {
    const held = m.steps.filter((s) => s.sustained);
    const top = held.reduce((a, s) => (a === null || s.targetRps > a.targetRps ? s : a), null);
    modes[m.leases] = {
      topSustainedRps: m.topSustainedRps ?? top?.targetRps ?? 0,
      objectCallsPerRequest: top?.objectCallsPerRequest ?? null,
      cpuMsPerRequest: top?.cpuMsPerRequest ?? null,
      p99Ms: top?.latencyMs?.p99 ?? null,
      triedRps: m.steps.map((s) => s.targetRps),
    };
  }
  return { source, isolates: hot.isolates, modes };
}

/**
 * D1 growth at `rps` requests a second: units and bytes a day, and the size the log tables settle at when
 * kept `keepDays` (retention deletes older ones), against D1's per-database limit. The unit is a request
 * (`requestsPerUnit` 1: a request_logs row) or, in the rollups-only mode, a producer batch (a queue
 * message, `requestsPerUnit` its events: its log_ingest rows and receipt). `largestRps` is the average
 * rate whose steady state just fills the limit.
 */
export function growth({ rps, bytesPerRow, keepDays, requestsPerUnit = 1, limitBytes = 10e9 }) {
  const rowsPerDay = (rps * 86_400) / requestsPerUnit;
  const bytesPerDay = rowsPerDay * bytesPerRow;
  const steadyBytes = bytesPerDay * keepDays;
  const bytesPerRequestKept = (bytesPerRow / requestsPerUnit) * 86_400 * keepDays;
  return {
    rps,
    bytesPerRow,
    requestsPerUnit,
    rowsPerDay,
    bytesPerDay,
    keepDays,
    steadyBytes,
    shareOfLimit: steadyBytes / limitBytes,
    daysToLimit: bytesPerDay > 0 ? limitBytes / bytesPerDay : null,
    largestRps: bytesPerRequestKept > 0 ? limitBytes / bytesPerRequestKept : null,
  };
}
