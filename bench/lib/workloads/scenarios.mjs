/**
 * Workload 6: what each feature costs. Every scenario is the same request at
 * concurrency 1 through Edgeway with a key (or an instance) that switches one
 * feature on; it is compared with the plain key (or its named baseline) in the same repeat, against the
 * same processes. A scenario whose feature did not engage (no rate-limit
 * headers, no cache hits) is reported as not engaged rather than as a number,
 * so a feature that is not wired yet cannot pass for a free one.
 */
import { closedRun } from '../measure.mjs';
import { acrossRuns } from '../stats.mjs';
import { GUARDED_SUFFIX, PROMPT, chatBody } from '../targets.mjs';

const share = (counts, value) => {
  const total = Object.values(counts ?? {}).reduce((a, b) => a + b, 0);
  return total ? (counts[value] ?? 0) / total : 0;
};

/**
 * The scenarios, given targets for each key. Each has a body factory, an optional
 * priming step and an `engaged` check over the measured run.
 */
export function scenarioList(targets, { latencyMs, tokens, requests }) {
  const plain = (t) => chatBody(t, { latencyMs, tokens });
  // Semantic: temperature 0 (required for eligibility) and prompts that differ only in
  // trailing spaces, so each misses the exact cache but embeds like the primed one.
  const semantic = (t, k) =>
    chatBody(t, { latencyMs, tokens, extra: { temperature: 0 }, content: `${PROMPT}${' '.repeat(k)}` });
  return [
    {
      name: 'plain',
      label: 'plain key (no limits, no cache)',
      target: targets.plain,
      body: plain,
      engaged: () => true,
    },
    {
      name: 'limits',
      label: 'rate limits on (rpm 1,000,000)',
      target: targets.limits,
      body: plain,
      engaged: (run) => share(run.headerCounts['x-ratelimit-limit-requests'], '') < 1,
    },
    {
      name: 'exact-hit',
      label: 'exact-cache hit',
      target: targets.exact,
      body: plain,
      prime: plain,
      engaged: (run) => share(run.headerCounts['x-edgeway-cache'], 'HIT') >= 0.99,
    },
    {
      name: 'semantic-hit',
      label: 'semantic-cache hit',
      target: targets.semantic,
      body: (t) => Array.from({ length: requests }, (_, i) => semantic(t, i + 1)),
      prime: (t) => semantic(t, 0),
      engaged: (run) => share(run.headerCounts['x-edgeway-cache'], 'SEMANTIC') >= 0.9,
    },
    ...(targets.guarded
      ? [
          {
            name: 'stream',
            label: `plain key, streamed (${tokens} chunks)`,
            target: targets.plain,
            body: (t) => chatBody(t, { latencyMs, tokens, stream: true }),
            engaged: () => true,
          },
          {
            name: 'guardrails-stream',
            label: 'guardrails on, streamed: every delta through the redactors',
            baseline: 'stream',
            target: targets.guarded,
            body: (t) =>
              chatBody(t, { latencyMs, tokens, stream: true, content: `${PROMPT} ${GUARDED_SUFFIX}` }),
            engaged: (run) => share(run.headerCounts['x-edgeway-guardrails'], '') < 1,
          },
          {
            name: 'guardrails',
            label:
              'guardrails on (injection block; PII, secrets, deny-list redact both ways); prompt with an e-mail',
            target: targets.guarded,
            body: (t) => chatBody(t, { latencyMs, tokens, content: `${PROMPT} ${GUARDED_SUFFIX}` }),
            engaged: (run) => share(run.headerCounts['x-edgeway-guardrails'], '') < 1,
          },
        ]
      : []),
    ...(targets.routeFallback
      ? [
          {
            name: 'route-fallback',
            label: 'named route: primary answers 404 at once, fallback serves',
            target: targets.routeFallback,
            body: plain,
            engaged: (run) => share(run.headerCounts['x-edgeway-attempts'], '2') >= 0.99,
          },
          {
            name: 'route-breaker-open',
            label: 'named route: primary 503s, its breaker open (skipped)',
            target: targets.routeBreaker,
            body: plain,
            engaged: (run) => share(run.headerCounts['x-edgeway-attempts'], '1') >= 0.9,
          },
        ]
      : []),
    ...(targets.noLog
      ? [
          {
            name: 'no-log-queue',
            label: 'log queue unbound (console sink)',
            target: targets.noLog,
            body: plain,
            engaged: () => true,
          },
        ]
      : []),
  ];
}

export async function scenariosWorkload(ctx, scenarios, { requests, repeats, warmup }) {
  for (const s of scenarios) {
    if (s.prime) {
      await closedRun(ctx, s.target, s.prime(s.target), { requests: 1 });
      await new Promise((r) => setTimeout(r, 500)); // cache writes happen in waitUntil
    }
    await closedRun(ctx, s.target, s.body(s.target), { requests: warmup });
  }
  const runs = Object.fromEntries(scenarios.map((s) => [s.name, []]));
  for (let r = 0; r < repeats; r++) {
    for (const s of scenarios.map((_, i) => scenarios[(i + r) % scenarios.length])) {
      ctx.log(`  scenario · repeat ${r + 1}/${repeats} · ${s.label}`);
      runs[s.name].push(await closedRun(ctx, s.target, s.body(s.target), { requests }));
    }
  }
  return scenarios.map((s) => {
    const rs = runs[s.name];
    const engaged = rs.every((run) => s.engaged(run));
    const base = runs[s.baseline ?? 'plain'];
    const added = (p) => acrossRuns(rs.map((run, i) => run.latencyMs[p] - base[i].latencyMs[p]));
    return {
      name: s.name,
      label: s.label,
      engaged,
      latencyMs: {
        p50: acrossRuns(rs.map((x) => x.latencyMs.p50)),
        p99: acrossRuns(rs.map((x) => x.latencyMs.p99)),
      },
      baseline: s.baseline ?? 'plain',
      addedVsPlainMs: { p50: added('p50'), p99: added('p99') },
      cpuMsPerRequest: acrossRuns(rs.map((x) => x.cpuMsPerRequest).filter((v) => v !== null)),
      errors: rs.reduce((n, x) => n + x.errors, 0),
      headerCounts: rs[rs.length - 1].headerCounts,
    };
  });
}
