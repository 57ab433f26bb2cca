/**
 * Starts the Workers under test through the Miniflare API: each in its own
 * workerd process on 127.0.0.1 (so the OS accounts CPU and memory per Worker),
 * never under `wrangler dev`, whose Node proxy layer would dominate the numbers.
 * Code is the project's own bundle (`wrangler deploy --dry-run`) and the
 * gateway's bindings are derived from wrangler.toml by wrangler itself
 * (unstable_getMiniflareWorkerOptions), so new Durable Objects, queues or vars
 * are picked up without touching the bench. Storage is in memory: every run
 * starts from empty D1/KV/DO state with the migrations applied.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions, unstable_splitSqlQuery } from 'wrangler';
import { childPids } from './procstat.mjs';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const BUILD = join(ROOT, '.build', 'bench');
export const WRANGLER = join(ROOT, 'node_modules', '.bin', 'wrangler');

/**
 * Bundles a Worker as `wrangler deploy` would, without deploying, but not minified; returns the script
 * path. Minifying renames, it does not change the work a request does, and the per-stage profile finds
 * each module by the `// src/…` comments of an unminified bundle; the cold-start workload measures the
 * deployed, minified shape (bench/lib/cold-start.mjs). `entry` replaces the config's `main` (a driver
 * in front of the same Worker, with its bindings).
 */
export function bundle(configPath, name, entry = null) {
  const outdir = join(BUILD, name);
  const args = [
    'deploy',
    ...(entry ? [join(ROOT, entry)] : []),
    '--dry-run',
    '--no-minify',
    '-c',
    join(ROOT, configPath),
  ];
  const run = spawnSync(WRANGLER, [...args, '--outdir', outdir], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' },
  });
  if (run.status !== 0) throw new Error(`bundling ${configPath} failed:\n${run.stdout}\n${run.stderr}`);
  return join(outdir, 'index.js');
}

/** Pins every thread of a process to `cpus` (e.g. "1"); false when taskset is unavailable. */
export function pin(pid, cpus) {
  if (!pid || cpus === null) return false;
  return spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { encoding: 'utf8' }).status === 0;
}

/**
 * One Worker in its own Miniflare (one workerd process). Started one at a time
 * so the new workerd child can be told apart from the others by pid. Traffic
 * goes to the Worker's direct socket, as under `workerd serve`: Miniflare's
 * entry Worker (URL rewriting, pretty errors) would add about 0.4 ms of CPU and
 * latency to every request, which no deployed gateway pays.
 */
export async function startWorker(name, options, { cpus = null } = {}) {
  const before = new Set(childPids());
  let tail = '';
  const keep = (d) => {
    tail = (tail + d).slice(-20_000);
  };
  const mf = new Miniflare({
    ...options,
    host: '127.0.0.1',
    port: 0,
    cf: false,
    unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
    handleRuntimeStdio(stdout, stderr) {
      stdout.on('data', keep);
      stderr.on('data', keep);
    },
  });
  await mf.ready;
  const url = (await mf.unsafeGetDirectURL(options.name)).href.replace(/\/$/, '');
  const fresh = childPids().filter((p) => !before.has(p));
  const pid = fresh.length === 1 ? fresh[0] : null;
  const pinned = pin(pid, cpus);
  return { name, mf, url, pid, pinned, output: () => tail, dispose: () => mf.dispose() };
}

/** Compatibility date of a Worker's wrangler config. */
export function compatibilityDate(configPath) {
  return unstable_getMiniflareWorkerOptions(join(ROOT, configPath)).workerOptions.compatibilityDate;
}

export function startMock(script, opts) {
  const date = compatibilityDate('workers/mock-llm/wrangler.toml');
  return startWorker(
    'mock',
    { name: 'mock', modules: true, scriptPath: script, compatibilityDate: date },
    opts,
  );
}

/** The floor: bench/floor/index.js forwarding to the mock, on the gateway's compatibility date. */
export function startFloor(mockUrl, opts) {
  return startBareWorker('floor', mockUrl, opts);
}

/** The relay floor (bench/floor-relay): the floor plus reading the request body and every answer in JavaScript. */
export function startRelayFloor(mockUrl, opts) {
  return startBareWorker('floor-relay', mockUrl, opts);
}

/** A Worker of bench/<name>/index.js with no bindings but UPSTREAM_URL (and `bindings`). */
export function startBareWorker(name, mockUrl, opts, bindings = {}) {
  return startWorker(
    name,
    {
      name,
      modules: true,
      scriptPath: join(ROOT, 'bench', name, 'index.js'),
      compatibilityDate: compatibilityDate('wrangler.toml'),
      bindings: { UPSTREAM_URL: mockUrl, ...bindings },
    },
    opts,
  );
}

