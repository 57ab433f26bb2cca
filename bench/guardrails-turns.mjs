#!/usr/bin/env node
/**
 * The injection guardrail on agent turns, measured through the gateway under
 * workerd as the bench starts it (bench/lib/stack.mjs: the mock LLM and the
 * gateway, 127.0.0.1, in-memory storage). A key's policy is
 * `injection: { request: 'block' }`; each turn (bench/lib/agent-turns.mjs) is a
 * chat completion with N tool calls answered by N `tool` messages, carrying
 * tool results of the tool-output generator drawn with a seed it was not
 * trained on. For each N it reports the share of turns of benign results the
 * gateway refuses (400 guardrail_blocked), and the share of turns with one
 * injected result among N-1 benign ones it catches.
 *
 * When the tree has the `quarantine` action (the admin API accepts
 * `injection: { request: 'block', tool_results: 'quarantine' }` and echoes it
 * back), a second key with that policy is measured too: a benign turn counts
 * when x-edgeway-guardrails names `injection:tool:quarantine`, an injected turn
 * is caught when the header names its injected result's id.
 *
 * Next to them, the same turns judged in this process by the tool-result
 * detector itself (src/guardrails/injection/tool-results.ts, judgeToolResults
 * against TOOL_RESULT_THRESHOLD), which the gateway's shares should equal:
 * the pipeline adds nothing to the detector's verdicts.
 *
 *   node bench/guardrails-turns.mjs [--quick] [--turns 200] [--ns 1,5,20] [--seed 99]
 *                                   [--generator scripts/guardrails/tool-outputs.mjs] [--json out.json]
 *
 * Prints a table and the figures as JSON; exits 1 when a turn fails for any
 * other reason than a guardrail, a user task alone (the control) is refused,
 * or the run overruns its deadline.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadBundle } from './guardrails-micro.mjs';
import { callId, controlBody, drawTurns, judgeAnswer, turnBody } from './lib/agent-turns.mjs';
import { bundle, startGateway, startMock } from './lib/stack.mjs';
import { percentile } from './lib/stats.mjs';
import { loadGenerator } from './lib/tool-outputs.mjs';

/** A seed the tool-result model was not trained on (training uses scripts/guardrails/lib-indirect.mjs's). */
export const DEFAULT_SEED = 99;
const BLOCK = { injection: { request: 'block' } };
const QUARANTINE = { injection: { request: 'block', tool_results: 'quarantine' } };
const MODEL = 'mock/mock-small';

