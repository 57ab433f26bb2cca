/** What the numbers were measured on: machine, load, versions, CPU layout. */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, release } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './stack.mjs';

function version(pkg) {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

function git() {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--untracked-files=no', 'src', 'wrangler.toml'], {
        cwd: ROOT,
        encoding: 'utf8',
      }).trim() !== '';
    return `${commit}${dirty ? '+dirty' : ''}`;
  } catch {
    return null;
  }
}

export function machine() {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model ?? null,
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    os: `${process.platform} ${release()}`,
    node: process.version,
    wrangler: version('wrangler'),
    workerd: version('workerd'),
    miniflare: version('miniflare'),
    commit: git(),
    loadAverage: loadavg().map((x) => Number(x.toFixed(2))),
  };
}

/**
 * With ≥ 2 CPUs and taskset: the Worker under test (floor or gateway) gets the
 * last CPU; the load generator, the mock and this process share the rest, and
 * so does every process started from here unless it is pinned itself. `all`
 * names every CPU, for a system under test of several processes (the hot
 * tenant's drivers and their Limiter host), which must not inherit `rest`.
 * `wanted` is true, false, or 'auto': pin only when the machine is otherwise idle
 * (1-minute load average < 0.5). On a busy machine pinning hurts: the Worker is
 * confined to one CPU next to someone else's process instead of moving away
 * (measured: the floor collapsed at 600/s pinned, sustained 800/s unpinned).
 */
export function cpuLayout(wanted) {
  const n = cpus().length;
  const pin = wanted === 'auto' ? loadavg()[0] < 0.5 : wanted;
  if (!pin || n < 2 || spawnSync('taskset', ['-V']).status !== 0) return { sut: null, rest: null, all: null };
  const layout = { sut: String(n - 1), rest: n === 2 ? '0' : `0-${n - 2}`, all: `0-${n - 1}` };
  spawnSync('taskset', ['-a', '-p', '-c', layout.rest, String(process.pid)]);
  return layout;
}
