// One Worker of the local stack, in this process (scripts/stack.mjs starts one per Worker).
//
//   gateway: wrangler's dev server (unstable_startWorker): bundling, every binding of wrangler.toml,
//            local persistence, reload on change, exactly as `wrangler dev` — but with the inspector
//            off. wrangler's inspector proxy posts every message it gets from the runtime (a network
//            event for each chunk an outbound fetch receives) to wrangler's Node process as its own
//            HTTP request; under a few hundred long streams that is thousands of requests a second,
//            and workerd leaves the closed ones in CLOSE-WAIT until the process runs out of file
//            descriptors (docs/operations-dev.md). Attach a debugger with `npx wrangler dev` instead.
//   mock:    the mock LLM straight in workerd through Miniflare: a fixture needs no reload,
//            no inspector and no proxy hop in front of it.
//
// The spec comes as JSON in EDGEWAY_WORKER; the process ends on SIGTERM/SIGINT or when its parent
// closes stdin, so a crashed test run leaves no Worker holding its port.
import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions, unstable_startWorker } from 'wrangler';
import { ROOT } from './stack.mjs';

const MOCK_CONFIG = join(ROOT, 'workers', 'mock-llm', 'wrangler.toml');

async function startGateway({ ip, port, persistTo, vars }) {
  const worker = await unstable_startWorker({
    config: join(ROOT, 'wrangler.toml'),
    bindings: Object.fromEntries(
      Object.entries(vars).map(([name, value]) => [name, { type: 'plain_text', value: String(value) }]),
    ),
    // The CLI derives this from the flags; the API does not, and would leave node:* imports unbundled.
    build: {
      nodejsCompatMode: (config) => (config.compatibility_flags.includes('nodejs_compat') ? 'v2' : null),
    },
    dev: {
      server: { hostname: ip, port },
      inspector: false,
      persist: persistTo,
      liveReload: false,
      remote: false,
    },
  });
  await worker.ready;
  return () => worker.dispose();
}

async function startMock({ ip, port }) {
  // wrangler reads the config (main, compatibility date and flags, any bindings); esbuild bundles main.
  const { workerOptions, main } = unstable_getMiniflareWorkerOptions(MOCK_CONFIG);
  const bundle = await build({
    entryPoints: [main],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
  });
  const { modulesRules, ...options } = workerOptions;
  const mf = new Miniflare({
    ...options,
    name: 'mock-llm',
    modules: [{ type: 'ESModule', path: 'index.js', contents: bundle.outputFiles[0].text }],
    host: ip,
    port,
  });
  await mf.ready;
  return () => mf.dispose();
}

const spec = JSON.parse(process.env.EDGEWAY_WORKER ?? '{}');
const start = { gateway: startGateway, mock: startMock }[spec.kind];
if (!start)
  throw new Error(`EDGEWAY_WORKER.kind must be "gateway" or "mock", got ${JSON.stringify(spec.kind)}`);

const dispose = await start(spec);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await dispose().catch(() => undefined);
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.resume();