async function admin(url, token, path, body) {
  const res = await fetch(`${url}/admin${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

/**
 * A tenant and a key whose policy is `guardrails`; null when the admin API refuses the policy or does
 * not echo it back whole (a tree without the action).
 */
async function keyWith(gateway, token, name, guardrails) {
  const tenant = await admin(gateway.url, token, '/tenants', { name: `turns ${name}` });
  if (tenant.status !== 201 && tenant.status !== 200)
    throw new Error(`admin POST /tenants → ${tenant.status}: ${JSON.stringify(tenant.body).slice(0, 300)}`);
  const key = await admin(gateway.url, token, '/keys', { tenant_id: tenant.body.id, name, guardrails });
  if (key.status === 400) return null;
  if (key.status !== 201 && key.status !== 200)
    throw new Error(`admin POST /keys → ${key.status}: ${JSON.stringify(key.body).slice(0, 300)}`);
  const echoed = key.body.guardrails?.injection ?? {};
  const whole = Object.entries(guardrails.injection).every(([k, v]) => echoed[k] === v);
  return whole ? key.body.key : null;
}

/** The commit of the generator's checkout (`-dirty` when its files are changed), or null outside git. */
function versionOf(path) {
  const run = spawnSync('git', ['-C', dirname(path), 'describe', '--always', '--dirty'], {
    encoding: 'utf8',
  });
  return run.status === 0 ? run.stdout.trim() : null;
}

/** The share of benign turns with some result at or over the threshold, and of injected turns whose injected result is. */
function judgeInProcess(detector, benignTurns, injectedTurns) {
  const threshold = detector.TOOL_RESULT_THRESHOLD;
  const scores = (t) => detector.judgeToolResults(t.results.map((r) => r.text)).scores;
  const share = (xs, hit) => Math.round((xs.filter(hit).length / xs.length) * 1e4) / 1e4;
  return {
    benign: share(benignTurns, (t) => scores(t).some((s) => s >= threshold)),
    injected: share(injectedTurns, (t) => scores(t)[t.injectedAt] >= threshold),
  };
}

/** Sends one turn; its status, body, guardrails header and wall-clock latency. */
async function send(gateway, key, body) {
  const t0 = performance.now();
  const res = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text,
    header: res.headers.get('x-edgeway-guardrails'),
    ms: performance.now() - t0,
  };
}

/** Every turn of one kind (benign, or one injected) at one N; the shares and the latency. */
async function runTurns(gateway, key, turns, failures) {
  let blocked = 0;
  let quarantinedTurns = 0;
  let quarantinedResults = 0;
  let caught = 0;
  let unlisted = 0;
  let errors = 0;
  const ms = [];
  for (const turn of turns) {
    const answer = await send(gateway, key, turnBody(turn, { model: MODEL }));
    const injectedId = turn.injectedAt === null ? null : callId(turn.turn, turn.injectedAt);
    const v = judgeAnswer(answer, { injectedId });
    ms.push(answer.ms);
    if (v.blocked) blocked++;
    if (v.quarantined > 0) quarantinedTurns++;
    quarantinedResults += v.quarantined;
    if (v.caught) caught++;
    if (v.unlisted) unlisted++;
    if (v.error) {
      errors++;
      if (failures.length < 5)
        failures.push(`turn ${turn.turn}: ${answer.status} ${answer.body.slice(0, 300)}`);
    }
  }
  const share = (k) => Math.round((k / turns.length) * 1e4) / 1e4;
  return {
    turns: turns.length,
    blocked: share(blocked),
    quarantined: share(quarantinedTurns),
    quarantinedResults,
    caught: turns[0]?.injectedAt === null ? null : share(caught),
    unlisted: turns[0]?.injectedAt === null ? null : share(unlisted),
    errors,
    p50Ms: Math.round(percentile(ms, 50) * 100) / 100,
    p99Ms: Math.round(percentile(ms, 99) * 100) / 100,
  };
}

/**
 * Starts the mock and the gateway (pushed onto `workers`, so a caller can stop them early), provisions
 * the keys, runs every N and kind, stops the Workers.
 * Returns { meta, policies: { block: { policy, byN: { [n]: { benign, injected } } }, quarantine? }, failures }.
 */
export async function measureGuardrailTurns({
  turns = 200,
  ns = [1, 5, 20],
  seed = DEFAULT_SEED,
  generator,
  log = () => {},
  workers = [],
} = {}) {
  const gen = await loadGenerator(generator);
  if (!gen)
    throw new Error('the tool-output generator is absent: pass --generator or set EDGEWAY_TOOL_OUTPUTS');
  const rows = gen.toolOutputs({ seed, count: Math.max(2_000, 4 * Math.max(...ns)) });
  const benign = rows.filter((r) => r.label === 'benign');
  const injected = rows.filter((r) => r.label === 'injection');

  log('bundling the gateway and the mock (wrangler deploy --dry-run)');
  const gatewayScript = bundle('wrangler.toml', 'gateway');
  const mockScript = bundle('workers/mock-llm/wrangler.toml', 'mock');
  try {
    log('starting the mock and the gateway under workerd');
    const mock = await startMock(mockScript);
    workers.push(mock);
    const adminToken = `bench_${randomBytes(12).toString('hex')}`;
    const gateway = await startGateway(gatewayScript, { mockUrl: mock.url, adminToken, logConsumer: false });
    workers.push(gateway);

    const keys = { block: await keyWith(gateway, adminToken, 'block', BLOCK) };
    if (!keys.block) throw new Error(`the admin API refused ${JSON.stringify(BLOCK)}`);
    const quarantine = await keyWith(gateway, adminToken, 'quarantine', QUARANTINE);
    if (quarantine) keys.quarantine = quarantine;
    const policies = {};
    const failures = [];
    const detector = await loadBundle('src/guardrails/injection/tool-results.ts');
    // The same turns under every policy and for the detector: the seed depends on N only.
    const turnsAt = new Map(
      ns.map((n) => {
        const draw = { benign, n, turns, seed: seed * 1_000 + n };
        return [n, { benign: drawTurns(draw), injected: drawTurns({ ...draw, injected }) }];
      }),
    );
    const inProcess = {
      threshold: detector.TOOL_RESULT_THRESHOLD,
      byN: Object.fromEntries(
        ns.map((n) => [n, judgeInProcess(detector, turnsAt.get(n).benign, turnsAt.get(n).injected)]),
      ),
    };
    const domains = [...new Set(benign.map((r) => r.domain))].sort();
    for (const [name, key] of Object.entries(keys)) {
      // Each user task alone: a turn refused below must have been refused for its tool results.
      const control = [];
      for (const domain of domains) {
        const v = judgeAnswer(await send(gateway, key, controlBody(domain, { model: MODEL })));
        if (v.blocked || v.error) control.push(domain);
      }
      if (control.length > 0)
        failures.push(`${name}: the user task alone was refused for ${control.join(', ')}`);
      const byN = {};
      for (const n of ns) {
        log(`${name}: ${turns} turns of ${n} benign results, then ${turns} with one injected`);
        byN[n] = {
          benign: await runTurns(gateway, key, turnsAt.get(n).benign, failures),
          injected: await runTurns(gateway, key, turnsAt.get(n).injected, failures),
        };
      }
      policies[name] = {
        policy: name === 'block' ? BLOCK : QUARANTINE,
        control: { tasks: domains.length, refused: control },
        byN,
      };
    }
    return {
      meta: {
        date: new Date().toISOString(),
        generator: gen.path,
        generatorVersion: versionOf(gen.path),
        seed,
        rows: { benign: benign.length, injected: injected.length },
        turns,
        ns,
        quarantine: Boolean(keys.quarantine),
      },
      policies,
      detector: inProcess,
      failures,
    };
  } finally {
    await Promise.allSettled(workers.map((w) => w.dispose()));
  }
}

const pct = (x) => (x === null ? '–' : `${(x * 100).toFixed(1)} %`);

export function turnsTable(result) {
  const lines = [
    `Agent turns through the gateway (workerd, 127.0.0.1): ${result.meta.turns} turns per N and kind, tool results ` +
      `from ${result.meta.generator}${result.meta.generatorVersion ? ` at ${result.meta.generatorVersion}` : ''} ` +
      `(seed ${result.meta.seed}).`,
    '',
    '| policy | N | benign turns refused | benign turns with a result quarantined | injected turns caught | benign p50 ms | benign p99 ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const [name, p] of Object.entries(result.policies)) {
    for (const [n, r] of Object.entries(p.byN)) {
      const q = name === 'quarantine';
      lines.push(
        `| \`${JSON.stringify(p.policy.injection)}\` | ${n} | ${pct(r.benign.blocked)} | ` +
          `${q ? pct(r.benign.quarantined) : '–'} | ${pct(r.injected.caught)}` +
          `${r.injected.unlisted > 0 ? ` (+${pct(r.injected.unlisted)} not listed)` : ''} | ` +
          `${r.benign.p50Ms} | ${r.benign.p99Ms} |`,
      );
    }
  }
  if (!result.meta.quarantine)
    lines.push('', 'This tree has no `tool_results: quarantine` (the admin API refused it): block only.');
  else
    lines.push(
      '',
      'Quarantine: an injected turn is caught when x-edgeway-guardrails names its injected result; "not listed": ' +
        'the header named its first results only and left the injected one out (undetermined).',
    );
  lines.push(
    '',
    `The same turns judged in process by the tool-result detector (judgeToolResults, threshold ${result.detector.threshold}):`,
    '',
    '| N | benign turns with a result at or over the threshold | injected turns whose injected result is |',
    '| ---: | ---: | ---: |',
    ...Object.entries(result.detector.byN).map(
      ([n, r]) => `| ${n} | ${pct(r.benign)} | ${pct(r.injected)} |`,
    ),
  );
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      turns: { type: 'string' },
      ns: { type: 'string' },
      seed: { type: 'string' },
      generator: { type: 'string' },
      json: { type: 'string' },
      deadline: { type: 'string' },
    },
  });
  const started = Date.now();
  const log = (msg) =>
    process.stdout.write(`[turns ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${msg}\n`);
  const deadline = Number(values.deadline ?? (values.quick ? 300 : 900));
  const workers = [];
  setTimeout(async () => {
    console.error(`guardrails-turns: the run exceeded its ${deadline}s deadline`);
    await Promise.allSettled(workers.map((w) => w.dispose()));
    process.exit(1);
  }, deadline * 1000).unref();
  const result = await measureGuardrailTurns({
    turns: Number(values.turns ?? (values.quick ? 40 : 200)),
    ns: (values.ns ?? '1,5,20').split(',').map(Number),
    seed: values.seed ? Number(values.seed) : DEFAULT_SEED,
    generator: values.generator,
    log,
    workers,
  });
  console.log(`\n${turnsTable(result)}\n`);
  console.log(JSON.stringify(result, null, 2));
  if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
  const errors = Object.values(result.policies).flatMap((p) => [
    p.control.refused.length,
    ...Object.values(p.byN).flatMap((r) => [r.benign.errors, r.injected.errors]),
  ]);
  if (errors.some((e) => e > 0)) {
    console.error(`guardrails-turns: turns failed:\n${result.failures.join('\n')}`);
    process.exit(1);
  }
  process.exit(0);
}
