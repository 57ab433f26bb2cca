// `npm run bench` (full, ~10 min), `-- --quick` (~1–2 min), `npm run bench:smoke` (seconds, CI).
// Starts the mock LLM, the floor and Edgeway under workerd (Miniflare API, 127.0.0.1),
// runs every workload against direct-to-mock, floor and Edgeway in the same run, and
// writes bench/results/<date>-<mode>.{md,json,svg}. Exits 1 when the harness itself
// breaks (failed requests at concurrency 1, broken streams, a feature check that no
// longer engages, a deadline overrun), never because the machine is slow.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureGuardrailsMicro } from './guardrails-micro.mjs';
import { latencyChart } from './lib/chart.mjs';
import { createLoadgen } from './lib/loadgen.mjs';
import { cpuLayout, machine } from './lib/machine.mjs';
import { alive, rssMiB } from './lib/procstat.mjs';
import { runMcpBench } from './lib/mcp-bench.mjs';
import { benchKeysSecret } from './lib/mcp-seed.mjs';
import { readArgs } from './lib/profiles.mjs';
import { heapProbe } from './lib/profile.mjs';
import { markdownReport, summaryTable } from './lib/report.mjs';
import {
  BUILD,
  ROOT,
  WRANGLER,
  bundle,
  endUserRequestsToday,
  seedKeys,
  seedRoutes,
  startFloor,
  startGateway,
  startMock,
  startRelayFloor,
} from './lib/stack.mjs';
import { GUARDED_POLICY, chatBody, endpointUrl, target } from './lib/targets.mjs';
import { coldStartWorkload } from './lib/cold-start.mjs';
import { capacityWorkload } from './lib/workloads/capacity.mjs';
import { hotTenantWorkload } from './lib/workloads/hot-tenant.mjs';
import { hotTenantUsersWorkload } from './lib/workloads/hot-tenant-users.mjs';
import { latencyWorkload } from './lib/workloads/latency.mjs';
import { profileWorkload } from './lib/workloads/profile.mjs';
import { scenarioList, scenariosWorkload } from './lib/workloads/scenarios.mjs';
import { bigStream, streamConcurrency, streamLatency } from './lib/workloads/streaming.mjs';
import { capacitySearch, fixedRates } from './lib/workloads/throughput.mjs';

