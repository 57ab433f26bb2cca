/**
 * Chooses and runs the load generator. The Go one (bench/loadgen) is built into
 * .build/bench/loadgen on first use, or again when its source is newer; without
 * a Go toolchain, or with --loadgen node, the Node one runs instead and the
 * report says so (its numbers at high rates are client-bound).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD, ROOT } from './stack.mjs';
import { runNodeJob } from './node-loadgen.mjs';

const SOURCE = join(ROOT, 'bench', 'loadgen');
const BINARY = join(BUILD, 'loadgen');

function newestSource() {
  return Math.max(...readdirSync(SOURCE).map((f) => statSync(join(SOURCE, f)).mtimeMs));
}

/** Builds the Go generator when needed; returns its path, or null with the reason. */
export function buildGoLoadgen() {
  if (existsSync(BINARY) && statSync(BINARY).mtimeMs >= newestSource()) return { path: BINARY };
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (go.status !== 0)
    return { path: null, reason: 'no Go toolchain on PATH (install Go ≥ 1.22 for the full-rate generator)' };
  const build = spawnSync('go', ['build', '-o', BINARY, '.'], {
    cwd: SOURCE,
    encoding: 'utf8',
    env: { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=mod' },
  });
  if (build.status !== 0) return { path: null, reason: `go build failed: ${build.stderr.trim()}` };
  return { path: BINARY, built: true };
}

/** A generator: run(job) → result, plus its name. `cpus` pins the Go process (taskset). */
export function createLoadgen({ prefer = 'go', cpus = null } = {}) {
  if (prefer === 'go') {
    const go = buildGoLoadgen();
    if (go.path)
      return {
        name: 'go',
        note: go.built ? 'built bench/loadgen' : null,
        run: (job) => runGo(go.path, job, cpus),
      };
    return {
      name: 'node',
      note: `Go generator unavailable: ${go.reason}; using the Node generator`,
      run: runNodeJob,
    };
  }
  return { name: 'node', note: null, run: runNodeJob };
}

function runGo(binary, job, cpus) {
  const [cmd, args] = cpus !== null ? ['taskset', ['-c', cpus, binary]] : [binary, []];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`loadgen exited ${code}: ${err.trim()}`));
      try {
        resolve(JSON.parse(Buffer.concat(out).toString('utf8')));
      } catch (e) {
        reject(new Error(`loadgen printed no result: ${e.message}; stderr: ${err.trim()}`));
      }
    });
    child.stdin.end(JSON.stringify(job));
  });
}
