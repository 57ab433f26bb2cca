/**
 * The load generator in Node, for the smoke run and machines without Go. Same
 * job and result shapes as bench/loadgen (see its header). Node's one thread
 * saturates long before workerd does, so the full bench prefers the Go binary;
 * at the smoke's few requests per second this one is accurate enough.
 */
import http from 'node:http';
import { intendedOffsetUs, plannedCount } from './rate.mjs';

const now = () => performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

function newResult() {
  return {
    samples: { start_us: [], lat_us: [], status: [] },
    errors: {},
    header_counts: {},
    header_values: {},
    wall_ms: 0,
    max_lag_us: 0,
    client_cpu_ms: 0,
  };
}

/** Request i's headers: the fixed ones, then each of `rotate_headers` at its values[i % n]. */
export function headersOf(job, i) {
  const out = { ...job.headers };
  for (const [name, values] of Object.entries(job.rotate_headers ?? {}))
    if (values.length) out[name] = values[i % values.length];
  return out;
}

/** Request i (body: bodies[i % n] or body); resolves { status, headers, err } after the last byte, calling onData per chunk. */
function send(agent, job, i, onData) {
  return new Promise((resolve) => {
    const url = new URL(job.url);
    const text = job.bodies?.length ? job.bodies[i % job.bodies.length] : job.body;
    const body = text ? Buffer.from(text) : null;
    const req = http.request(
      {
        agent,
        method: body ? 'POST' : 'GET',
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        headers: { ...headersOf(job, i), ...(body ? { 'content-length': body.length } : {}) },
      },
      (res) => {
        res.on('data', (chunk) => onData?.(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, err: null }));
        res.on('error', (e) => resolve({ status: 0, headers: null, err: e }));
      },
    );
    req.setTimeout(job.timeout_ms ?? 10_000, () =>
      req.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })),
    );
    req.on('error', (e) => resolve({ status: 0, headers: null, err: e }));
    req.end(body ?? undefined);
  });
}

function record(result, job, startUs, latUs, { status, headers, err }) {
  result.samples.start_us.push(Math.round(startUs));
  result.samples.lat_us.push(Math.round(latUs));
  result.samples.status.push(err ? 0 : status);
  const kind = err
    ? err.code === 'timeout' || err.code?.startsWith('client:')
      ? err.code
      : `transport: ${err.code ?? err.message}`
    : status < 200 || status >= 300
      ? `http ${status}`
      : '';
  if (kind) result.errors[kind] = (result.errors[kind] ?? 0) + 1;
  if (!headers) return;
  for (const name of job.count_headers ?? []) {
    result.header_counts[name] ??= {};
    const counts = result.header_counts[name];
    const value = String(headers[name] ?? '');
    counts[value] = (counts[value] ?? 0) + 1;
  }
  for (const name of job.numeric_headers ?? []) {
    const v = Number(headers[name]);
    if (headers[name] === undefined || !Number.isFinite(v)) continue;
    result.header_values[name] ??= [];
    result.header_values[name].push(v);
  }
}

async function closed(job, agent, result, t0) {
  let next = 0;
  const worker = async () => {
    while (next < job.requests) {
      const i = next++;
      const start = now();
      const outcome = await send(agent, job, i);
      record(result, job, (start - t0) * 1000, (now() - start) * 1000, outcome);
    }
  };
  await Promise.all(Array.from({ length: job.concurrency ?? 1 }, worker));
}

async function open(job, agent, result, t0) {
  const n = plannedCount(job.rate, job.duration_ms);
  const pending = [];
  let inFlight = 0;
  for (let i = 0; i < n; i++) {
    const dueMs = intendedOffsetUs(i, job.rate) / 1000;
    const wait = t0 + dueMs - now();
    if (wait > 0) await sleep(wait);
    else result.max_lag_us = Math.max(result.max_lag_us, Math.round(-wait * 1000));
    if (inFlight >= (job.max_in_flight ?? 20_000)) {
      record(result, job, dueMs * 1000, 0, {
        status: 0,
        headers: null,
        err: { code: 'client: too many in flight' },
      });
      continue;
    }
    inFlight++;
    pending.push(
      send(agent, job, i).then((outcome) => {
        inFlight--;
        record(result, job, dueMs * 1000, (now() - t0 - dueMs) * 1000, outcome);
      }),
    );
  }
  await Promise.all(pending);
}