const args = readArgs(process.argv.slice(2));
const { profile, mock } = args;
const started = Date.now();
const log = (msg) =>
  process.stdout.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${msg}\n`);
const workers = [];
const failures = [];

async function shutdown(code) {
  await Promise.allSettled(workers.map((w) => w.dispose()));
  process.exit(code);
}
setTimeout(() => {
  console.error(`bench: the ${args.mode} run exceeded its ${profile.deadlineMs / 1000}s deadline`);
  void shutdown(1);
}, profile.deadlineMs).unref();

const results = {
  meta: { date: new Date().toISOString(), mode: args.mode, machine: machine(), mock },
  notes: [],
};
const layout = cpuLayout(profile.pin);
results.meta.cpuLayout = layout.sut
  ? `Worker under test on CPU ${layout.sut}; load generator, mock and harness on CPU ${layout.rest}`
  : 'not pinned';

log(`${args.mode} run · bundling the gateway and the mock (wrangler deploy --dry-run)`);
const gatewayScript = bundle('wrangler.toml', 'gateway');
const mockScript = bundle('workers/mock-llm/wrangler.toml', 'mock');

log('starting mock, floor and Edgeway under workerd');
const adminToken = `bench_${randomBytes(12).toString('hex')}`;
const mockW = await startMock(mockScript, { cpus: layout.rest });
workers.push(mockW);
const floorW = await startFloor(mockW.url, { cpus: layout.sut });
workers.push(floorW);
const relayFloorW = await startRelayFloor(mockW.url, { cpus: layout.sut });
workers.push(relayFloorW);
// Edgeway as deployed: its log queue's consumer (and that consumer's D1 writes) runs elsewhere, not on
// the thread serving requests (bench/lib/stack.mjs); a second process keeps the consumer in, as
// `wrangler dev` does, for the latency, rate and capacity workloads.
const gatewayW = await startGateway(gatewayScript, {
  mockUrl: mockW.url,
  adminToken,
  logConsumer: false,
  cpus: layout.sut,
});
workers.push(gatewayW);
const consumerW = gatewayW.logQueue
  ? await startGateway(gatewayScript, {
      mockUrl: mockW.url,
      adminToken,
      label: 'gateway-consumer',
      cpus: layout.sut,
    })
  : null;
if (consumerW) workers.push(consumerW);
const noLogW = gatewayW.logQueue
  ? await startGateway(gatewayScript, {
      mockUrl: mockW.url,
      adminToken,
      logQueue: false,
      label: 'gateway-nolog',
      cpus: layout.sut,
    })
  : null;
if (noLogW) workers.push(noLogW);
else results.notes.push('wrangler.toml binds no log queue: the logging on/off scenario was skipped.');
results.meta.gatewayBindings = gatewayW.bindings;
results.meta.pinned = workers.every((w) => w.pinned);

const keys = await seedKeys(gatewayW, adminToken, {
  plain: {},
  limits: { limits: { rpm: 1_000_000 } },
  exact: { cache: { exact: true } },
  semantic: { cache: { semantic: true } },
  guarded: { guardrails: GUARDED_POLICY },
});
const noLogKeys = noLogW ? await seedKeys(noLogW, adminToken, { plain: {} }) : null;
const consumerKeys = consumerW ? await seedKeys(consumerW, adminToken, { plain: {} }) : null;
// Named routes whose targets carry the mock's controls in their model ids. A 404 falls back without
// counting against the target's breaker, so every request pays one failed call; a 503 opens it.
const served = `mock/mock-small;latency_ms=${mock.latencyMs};tokens=${mock.tokens}`;
await seedRoutes(gatewayW, adminToken, {
  'bench-fallback': {
    strategy: 'fallback',
    targets: [{ model: 'mock/mock-small;status=404;key=fallback' }, { model: served }],
  },
  'bench-breaker': {
    strategy: 'fallback',
    targets: [{ model: 'mock/mock-small;status=503;key=breaker' }, { model: served }],
  },
});

const loadgen = createLoadgen({ prefer: profile.loadgen, cpus: layout.rest });
results.meta.loadgen = loadgen.name;
if (loadgen.note) results.notes.push(loadgen.note);
const ctx = { loadgen, log };

const direct = target('direct', {
  label: 'direct to mock',
  url: mockW.url,
  key: 'mock-key',
  model: 'mock-small',
  pid: mockW.pid,
});
const floor = target('floor', {
  label: 'floor (pass-through Worker)',
  url: floorW.url,
  key: 'mock-key',
  model: 'mock-small',
  pid: floorW.pid,
});
const edgeway = target('edgeway', {
  label: 'Edgeway',
  url: gatewayW.url,
  key: keys.plain,
  model: 'mock/mock-small',
  pid: gatewayW.pid,
});
/** The floor plus reading the request body and every answer in JavaScript: what the runtime charges any gateway that reads both ends. */
const relayFloor = target('floor-relay', {
  label: 'relay floor (reads the body and the answer in JavaScript)',
  url: relayFloorW.url,
  key: 'mock-key',
  model: 'mock-small',
  pid: relayFloorW.pid,
});
/** Where latency, per-request and per-chunk cost and the sustained rate are compared, the relay floor runs too. */
const withRelayFloor = [direct, floor, relayFloor, edgeway];
/** The same bundle with its log consumer writing D1 in the gateway's own process, as under `wrangler dev`. */
const withConsumer = consumerW
  ? target('edgeway-consumer', {
      label: 'Edgeway, log consumer in its process',
      url: consumerW.url,
      key: consumerKeys.plain,
      model: 'mock/mock-small',
      pid: consumerW.pid,
    })
  : null;
/** Latency, fixed rates and the sustained rate also run the gateway with its consumer in. */
const requestTargets = withConsumer ? [...withRelayFloor, withConsumer] : withRelayFloor;
/** The same gateway with every local guardrail on for requests and answers (streams are rewritten). */
const guarded = target('edgeway-guarded', {
  label: 'Edgeway, guardrails on (injection, PII, secrets, deny-list)',
  url: gatewayW.url,
  key: keys.guarded,
  model: 'mock/mock-small',
  pid: gatewayW.pid,
});
/** The same gateway and mock, reached through an Anthropic-format provider row: every stream is translated. */
const translated = target('edgeway-translated', {
  label: 'Edgeway, translated (OpenAI client → Anthropic format)',
  url: gatewayW.url,
  key: keys.plain,
  model: 'claude-only/mock-small',
  pid: gatewayW.pid,
  controlsInModel: true,
});

/** The Responses API (`POST /v1/responses`) to the mock itself, which serves it natively. */
const directResponses = target('direct-responses', {
  label: 'direct to mock, Responses API',
  url: mockW.url,
  key: 'mock-key',
  model: 'mock-small',
  pid: mockW.pid,
  endpoint: 'responses',
});
/** The Responses API through the gateway to the mock row, which serves it: same-format pass-through. */
const responses = target('edgeway-responses', {
  label: 'Edgeway, Responses API (same-format pass-through)',
  url: gatewayW.url,
  key: keys.plain,
  model: 'mock/mock-small',
  pid: gatewayW.pid,
  endpoint: 'responses',
});
/** The Responses API to the Anthropic-format row: every request and event translated (Responses → Anthropic and back). */
const responsesTranslated = target('edgeway-responses-translated', {
  label: 'Edgeway, Responses API translated (Responses client → Anthropic format)',
  url: gatewayW.url,
  key: keys.plain,
  model: 'claude-only/mock-small',
  pid: gatewayW.pid,
  controlsInModel: true,
  endpoint: 'responses',
});
const responsesTargets = [directResponses, responses, responsesTranslated];

/** The scenarios' limited key (rpm 1,000,000): its tenant's object is asked, from a lease when busy. */
const limitedT = target('edgeway-limits', {
  label: 'Edgeway, limited key (rpm 1,000,000)',
  url: gatewayW.url,
  key: keys.limits,
  model: 'mock/mock-small',
  pid: gatewayW.pid,
});
/**
 * A plain key whose tenant meters its end users (`end_users`: $1,000 a day each, which nothing
 * reaches), each request naming one of 1,000 end users in `x-edgeway-user`: one round trip to the
 * user's shard before the upstream call (the tenant's own object is not asked: nothing else is limited).
 */
const END_USERS = Array.from({ length: 1000 }, (_, i) => `bench-user-${i}`);
const endUserTenants = {};
const endUserKey = await seedKeys(
  gatewayW,
  adminToken,
  { endUsers: { tenant: { end_users: { limits: {}, budgets: { usd: { day: 1000 } } } } } },
  endUserTenants,
).then(
  (k) => k.endUsers,
  (err) => {
    results.notes.push(
      `The end-user budget target was skipped: its tenant's end_users could not be set (${err.message.split('\n')[0]}).`,
    );
    return null;
  },
);
const endUsersT = endUserKey
  ? target('edgeway-end-users', {
      label: 'Edgeway, end-user budget (x-edgeway-user over 1,000 users)',
      url: gatewayW.url,
      key: endUserKey,
      model: 'mock/mock-small',
      pid: gatewayW.pid,
      rotateHeaders: { 'x-edgeway-user': END_USERS },
    })
  : null;