/**
 * The gateway in its default local configuration (wrangler.toml), pointed at the
 * mock. `logQueue: false` removes the log queue (producer and consumers), which
 * selects the gateway's console log sink.
 * The R2 log archive is left unbound unless `archive: true`: locally, Miniflare's R2
 * simulator runs inside the gateway's own workerd process, and the consumer's puts
 * (one per log object, dozens at once per queue batch) stall that process for tens of
 * ms, a cost a deployed Worker does not pay (R2 is a remote service there). The log
 * path then keeps whole rows in D1, as before the archive; the archive's own work is
 * measured by the capacity-model workload (bench/capacity/).
 * `logConsumer: false` keeps the log queue's producer but binds no consumer to the
 * queue, for the same reason: deployed, the consumer runs in its own invocations and
 * D1 is a remote service, while locally its once-a-second D1 transaction runs on the
 * thread that serves requests. Miniflare's queue then accepts each message and drops
 * it, so every request still pays its log event and every batch its send; the
 * consumer's own cost per event is the capacity model's.
 * `vars` adds bindings (e.g. PROVIDER_KEYS_SECRET, which opens the MCP workload's sealed upstream credential).
 */
export async function startGateway(
  script,
  {
    mockUrl,
    adminToken,
    logQueue = true,
    logConsumer = true,
    archive = false,
    label = 'gateway',
    cpus = null,
    vars = {},
    extra = {},
  },
) {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(join(ROOT, 'wrangler.toml'));
  const options = {
    ...workerOptions,
    name: 'edgeway',
    modules: true,
    scriptPath: script,
    bindings: {
      ...workerOptions.bindings,
      MOCK_LLM_URL: `${mockUrl}/v1`,
      ADMIN_TOKEN: adminToken,
      // An Anthropic-format view of the mock: requests from OpenAI clients to it are translated.
      EDGEWAY_PROVIDERS: JSON.stringify([
        {
          id: 'claude-only',
          base_url: `${mockUrl}/v1`,
          format: 'anthropic',
          api_key_secret: 'PROVIDER_KEY_CLAUDE_ONLY',
        },
      ]),
      PROVIDER_KEY_CLAUDE_ONLY: 'mock-key',
      ...vars,
    },
    ...extra,
  };
  delete options.modulesRules;
  if (!archive && options.r2Buckets) {
    const { LOG_ARCHIVE: _archive, ...rest } = options.r2Buckets;
    options.r2Buckets = rest;
  }
  if (!logQueue) {
    options.queueProducers = {};
    options.queueConsumers = {};
  } else if (!logConsumer) {
    const logs = workerOptions.queueProducers?.LOG_QUEUE?.queueName;
    options.queueConsumers = Object.fromEntries(
      Object.entries(options.queueConsumers ?? {}).filter(([queue]) => queue !== logs),
    );
  }
  const worker = await startWorker(label, options, { cpus });
  await applyMigrations(worker.mf);
  return {
    ...worker,
    logQueue: logQueue && Object.keys(workerOptions.queueProducers ?? {}).length > 0,
    bindings: describeBindings(options),
  };
}

/** Applies migrations/*.sql in order, statement by statement, as `wrangler d1 migrations apply` would. */
async function applyMigrations(mf) {
  const db = await mf.getD1Database('DB');
  const dir = join(ROOT, 'migrations');
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    const statements = unstable_splitSqlQuery(readFileSync(join(dir, file), 'utf8'));
    await db.batch(statements.map((s) => db.prepare(s)));
  }
}

/** Which binding kinds the gateway got, for the report. */
function describeBindings(o) {
  const names = (x) => Object.keys(x ?? {});
  return {
    d1: names(o.d1Databases),
    kv: names(o.kvNamespaces),
    durableObjects: names(o.durableObjects),
    queueProducers: names(o.queueProducers),
    queueConsumers: names(o.queueConsumers),
  };
}

async function admin(url, token, path, body, method = 'POST') {
  const res = await fetch(`${url}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`admin ${method} ${path} → ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/** Creates global named routes through the admin API (name → spec). */
export async function seedRoutes(gateway, adminToken, routes) {
  for (const [name, spec] of Object.entries(routes))
    await admin(gateway.url, adminToken, '/routes', { name, spec });
}

/**
 * Creates one tenant and one key per scenario through the admin API (a tenant
 * each, so no scenario can see another's cache entries); returns { scenario: secret }.
 * A scenario's `tenant` settings are set on its tenant (`PATCH /admin/tenants/:id`,
 * e.g. `end_users`) before its key is made; the rest are the key's. `tenantIds`, when given, is
 * filled with each scenario's tenant id.
 */
export async function seedKeys(gateway, adminToken, scenarios, tenantIds = {}) {
  const keys = {};
  for (const [name, { tenant: tenantSettings, ...settings }] of Object.entries(scenarios)) {
    const tenant = await admin(gateway.url, adminToken, '/tenants', { name: `bench ${name}` });
    tenantIds[name] = tenant.id;
    if (tenantSettings)
      await admin(gateway.url, adminToken, `/tenants/${tenant.id}`, tenantSettings, 'PATCH');
    const key = await admin(gateway.url, adminToken, '/keys', {
      tenant_id: tenant.id,
      name: `bench ${name}`,
      ...settings,
    });
    keys[name] = key.key;
  }
  return keys;
}

/** The requests an end user of a tenant has spent today, as the admin API reports them (their shard's ledger). */
export async function endUserRequestsToday(gateway, adminToken, tenantId, user) {
  const view = await admin(
    gateway.url,
    adminToken,
    `/tenants/${tenantId}/end-users/${encodeURIComponent(user)}`,
    undefined,
    'GET',
  );
  return view.usage.budget_usage.requests.day.spent;
}
