/**
 * Starts the hot-tenant drivers: a host copy of bench/hot-tenant that owns the
 * Limiter class, and `isolates` driver copies, each with its own direct socket,
 * whose LIMITER binding names the host's class (`scriptName`), so all of them
 * share ONE object per tenant, as every isolate of a deployed gateway does.
 * `vars` are the LIMITS_* settings under test. Storage is in memory.
 *
 * Layouts. `processes` (the default): the host and each driver in its own
 * workerd process (its own Miniflare), found through a dev registry directory;
 * a driver's object calls go from its workerd to the host's over workerd's
 * debug port (through a small proxy object Miniflare adds, no Node hop), like
 * isolates on different machines calling one object. `isolates`: every copy
 * in one workerd process (one thread), each its own isolate.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { childPids } from '../lib/procstat.mjs';
import { ROOT } from '../lib/stack.mjs';

export const CONFIG = 'bench/hot-tenant/wrangler.toml';
const HOST = 'limiter-host';
const SOCKET = [{ host: '127.0.0.1', port: 0 }];

export async function startCluster(script, { isolates, vars = {}, layout = 'processes' }) {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(join(ROOT, CONFIG));
  const common = {
    modules: true,
    scriptPath: script,
    compatibilityDate: workerOptions.compatibilityDate,
    compatibilityFlags: workerOptions.compatibilityFlags,
    kvNamespaces: { KV: 'hot-tenant-prices' },
  };
  const host = {
    ...common,
    name: HOST,
    bindings: { ...vars, DRIVER: 'host' },
    durableObjects: { LIMITER: { className: 'Limiter', useSQLite: true } },
  };
  const names = Array.from({ length: isolates }, (_, i) => `driver-${i + 1}`);
  const drivers = names.map((name) => ({
    ...common,
    name,
    bindings: { ...vars, DRIVER: name },
    durableObjects: { LIMITER: { className: 'Limiter', scriptName: HOST, useSQLite: true } },
    unsafeDirectSockets: SOCKET,
  }));

  let tail = '';
  const keep = (d) => {
    tail = (tail + d).slice(-20_000);
  };
  const shared = {
    host: '127.0.0.1',
    port: 0,
    cf: false,
    handleRuntimeStdio(stdout, stderr) {
      stdout.on('data', keep);
      stderr.on('data', keep);
    },
  };
  const before = new Set(childPids());
  const instances = [];
  let registry = null;
  if (layout === 'isolates') instances.push(new Miniflare({ ...shared, workers: [host, ...drivers] }));
  else {
    registry = mkdtempSync(join(tmpdir(), 'edgeway-hot-tenant-'));
    for (const worker of [host, ...drivers])
      instances.push(new Miniflare({ ...shared, unsafeDevRegistryPath: registry, ...worker }));
  }
  await Promise.all(instances.map((mf) => mf.ready));
  const urls = [];
  for (const [i, name] of names.entries()) {
    const mf = layout === 'isolates' ? instances[0] : instances[i + 1];
    urls.push((await mf.unsafeGetDirectURL(name)).href.replace(/\/$/, ''));
  }
  return {
    layout,
    urls,
    pids: childPids().filter((p) => !before.has(p)),
    output: () => tail,
    async dispose() {
      await Promise.allSettled(instances.map((mf) => mf.dispose()));
      if (registry) rmSync(registry, { recursive: true, force: true });
    },
  };
}