/** The same key, every request for one end user: a busy user (an agent's session) is admitted from leases. */
const busyUserT = endUserKey
  ? target('edgeway-end-user-busy', {
      label: 'Edgeway, end-user budget (one busy end user)',
      url: gatewayW.url,
      key: endUserKey,
      model: 'mock/mock-small',
      pid: gatewayW.pid,
      rotateHeaders: { 'x-edgeway-user': ['bench-busy-user'] },
    })
  : null;
/** The latency workload also runs the limited key and the end-user targets beside the plain one. */
const scopeTargets = endUsersT ? [limitedT, endUsersT, busyUserT] : [limitedT];

// Fail loudly and early if any target cannot answer one request.
for (const t of [...requestTargets, ...scopeTargets, ...responsesTargets]) {
  const res = await fetch(endpointUrl(t), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${t.key}`,
      'content-type': 'application/json',
      ...(t.rotateHeaders
        ? Object.fromEntries(Object.entries(t.rotateHeaders).map(([h, v]) => [h, v[0]]))
        : {}),
    },
    body: chatBody(t, mock),
  });
  const text = await res.text();
  if (res.status !== 200) {
    console.error(`bench: ${t.label} answered ${res.status}: ${text.slice(0, 500)}`);
    await shutdown(1);
  }
}
results.meta.idleRssMiB = Object.fromEntries(workers.map((w) => [w.name, rssMiB(w.pid)]));

/** Runs one workload; a dead Worker process stops the run (every later number would be about a corpse). */
let dead = null;
async function workload(name, fn, alsoUnder = []) {
  if (![name, ...alsoUnder].some(args.runs) || dead) return;
  log(name);
  try {
    results[name] = await fn();
  } catch (err) {
    failures.push(`${name}: ${err.stack ?? err}`);
    log(`${name} FAILED: ${err.message}`);
  }
  dead = workers.find((w) => !alive(w.pid)) ?? null;
  if (dead)
    failures.push(
      `${dead.name}'s workerd process exited during ${name}; later workloads were skipped. Its last output:\n${dead.output().slice(-2000)}`,
    );
}