/** What ends a Chat Completions stream; a job's `done_marker` names another (Responses: `event: response.completed`). */
export const DEFAULT_DONE_MARKER = 'data: [DONE]';

/**
 * A scanner for the done marker anywhere in a stream read chunk by chunk (keeping the last
 * marker.length − 1 bytes, so a marker split across reads is found): called per chunk, it returns
 * the index in that chunk just past the marker's last byte, or -1; after the first find, always -1.
 */
export function markerScan(marker) {
  const needle = Buffer.from(marker, 'latin1');
  const k = needle.length;
  let carry = Buffer.alloc(0);
  let found = false;
  return (chunk) => {
    if (found || k === 0) return -1;
    const joined = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    const i = joined.indexOf(needle);
    if (i >= 0) {
      found = true;
      return i + k - carry.length;
    }
    carry = Buffer.from(joined.subarray(Math.max(0, joined.length - (k - 1))));
    return -1;
  };
}

async function oneStream(job, agent, t0, dueMs, i) {
  const r = {
    start_us: Math.round(dueMs * 1000),
    status: 0,
    first_event_us: -1,
    end_us: 0,
    events: 0,
    done: false,
    bytes: 0,
    max_gap_us: 0,
    gaps_us: [],
  };
  let prevNewline = false;
  let last = -1;
  const scan = markerScan(job.done_marker || DEFAULT_DONE_MARKER);
  // Where in the current chunk the marker ended (0 once it ended in an earlier chunk, -1 before).
  let markerEnd = -1;
  const outcome = await send(agent, job, i, (chunk) => {
    const t = (now() - t0) * 1000;
    r.bytes += chunk.length;
    if (markerEnd > 0) markerEnd = 0;
    const end = scan(chunk);
    if (end >= 0) markerEnd = end;
    for (let j = 0; j < chunk.length; j++) {
      if (chunk[j] !== 10) {
        prevNewline = false;
        continue;
      }
      if (!prevNewline) {
        prevNewline = true;
        continue;
      }
      prevNewline = false;
      r.events++;
      if (markerEnd >= 0 && j >= markerEnd) r.done = true;
      if (last < 0) r.first_event_us = Math.round(t - r.start_us);
      else {
        const gap = Math.round(t - last);
        r.max_gap_us = Math.max(r.max_gap_us, gap);
        if (job.gaps) r.gaps_us.push(gap);
      }
      last = t;
    }
  });
  r.status = outcome.status;
  if (outcome.err) r.err = outcome.err.code ?? outcome.err.message;
  r.end_us = Math.round((now() - t0) * 1000);
  return r;
}

/** Runs one job (see bench/loadgen/main.go for the fields) and returns the same result shape. */
export async function runNodeJob(job) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const result = newResult();
  const cpu0 = process.cpuUsage();
  const t0 = now();
  try {
    if (job.mode === 'closed') await closed(job, agent, result, t0);
    else if (job.mode === 'open') await open(job, agent, result, t0);
    else if (job.mode === 'stream') {
      const n = job.streams;
      result.streams = await Promise.all(
        Array.from({ length: n }, async (_, i) => {
          const dueMs = n > 1 ? (job.ramp_ms * i) / n : 0;
          await sleep(t0 + dueMs - now());
          return oneStream(job, agent, t0, dueMs, i);
        }),
      );
    } else throw new Error(`unknown loadgen mode ${job.mode}`);
  } finally {
    agent.destroy();
  }
  result.wall_ms = now() - t0;
  const cpu = process.cpuUsage(cpu0);
  result.client_cpu_ms = (cpu.user + cpu.system) / 1000;
  return result;
}
