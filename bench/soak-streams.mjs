// Many concurrent long streams against the local stack, with every stack process's open files watched.
// Under `wrangler dev` 200 such streams pushed one process to 20,000 sockets
// ("Too many open files") and cut most of them with `503 Your worker restarted mid-request`.
//
//   node bench/soak-streams.mjs                        # own throwaway stack, 200 streams of ~20 s
//   node bench/soak-streams.mjs --streams 500 --tokens 300 --pace-ms 100
//   node bench/soak-streams.mjs --url http://127.0.0.1:8787 --key ew_… --pids 1234,1235   # a running stack
//
// Exits 1 when a stream ends any other way than complete or a clean 429 (budget), or when a process
// holds more than SOCKETS_PER_STREAM open files per stream. test/e2e/streams-soak.test.mjs runs it in CI.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

/** Each stream costs at most a client and an upstream socket per hop; the rest is slack for pools. */
export const SOCKETS_PER_STREAM = 4;
export const FD_SLACK = 200;

const supported = (() => {
  try {
    return readdirSync('/proc/self/fd').length > 0;
  } catch {
    return false;
  }
})();

function parentOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** `roots` and every process below them (Linux /proc; empty elsewhere). */
export function processTree(roots) {
  if (!supported) return [];
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = parentOf(entry);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // ended while we looked
    }
  }
  const out = [];
  const walk = (pid) => {
    out.push(pid);
    for (const child of children.get(pid) ?? []) walk(child);
  };
  for (const root of roots) walk(root);
  return out;
}

/** Open file descriptors of a process and how many are sockets, or null once it has ended. */
export function openFiles(pid) {
  try {
    const fds = readdirSync(`/proc/${pid}/fd`);
    let sockets = 0;
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) sockets++;
      } catch {
        // closed while we looked
      }
    }
    return { fds: fds.length, sockets };
  } catch {
    return null;
  }
}

function describe(pid) {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const name = argv[0].split('/').pop();
    const addr = argv.find((a) => a.startsWith('--socket-addr='))?.replace(/^--socket-addr=entry=/, ' ');
    return `${pid} ${name}${addr ?? ''}${argv.some((a) => a.endsWith('serve-worker.mjs')) ? ' serve-worker' : ''}`;
  } catch {
    return String(pid);
  }
}

/** Samples the open files of every process under `roots` until stop(); returns each one's peak. */
export function sampleOpenFiles(roots, everyMs = 500) {
  const peaks = new Map();
  const take = () => {
    for (const pid of processTree(roots)) {
      const now = openFiles(pid);
      if (!now) continue;
      const peak = peaks.get(pid) ?? { process: describe(pid), fds: 0, sockets: 0 };
      peaks.set(pid, {
        ...peak,
        fds: Math.max(peak.fds, now.fds),
        sockets: Math.max(peak.sockets, now.sockets),
      });
    }
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    supported,
    stop() {
      clearInterval(timer);
      take();
      return [...peaks.values()].sort((a, b) => b.fds - a.fds);
    },
  };
}

/** The fd limits this process (and so every child it spawns) runs with, from /proc/self/limits. */
export function fdLimits() {
  if (!supported) return null;
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  const [soft, hard] = line?.split(/\s+/).slice(3, 5) ?? [];
  return { soft, hard };
}

/** How one stream ended: complete (every event and [DONE]), a clean budget 429, or anything else. */
async function oneStream(url, key, i, { tokens, paceMs, timeoutMs }) {
  try {
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'mock/mock-small',
        stream: true,
        max_tokens: tokens,
        messages: [{ role: 'user', content: `soak stream ${i}` }],
        mock: { tokens, pace_ms: paceMs },
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    if (res.status === 200) {
      const deltas = text.split('\n').filter((l) => l.includes('"delta":{"content":"')).length;
      if (text.includes('data: [DONE]') && !text.includes('"error"') && deltas === tokens) return 'complete';
      return `200 but cut after ${deltas} of ${tokens} tokens: …${text.slice(-160)}`;
    }
    if (res.status === 429 && JSON.parse(text).error?.code === 'budget_exceeded') return 'budget 429';
    return `${res.status}: ${text.slice(0, 160)}`;
  } catch (err) {
    return `failed: ${err.cause?.code ?? err.cause?.message ?? err.message}`;
  }
}

/** Runs `streams` concurrent paced streams; returns how many ended each way and the run's duration. */
export async function soakStreams({
  url,
  key,
  streams = 200,
  tokens = 100,
  paceMs = 200,
  timeoutMs = 60_000,
}) {
  const started = Date.now();
  const ends = await Promise.all(
    Array.from({ length: streams }, (_, i) => oneStream(url, key, i, { tokens, paceMs, timeoutMs })),
  );
  const outcomes = {};
  for (const end of ends) outcomes[end] = (outcomes[end] ?? 0) + 1;
  return { outcomes, seconds: (Date.now() - started) / 1000 };
}

/** Problems with a run: unexpected stream ends and processes over the open-file bound. */
export function verdict({ outcomes }, peaks, streams) {
  const bound = SOCKETS_PER_STREAM * streams + FD_SLACK;
  const problems = Object.entries(outcomes)
    .filter(([end]) => end !== 'complete' && end !== 'budget 429')
    .map(([end, n]) => `${n} stream(s) ended: ${end}`);
  for (const p of peaks) if (p.fds > bound) problems.push(`${p.process} held ${p.fds} fds (bound ${bound})`);
  return problems;
}

async function main() {
  const { values } = parseArgs({
    options: {
      streams: { type: 'string', default: '200' },
      tokens: { type: 'string', default: '100' },
      'pace-ms': { type: 'string', default: '200' },
      budget: { type: 'string' },
      url: { type: 'string' },
      key: { type: 'string' },
      pids: { type: 'string', default: '' },
      port: { type: 'string', default: '19187' },
    },
  });
  const streams = Number(values.streams);
  const tokens = Number(values.tokens);
  const paceMs = Number(values['pace-ms']);
  let stack = null;
  let target = { url: values.url, key: values.key, pids: values.pids.split(',').filter(Boolean).map(Number) };
  if (!target.url) {
    const { startTestStack } = await import('../test/e2e/stack.mjs');
    console.log('starting a throwaway stack…');
    stack = await startTestStack(Number(values.port));
    // About three quarters of the streams fit the budget: the rest must get a clean 429.
    const budget = Number(values.budget ?? Math.round(streams * 0.75 * (tokens + 20)));
    const res = await fetch(`${stack.url}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tenant_id: stack.tenantId, name: 'soak', budgets: { tokens: { day: budget } } }),
    });
    target = { url: stack.url, key: (await res.json()).key, pids: Object.values(stack.pids) };
    console.log(`key with a daily budget of ${budget} tokens`);
  }
  console.log(
    `${streams} streams × ${tokens} tokens every ${paceMs} ms against ${target.url}; fd limits`,
    fdLimits(),
  );
  const sampler = sampleOpenFiles(target.pids);
  const result = await soakStreams({ ...target, streams, tokens, paceMs });
  const peaks = sampler.stop();
  stack?.stop();
  console.log(`done in ${result.seconds.toFixed(1)} s:`, result.outcomes);
  console.table(peaks);
  const problems = verdict(result, peaks, streams);
  for (const p of problems) console.error(`✗ ${p}`);
  process.exit(problems.length ? 1 : 0);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