await workload('latency', async () => {
  const out = await latencyWorkload(ctx, [...requestTargets, ...scopeTargets], {
    ...profile.latency,
    ...mock,
  });
  // Did the scopes engage: the limited key's answers carry x-ratelimit-* headers, and the end users'
  // shards counted their requests (three of them read back through the admin API).
  const limitedRuns = out.perTarget['edgeway-limits']?.runs ?? [];
  out.scopes = {
    limitsEngaged:
      limitedRuns.length > 0 &&
      limitedRuns.every((r) =>
        Object.entries(r.headerCounts?.['x-ratelimit-limit-requests'] ?? {}).some(
          ([v, n]) => v !== '' && n > 0,
        ),
      ),
    endUsers: endUsersT
      ? {
          users: END_USERS.length,
          spentBySample: Object.fromEntries(
            await Promise.all(
              END_USERS.slice(0, 3).map(async (u) => [
                u,
                await endUserRequestsToday(gatewayW, adminToken, endUserTenants.endUsers, u),
              ]),
            ),
          ),
        }
      : null,
  };
  return out;
});
await workload('rates', () =>
  fixedRates(ctx, requestTargets, { ...profile.fixedRates, ...mock, mockPid: mockW.pid }),
);
if (profile.capacity)
  await workload('capacity', () =>
    capacitySearch(ctx, requestTargets, { ...profile.capacity, ...mock, mockPid: mockW.pid }),
  );
