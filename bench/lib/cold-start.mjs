/**
 * Cold start: what a Worker costs before its first request — the bundle's size (raw and gzipped, as
 * `wrangler deploy --dry-run` builds it) and the CPU its startup takes (top-level evaluation of the
 * bundle, profiled by `wrangler check startup`). The profile is a V8 `.cpuprofile` sampled every
 * millisecond, so one run reads in whole samples: the workload profiles each Worker several times
 * and reports the median, with the functions that held the most samples.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Frames that are not the Worker's startup work: the sampler's idle and the process outside V8. */
const NOT_STARTUP = new Set(['(idle)', '(program)', '(root)']);

/** V8's default sampling interval, which `wrangler check startup` leaves as it is. */
export const SAMPLING_INTERVAL_MS = 1;

/**
 * Startup CPU of one `.cpuprofile`: the samples whose frame is V8 running JavaScript (garbage
 * collection included), each charged the sampling interval. Not the time between samples: on a busy
 * machine the isolate's thread is descheduled between two samples and those gaps (up to 200 ms
 * seen) are not CPU the Worker used; the sampler's signal waits for the thread to run, so the count
 * of samples follows the CPU used. A Worker whose startup takes less than the interval (the floors)
 * reads 0 or 1 ms. `top` lists the functions (name, bundle line) with the most self time, `gcMs` the
 * collector's share.
 */
export function startupCpu(profile, { top = 10 } = {}) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  let count = 0;
  let gc = 0;
  const self = new Map();
  for (const id of profile.samples) {
    const frame = nodes.get(id)?.callFrame;
    if (!frame || NOT_STARTUP.has(frame.functionName)) continue;
    count++;
    if (frame.functionName === '(garbage collector)') gc++;
    const name = `${frame.functionName || '(top level)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + 1);
  }
  return {
    ms: count * SAMPLING_INTERVAL_MS,
    gcMs: gc * SAMPLING_INTERVAL_MS,
    samples: profile.samples.length,
    top: [...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([fn, n]) => ({ fn, ms: n * SAMPLING_INTERVAL_MS })),
  };
}

/** Size of a bundle file: raw and gzipped (zlib's default level, as wrangler's `Total Upload` reports it), in KiB. */
export function bundleSize(path) {
  const bytes = readFileSync(path);
  return { rawKiB: bytes.length / 1024, gzipKiB: gzipSync(bytes).length / 1024 };
}

const ENV = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' };

/**
 * Builds a Worker as `wrangler deploy` would (its config's own minify setting: the deployed shape),
 * into `dir`: the script (for its size) and the upload form `wrangler check startup --worker` takes.
 */
export function buildForUpload({ wrangler, root, config, dir }) {
  mkdirSync(dir, { recursive: true });
  const form = join(dir, 'worker.bundle');
  const run = spawnSync(wrangler, ['deploy', '--dry-run', '-c', config, '--outdir', dir, '--outfile', form], {
    cwd: root,
    encoding: 'utf8',
    env: ENV,
  });
  if (run.status !== 0) throw new Error(`bundling ${config} failed:\n${run.stdout}\n${run.stderr}`);
  return { script: join(dir, 'index.js'), form };
}

/**
 * Profiles a built Worker's startup `runs` times with `wrangler check startup --worker` and returns
 * its size, the median startup CPU, each run's figure and the median run's busiest functions.
 */
export function coldStart({ wrangler, root, config, dir, runs = 3 }) {
  const { script, form } = buildForUpload({ wrangler, root, config, dir });
  const profiles = [];
  for (let i = 0; i < runs; i++) {
    const outfile = join(dir, `startup-${i}.cpuprofile`);
    const run = spawnSync(
      wrangler,
      ['check', 'startup', '--worker', form, '-c', config, '--outfile', outfile],
      {
        cwd: root,
        encoding: 'utf8',
        env: ENV,
      },
    );
    if (run.status !== 0)
      throw new Error(`wrangler check startup failed for ${config}:\n${run.stdout}\n${run.stderr}`);
    profiles.push(startupCpu(JSON.parse(readFileSync(outfile, 'utf8'))));
    rmSync(outfile, { force: true });
  }
  const sorted = [...profiles].sort((a, b) => a.ms - b.ms);
  const mid = sorted[(sorted.length - 1) >> 1];
  return {
    ...bundleSize(script),
    startupMs: mid.ms,
    runsMs: profiles.map((p) => p.ms),
    samples: mid.samples,
    top: mid.top,
  };
}

/**
 * The cold-start workload: the gateway beside the floor and the relay floor, each built in its
 * deployed shape and profiled `runs` times, one Worker after another (nothing else of the bench's
 * runs while wrangler profiles: the other Workers are idle by then).
 */
export function coldStartWorkload({ wrangler, root, buildDir, runs }) {
  const targets = {
    floor: 'bench/floor/wrangler.toml',
    'floor-relay': 'bench/floor-relay/wrangler.toml',
    edgeway: 'wrangler.toml',
  };
  const perTarget = {};
  for (const [name, config] of Object.entries(targets))
    perTarget[name] = coldStart({
      wrangler,
      root,
      config: join(root, config),
      dir: join(buildDir, `cold-start-${name}`),
      runs,
    });
  return { runs, perTarget };
}
