/**
 * Where Edgeway's CPU goes, per pipeline stage: a V8 CPU profile of the gateway
 * isolate (workerd's inspector, sampling every 100 µs) taken during a load run,
 * with self time attributed to the source file that owns each sampled line of
 * the bundle (esbuild marks every module with a `// src/…` comment). This is
 * how per-stage cost is known locally: workerd freezes `performance.now()`
 * during execution, so the gateway cannot time its own stages
 * (x-edgeway-overhead-ms reads 0 or whole I/O waits here).
 * Uses the `ws` client that Miniflare depends on; without it, profiling is skipped.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** Module sections of an esbuild bundle: [{ line (0-based), name }] in file order. */
export function bundleSections(source) {
  const out = [];
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^\/\/ ((?:src|node_modules|workers)\/\S+)$/.exec(lines[i]);
    if (m) out.push({ line: i, name: m[1] });
  }
  return out;
}

/** Groups a module path for the report: src files stay, packages collapse to their name. */
export function moduleGroup(path) {
  const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  return pkg ? `${pkg[1]} (package)` : path;
}

/** The section owning a 0-based line (binary search), or null before the first. */
function sectionAt(sections, line) {
  let lo = 0;
  let hi = sections.length - 1;
  let found = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sections[mid].line <= line) {
      found = sections[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * Self time (ms) per module from a Chrome CPU profile. A runtime built-in
 * (fetch, JSON.parse, crypto.subtle, a binding call…) has no script of its own;
 * its time is charged to the bundle module that called it, and also counted by
 * name in `natives`, so "which stage" and "doing what" both show. What remains
 * is V8's own: (garbage collector), (program) = outside any JS frame.
 */
export function selfTimeByModule(profile, sections, bundleUrlPart = 'index.js') {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inBundle = (n) => n.callFrame.url?.includes(bundleUrlPart);
  const owner = new Map();
  const ownerOf = (id) => {
    if (owner.has(id)) return owner.get(id);
    let cur = nodes.get(id);
    while (cur && !inBundle(cur)) cur = nodes.get(parent.get(cur.id));
    const key = cur
      ? moduleGroup(sectionAt(sections, cur.callFrame.lineNumber)?.name ?? '(bundle prelude)')
      : null;
    owner.set(id, key);
    return key;
  };
  const totals = new Map();
  const natives = new Map();
  const add = (map, key, dt) => map.set(key, (map.get(key) ?? 0) + dt);
  for (let i = 0; i < profile.samples.length; i++) {
    const node = nodes.get(profile.samples[i]);
    const dt = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000;
    const { functionName } = node.callFrame;
    if (functionName.startsWith('(')) {
      add(totals, functionName, dt);
      continue;
    }
    if (!inBundle(node)) add(natives, functionName || '(anonymous built-in)', dt);
    add(totals, ownerOf(node.id) ?? '(runtime, no JS caller)', dt);
  }
  return { totals, natives };
}

/**
 * A function reading the isolate's memory in MiB: used JS heap plus ArrayBuffer
 * backing stores (where buffered response bytes would live). Runtime.getHeapUsage;
 * no forced GC, because workerd does not answer HeapProfiler.collectGarbage.
 */
export async function heapProbe(mf, workerName) {
  const session = await inspectorSession(mf, workerName);
  const probe = async () => {
    const h = await session.send('Runtime.getHeapUsage');
    return (h.usedSize + (h.backingStorageSize ?? 0)) / 1048576;
  };
  probe.close = () => session.close();
  return probe;
}

/** A DevTools-protocol session with one Worker's isolate: { send(method, params), close() }. */
export async function inspectorSession(mf, workerName) {
  const inspector = await mf.getInspectorURL();
  return connect(`ws://${inspector.host}/core:user:${workerName}`);
}

async function connect(url) {
  const { default: WebSocket } = await import('ws');
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let id = 0;
  const pending = new Map();
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data));
    if (msg.id !== undefined && pending.has(msg.id)) {
      pending.get(msg.id)(msg);
      pending.delete(msg.id);
    }
  });
  const send = (method, params = {}) =>
    within(
      INSPECTOR_TIMEOUT_MS,
      new Promise((resolve, reject) => {
        const n = ++id;
        pending.set(n, (msg) =>
          msg.error ? reject(new Error(`${method}: ${msg.error.message}`)) : resolve(msg.result),
        );
        ws.send(JSON.stringify({ id: n, method, params }));
      }),
      `the inspector did not answer ${method}`,
    );
  // Closing waits for the socket to close (at most 2 s), so the next session never meets this one's tail.
  const close = () =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, 2000);
      timer.unref?.();
      ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      ws.close();
    });
  return { send, close };
}

/**
 * The inspector is a diagnostic: seen once under a loaded machine, workerd's
 * stopped answering mid-profile, which hung the whole run until its deadline.
 * Every inspector call and the profiled load are bounded instead, and a
 * timeout is an error with code INSPECTOR_TIMEOUT that the caller may skip.
 */
export const INSPECTOR_TIMEOUT_MS = 20_000;
const LOAD_TIMEOUT_MS = 75_000;

function within(ms, promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const err = new Error(`${what} within ${ms / 1000} s`);
      err.code = 'INSPECTOR_TIMEOUT';
      reject(err);
    }, ms);
    timer.unref?.();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Profiles the Worker named `workerName` in `mf` while `load()` runs; returns
 * rows sorted by time: modules (every sample charged to one) and the top
 * runtime built-ins by name, each { name, ms, pctOfBusy }. The profiler itself
 * slows the isolate, so shares are the result; absolute ms are inflated.
 */
export async function profileDuring(mf, workerName, scriptPath, requests, load) {
  const session = await inspectorSession(mf, workerName);
  try {
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 100 });
    await session.send('Profiler.start');
    await within(LOAD_TIMEOUT_MS, load(), 'the profiled load did not finish');
    const { profile } = await session.send('Profiler.stop');
    // BENCH_PROFILE_DIR keeps each raw profile (Chrome DevTools' .cpuprofile format) for a closer look.
    if (process.env.BENCH_PROFILE_DIR)
      writeFileSync(
        `${process.env.BENCH_PROFILE_DIR}/${workerName}-${requests}-${Date.now()}.cpuprofile`,
        JSON.stringify(profile),
      );
    const { totals, natives } = selfTimeByModule(profile, bundleSections(readFileSync(scriptPath, 'utf8')));
    const idle = totals.get('(idle)') ?? 0;
    const busy = [...totals.values()].reduce((a, b) => a + b, 0) - idle;
    const rows = (map) =>
      [...map]
        .filter(([module]) => module !== '(idle)')
        .map(([name, ms]) => ({ name, ms, pctOfBusy: (100 * ms) / busy }))
        .sort((a, b) => b.ms - a.ms);
    return {
      requests,
      busyMsPerRequest: busy / requests,
      modules: rows(totals),
      natives: rows(natives).slice(0, 12),
    };
  } finally {
    await session.send('Profiler.disable').catch(() => {});
    await session.close();
  }
}