await workload('streams', async () => {
  const low = await streamLatency(ctx, [...withRelayFloor, translated, guarded, ...responsesTargets], {
    ...profile.streamLatency,
    latencyMs: mock.latencyMs,
  });
  const expected = Object.fromEntries(
    withRelayFloor.map((t) => [t.name, low.perTarget[t.name].expectedEvents]),
  );
  const concurrency = await streamConcurrency(ctx, withRelayFloor, {
    ...profile.streamConcurrency,
    latencyMs: mock.latencyMs,
    expected,
    mockPid: mockW.pid,
  });
  return { low, concurrency };
});
// A second gateway with the inspector enabled: JS heap probes for the memory workload, CPU profiles.
let inspect = null;
async function inspectedGateway() {
  if (!inspect) {
    const worker = await startGateway(gatewayScript, {
      mockUrl: mockW.url,
      adminToken,
      label: 'gateway-inspect',
      cpus: layout.sut,
      extra: { inspectorPort: 0 },
    });
    workers.push(worker);
    const k = await seedKeys(worker, adminToken, { plain: {} });
    inspect = {
      worker,
      t: target('edgeway', {
        label: 'Edgeway (inspector on)',
        url: worker.url,
        key: k.plain,
        model: 'mock/mock-small',
        pid: worker.pid,
      }),
      translated: target('edgeway-translated', {
        label: 'Edgeway translated (inspector on)',
        url: worker.url,
        key: k.plain,
        model: 'claude-only/mock-small',
        pid: worker.pid,
        controlsInModel: true,
      }),
      responses: target('edgeway-responses', {
        label: 'Edgeway, Responses API (inspector on)',
        url: worker.url,
        key: k.plain,
        model: 'mock/mock-small',
        pid: worker.pid,
        endpoint: 'responses',
      }),
      responsesTranslated: target('edgeway-responses-translated', {
        label: 'Edgeway, Responses API translated (inspector on)',
        url: worker.url,
        key: k.plain,
        model: 'claude-only/mock-small',
        pid: worker.pid,
        controlsInModel: true,
        endpoint: 'responses',
      }),
    };
  }
  return inspect;
}
await workload('memory', async () => {
  const { worker, t, translated: tt, responses: rt, responsesTranslated: rtt } = await inspectedGateway();
  const probe = await heapProbe(worker.mf, 'edgeway');
  try {
    return await bigStream(ctx, [floor, t, tt, rt, rtt], {
      ...profile.bigStream,
      heapProbes: Object.fromEntries([t, tt, rt, rtt].map((x) => [x.name, probe])),
    });
  } finally {
    await probe.close();
  }
});
await workload('scenarios', () => {
  const scenarioTargets = {
    plain: edgeway,
    limits: { ...edgeway, key: keys.limits },
    exact: { ...edgeway, key: keys.exact },
    semantic: { ...edgeway, key: keys.semantic },
    guarded: { ...edgeway, key: keys.guarded },
    routeFallback: { ...edgeway, model: 'bench-fallback', controls: false },
    routeBreaker: { ...edgeway, model: 'bench-breaker', controls: false },
    noLog: noLogW
      ? target('edgeway-nolog', {
          url: noLogW.url,
          key: noLogKeys.plain,
          model: 'mock/mock-small',
          pid: noLogW.pid,
        })
      : null,
  };
  const list = scenarioList(scenarioTargets, { ...mock, requests: profile.scenarios.requests });
  return scenariosWorkload(ctx, list, profile.scenarios);
});
// The guardrail libraries alone, in this process's V8 (no Worker): per-call cost on fixed inputs, bundle size.
await workload('guardrails', () => measureGuardrailsMicro({ iterations: profile.guardrails.iterations }));
// MCP: a tools/call to the mock's MCP server directly and through /mcp (plain key; limits and guardrails), on a
// gateway of its own that has a PROVIDER_KEYS_SECRET to open the upstream's sealed bearer.
await workload('mcp', async () => {
  const keysSecret = benchKeysSecret();
  const worker = await startGateway(gatewayScript, {
    mockUrl: mockW.url,
    adminToken,
    logConsumer: false,
    label: 'gateway-mcp',
    cpus: layout.sut,
    vars: { PROVIDER_KEYS_SECRET: keysSecret },
  });
  workers.push(worker);
  const out = await runMcpBench(ctx, {
    mock: mockW,
    gateway: worker,
    adminToken,
    keysSecret,
    profile: profile.mcp,
  });
  for (const p of out.problems) failures.push(`mcp: ${p}`);
  for (const [h, byC] of Object.entries(out.harnesses))
    for (const [name, t] of Object.entries(byC[1]?.perTarget ?? {}))
      if (t.errors)
        failures.push(`mcp: ${t.errors} failed calls at concurrency 1 against ${name} (${h} client)`);
  return out;
});
// One hot tenant: the limits stage alone (bench/hot-tenant drivers, one Limiter object), leases off and on.
await workload('hot-tenant', async () => {
  const out = await hotTenantWorkload(ctx, { mode: args.mode, cpus: layout.all });
  for (const m of Object.values(out.perMode))
    for (const c of [m.ledger, m.budget.check])
      for (const v of c.violations) failures.push(`hot-tenant (leases ${m.leases}): ${v}`);
  return out;
});
// The same tenant with 100,000 end users, each on a default budget (32 user shards); also under `--only hot-tenant`.
await workload('hot-tenant-users', async () => {
  const out = await hotTenantUsersWorkload(ctx, { mode: args.mode, cpus: layout.all });
  for (const v of [...out.tenantLedger.violations, ...out.users.violations])
    failures.push(`hot-tenant-users: ${v}`);
  return out;
}, ['hot-tenant']);
// The capacity model (bench/capacity driver): log write path and key lookups; the limiter's figures from
// this run's hot-tenant result, else the newest saved one. Also runs under `--only capacity`.
await workload(
  'capacity-model',
  () => capacityWorkload(ctx, { mode: args.mode, hotTenant: results['hot-tenant'] ?? null }),
  ['capacity'],
);
await workload('profile', async () => {
  const { worker, t } = await inspectedGateway();
  return profileWorkload(ctx, {
    worker,
    t,
    script: gatewayScript,
    ...profile.profile,
    ...mock,
    stream: profile.streamLatency,
  }).catch((err) => {
    if (err.code === 'INSPECTOR_TIMEOUT') {
      results.notes.push(`Profiling skipped: ${err.message}.`);
      return undefined;
    }
    if (err.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    results.notes.push('Profiling skipped: the `ws` package (a Miniflare dependency) is not installed.');
    return undefined;
  });
});
// Cold start: bundle size and startup CPU (`wrangler check startup`) of the floor, the relay floor and the
// gateway, each built as deployed; last, while the Workers started above sit idle.
await workload('cold-start', () =>
  coldStartWorkload({ wrangler: WRANGLER, root: ROOT, buildDir: BUILD, runs: profile.coldStart.runs }),
);
results.meta.loadAverageAfter = machine().loadAverage;
results.meta.seconds = Math.round((Date.now() - started) / 1000);

// Harness integrity: these break only when the bench or the gateway is broken.
for (const [name, t] of Object.entries(results.latency?.perTarget ?? {}))
  if (t.errors) failures.push(`latency: ${t.errors} failed requests at concurrency 1 against ${name}`);
for (const [name, t] of Object.entries(results.streams?.low.perTarget ?? {}))
  if (t.incomplete)
    failures.push(`streams: ${t.incomplete} incomplete streams at low concurrency against ${name}`);
for (const s of results.scenarios ?? []) {
  if (s.errors) failures.push(`scenario ${s.name}: ${s.errors} failed requests`);
  if (s.name === 'exact-hit' && !s.engaged)
    failures.push('scenario exact-hit: repeated requests were not served from the exact cache');
  if (!s.engaged && s.name !== 'exact-hit')
    results.notes.push(
      `Scenario "${s.label}" did not engage (headers seen: ${JSON.stringify(s.headerCounts)}); it is listed but not a cost.`,
    );
}
results.failures = failures;

const outDir = args.out ?? join(ROOT, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
const stem = join(outDir, `${results.meta.date.slice(0, 19).replace(/:/g, '-')}-${args.mode}`);
writeFileSync(`${stem}.json`, `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(`${stem}.svg`, latencyChart(results));
writeFileSync(`${stem}.md`, markdownReport(results, `${stem.split('/').pop()}.svg`));
process.stdout.write(`\n${summaryTable(results)}\n`);
log(`report: ${stem}.md (+ .json, .svg)`);
if (failures.length) {
  console.error(`\nbench: the harness found ${failures.length} problem(s):\n- ${failures.join('\n- ')}`);
  for (const w of workers)
    if (w.output().trim()) console.error(`--- ${w.name} output (tail) ---\n${w.output().slice(-3000)}`);
}
await shutdown(failures.length ? 1 : 0);
