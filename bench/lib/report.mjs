/**
 * The Markdown report: the key table first (what the README quotes), then one
 * section per workload with its method in a sentence. Spread is shown as the
 * min–max across repeats after the median. Missing workloads are left out.
 */
import { microTable } from '../guardrails-micro.mjs';
import { capacityModelSection } from '../capacity/report.mjs';
import { hotTenantSection, hotTenantUsersSection } from '../hot-tenant/report.mjs';
import { mcpSection } from './mcp-report.mjs';

const TARGETS = ['direct', 'floor', 'edgeway'];
/**
 * The summary's columns: the relay floor (bench/floor-relay) and Edgeway with its log consumer in its
 * own process (as under `wrangler dev`) where a workload ran them.
 */
const COLUMNS = ['direct', 'floor', 'floor-relay', 'edgeway', 'edgeway-consumer'];

/** ms with sensible precision; "–" for missing values. */
export function ms(v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  return a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : v.toFixed(2);
}
const signed = (v) => (Number.isFinite(v) && v >= 0 ? `+${ms(v)}` : ms(v));
/** "median (min–max)" of an acrossRuns value. */
const spread = (r, fmt = ms) =>
  !r || !Number.isFinite(r.median)
    ? '–'
    : r.runs > 1
      ? `${fmt(r.median)} (${fmt(r.min)}…${fmt(r.max)})`
      : fmt(r.median);
const row = (cells) => `| ${cells.join(' | ')} |`;
const table = (header, rows) => [row(header), row(header.map(() => '---')), ...rows.map(row)].join('\n');
const int = (v) => (Number.isFinite(v) ? String(Math.round(v)) : '–');

/** The highest fixed rate every target sustained (where CPU per request is compared). */
function commonRate(results) {
  const rates = [...new Set((results.rates ?? []).map((r) => r.targetRps))].sort((a, b) => b - a);
  return (
    rates.find((rate) =>
      TARGETS.every((t) => results.rates.some((r) => r.target === t && r.targetRps === rate && r.sustained)),
    ) ?? null
  );
}

export function summaryTable(results) {
  const lat = results.latency;
  const rows = [];
  const triple = (get) => COLUMNS.map((t) => get(t));
  if (lat) {
    for (const p of ['p50', 'p95', 'p99']) {
      rows.push([
        `latency ${p} at concurrency 1, ms`,
        ...triple((t) => spread(lat.perTarget[t]?.latencyMs[p])),
        spread(lat.added['edgeway − direct']?.[p], signed),
        spread(lat.added['edgeway − floor']?.[p], signed),
      ]);
    }
  }
  if (results.capacity) {
    const c = (t) => results.capacity[t];
    const cell = (t) => (c(t) ? `${c(t).capped ? '≥ ' : ''}${c(t).sustainedRps}` : '–');
    rows.push(['sustained req/s (p99 < 1 s, errors < 0.1 %)', ...triple(cell), '', '']);
  }
  const rate = commonRate(results);
  if (rate !== null) {
    const cpu = (t) => results.rates.find((r) => r.target === t && r.targetRps === rate)?.cpuMsPerRequest;
    rows.push([
      `CPU ms per request of the Worker's process at ${rate}/s`,
      ...triple((t) => ms(cpu(t))),
      '',
      signed(cpu('edgeway') - cpu('floor')),
    ]);
  }
  const s = results.streams;
  if (s) {
    for (const [label, field] of [
      ['time to first event', 'ttftMs'],
      ['inter-chunk gap', 'gapMs'],
    ]) {
      for (const p of ['p50', 'p99']) {
        rows.push([
          `stream ${label} ${p}, ms`,
          ...triple((t) => spread(s.low.perTarget[t]?.[field][p])),
          spread(s.low.added['edgeway − direct']?.[field][p], signed),
          spread(s.low.added['edgeway − floor']?.[field][p], signed),
        ]);
      }
    }
    const cc = (t) => s.concurrency.perTarget[t];
    rows.push([
      `concurrent streams, all chunks, no stall > ${s.concurrency.stallMs} ms`,
      ...triple((t) => (cc(t) ? `${cc(t).capped ? '≥ ' : ''}${cc(t).sustainedStreams}` : '–')),
      '',
      '',
    ]);
  }
  const idle = results.meta.idleRssMiB ?? {};
  rows.push([
    'RSS after start, MiB',
    ms(idle.mock),
    ms(idle.floor),
    ms(idle['floor-relay']),
    ms(idle.gateway),
    ms(idle['gateway-consumer']),
    '',
    '',
  ]);
  if (results.memory) {
    const m = (t) => results.memory.perTarget[t];
    const cell = (t) => {
      const x = m(t);
      if (!x) return '–';
      const what =
        x.heapGrowthMiB === null
          ? `RSS ${signed(x.rssSecondHalfGrowthMiB)}`
          : `JS heap ${signed(x.heapGrowthMiB)}`;
      return `${what} (${x.flat ? 'flat' : 'NOT FLAT'})`;
    };
    rows.push([
      `memory growth streaming ${results.memory.streams} × ${results.memory.tokens} events (${ms(m('edgeway')?.responseMiB)} MiB) to slow readers, MiB`,
      '',
      cell('floor'),
      '',
      cell('edgeway'),
      '',
      '',
      '',
    ]);
  }
  const cold = results['cold-start']?.perTarget;
  if (cold) {
    const cells = (get) => ['', ...['floor', 'floor-relay', 'edgeway'].map((t) => get(cold[t])), '', '', ''];
    rows.push(['bundle as deployed, KiB (gzipped)', ...cells((c) => `${kib(c.rawKiB)} (${kib(c.gzipKiB)})`)]);
    rows.push(['startup CPU (wrangler check startup), ms', ...cells((c) => ms(c.startupMs))]);
  }
  return table(
    [
      '',
      'direct',
      'floor',
      'relay floor',
      'Edgeway',
      'Edgeway, log consumer in its process',
      'Edgeway − direct',
      'Edgeway − floor',
    ],
    rows,
  );
}

function methodSection(results) {
  const m = results.meta;
  const mc = m.machine;
  return [
    `# Edgeway benchmark — ${m.date.slice(0, 10)} (${m.mode})`,
    '',
    `Machine: ${mc.cpus} × ${mc.cpuModel}, ${mc.memoryGiB} GiB, ${mc.os}; Node ${mc.node}; workerd ${mc.workerd} via Miniflare ${mc.miniflare} (wrangler ${mc.wrangler}); commit ${mc.commit}.`,
    `Load average before ${mc.loadAverage.join(' / ')}, after ${m.loadAverageAfter?.join(' / ') ?? '–'}. CPU layout: ${m.cpuLayout}. Load generator: ${m.loadgen}. Run took ${m.seconds ?? '–'} s.`,
    '',
    `Method: client-observed latency over HTTP/1.1 keep-alive on 127.0.0.1, mock upstream with a fixed ${m.mock.latencyMs} ms latency and ${m.mock.tokens} tokens;`,
    "each Worker runs in its own workerd process (Miniflare API, requests to the Worker's direct socket; not `wrangler dev`), Edgeway from its own `wrangler deploy --dry-run --no-minify` bundle (the cold start measures the deployed, minified one) with the bindings of wrangler.toml",
    `(${Object.entries(m.gatewayBindings ?? {})
      .map(([k, v]) => `${k}: ${v.join(', ') || 'none'}`)
      .join('; ')}), in-memory storage.`,
    "Edgeway's log queue has no consumer in its process: deployed, the consumer runs in its own invocations and D1 and R2 are remote services, while locally their work would share the thread that serves requests. Every request still builds its log event and every batch is still sent (the local queue accepts it and, with no consumer, drops it); the consumer's own cost per event is the capacity model's. \"Edgeway, log consumer in its process\" is the same bundle with the consumer writing D1 on that thread, as under `wrangler dev`.",
    '"floor" is bench/floor: a Worker that only forwards the request with fetch. "relay floor" is bench/floor-relay: the floor plus reading both ends in JavaScript (the request body read, parsed and sent on as its own request; a JSON answer read and parsed once, a stream\'s chunks read and written on one by one), what the runtime charges any gateway that routes on the body and settles on usage. Percentiles are nearest-rank; "a (b…c)" is the median across repeats and its min…max.',
    "Open-loop latency is measured from each request's intended send time (no coordinated omission). CPU is what the OS charged the process (utime + stime), per request.",
  ].join('\n');
}

/** The issue's target for an end-user budget: added p50 at most this over the same key without one. */
export const END_USER_ADDED_P50_TARGET_MS = 0.1;

/**
 * What the end-user budget added at concurrency 1 over the plain key and over the limited key, and
 * whether the scopes engaged (null when the latency workload did not run the end-user target).
 */
export function endUserLines(lat) {
  const vsPlain = lat.added['edgeway-end-users − edgeway'];
  const vsLimited = lat.added['edgeway-end-users − edgeway-limits'];
  const busy = lat.added['edgeway-end-user-busy − edgeway'];
  if (!vsPlain) return null;
  const eu = lat.scopes?.endUsers;
  const spent = eu ? Object.values(eu.spentBySample) : [];
  const met = vsPlain.p50.median <= END_USER_ADDED_P50_TARGET_MS;
  return [
    `End-user budget (a plain key whose tenant meters its end users, \`x-edgeway-user\` over ${eu?.users ?? '–'} users): ` +
      `added p50 ${spread(vsPlain.p50, signed)} ms, p99 ${spread(vsPlain.p99, signed)} ms over the plain key; ` +
      `p50 ${spread(vsLimited?.p50, signed)} ms, p99 ${spread(vsLimited?.p99, signed)} ms over the limited key (rpm 1,000,000). ` +
      `Target: added p50 ≤ +${END_USER_ADDED_P50_TARGET_MS} ms over the plain key — ${met ? 'met' : '**not met**'} in this run.`,
    ...(busy
      ? [
          `One busy end user (every request for the same user: admitted from leases): added p50 ${spread(busy.p50, signed)} ms, p99 ${spread(busy.p99, signed)} ms over the plain key — ` +
            `${busy.p50.median <= END_USER_ADDED_P50_TARGET_MS ? 'met' : '**not met**'}.`,
        ]
      : []),
    `Engaged: ${spent.length && spent.every((n) => n > 0) ? `the first users' shard ledgers counted ${spent.join(', ')} requests today` : '**no** (the sampled users’ shards counted nothing)'}; ` +
      `limited key ${lat.scopes?.limitsEngaged ? 'answered with x-ratelimit-* headers' : '**without x-ratelimit-* headers**'}.`,
  ];
}

function latencySection(lat) {
  const names = [...COLUMNS, ...Object.keys(lat.perTarget).filter((t) => !COLUMNS.includes(t))];
  const rows = names
    .filter((t) => lat.perTarget[t])
    .map((t) => {
      const x = lat.perTarget[t];
      return [
        x.label,
        spread(x.latencyMs.p50),
        spread(x.latencyMs.p95),
        spread(x.latencyMs.p99),
        spread(x.cpuMsPerRequest),
        `${x.errors}/${x.requests}`,
        x.overheadHeaderMs ? `${ms(x.overheadHeaderMs.p50)} / ${ms(x.overheadHeaderMs.p99)}` : '',
      ];
    });
  const pairs = Object.entries(lat.added).map(([pair, d]) => [
    pair,
    ...['p50', 'p95', 'p99'].map((p) => spread(d[p], signed)),
  ]);
  return [
    `## Latency at concurrency 1 (${lat.repeats} × ${lat.requestsPerRun} requests per target)`,
    '',
    table(
      ['target', 'p50 ms', 'p95 ms', 'p99 ms', 'CPU ms/req', 'errors', 'x-edgeway-overhead-ms p50 / p99'],
      rows,
    ),
    '',
    'Differences within each repeat (median and min…max across repeats):',
    '',
    table(['', 'p50 ms', 'p95 ms', 'p99 ms'], pairs),
    ...(endUserLines(lat) ? ['', ...endUserLines(lat)] : []),
  ].join('\n');
}

function ratesSection(rates) {
  const rows = rates.map((r) => [
    r.target,
    r.targetRps,
    int(r.achievedRps),
    ms(r.p50),
    ms(r.p99),
    ms(r.max),
    `${r.errors}/${r.sent}`,
    ms(r.cpuMsPerRequest),
    ms(r.upstreamCpuMsPerRequest),
    int(r.clientCpuPct),
    r.sustained ? 'yes' : 'no',
  ]);
  return [
    '## Open loop at fixed rates',
    '',
    table(
      [
        'target',
        'rate/s',
        'achieved/s',
        'p50 ms',
        'p99 ms',
        'max ms',
        'errors',
        'CPU ms/req',
        'mock CPU ms/req',
        'client CPU %',
        'sustained',
      ],
      rows,
    ),
  ].join('\n');
}

function capacitySection(capacity) {
  const lines = [
    '## Highest sustained rate (step search: p99 < 1 s, errors < 0.1 %, ≥ 95 % of the rate achieved)',
    '',
  ];
  for (const [t, c] of Object.entries(capacity)) {
    const steps = c.history
      .map((h) => `${h.level}/s ${h.pass ? '✓' : `✗ (${h.reasons.join(', ')})`}`)
      .join(' → ');
    lines.push(`- **${t}: ${c.capped ? '≥ ' : ''}${c.sustainedRps} req/s** — ${steps}`);
  }
  return lines.join('\n');
}

/** The Responses API's stream targets (`POST /v1/responses`), after the chat ones. */
const RESPONSES_TARGETS = ['direct-responses', 'edgeway-responses', 'edgeway-responses-translated'];

/** What each Responses API pair of the streaming workload compares, in the report's words. */
const RESPONSES_PAIRS = [
  [
    'edgeway-responses-translated − edgeway-responses',
    'Responses API translated (Responses client, Anthropic-format provider, every event translated) over Responses same-format pass-through, same run',
  ],
  [
    'edgeway-responses − edgeway',
    'Responses API pass-through over Chat Completions pass-through, same gateway and mock, same run',
  ],
  ['edgeway-responses − direct-responses', 'Responses API pass-through over the mock direct, same run'],
];

/** One sentence per Responses API pair that ran: time to first event p50 and p99, gap p50 and p99. */
function responsesLines(added) {
  return RESPONSES_PAIRS.filter(([pair]) => added[pair]).flatMap(([pair, what]) => {
    const d = added[pair];
    return [
      `${what}: first event p50 ${spread(d.ttftMs.p50, signed)} ms, p99 ${spread(d.ttftMs.p99, signed)} ms; gap p50 ${spread(d.gapMs.p50, signed)} ms, p99 ${spread(d.gapMs.p99, signed)} ms.`,
      '',
    ];
  });
}

function streamsSection(s) {
  const low = s.low;
  const rows = [...COLUMNS, 'edgeway-translated', 'edgeway-guarded', ...RESPONSES_TARGETS]
    .filter((t) => low.perTarget[t])
    .map((t) => {
      const x = low.perTarget[t];
      return [
        t,
        spread(x.ttftMs.p50),
        spread(x.ttftMs.p99),
        spread(x.gapMs.p50),
        spread(x.gapMs.p99),
        x.expectedEvents,
        x.incomplete,
      ];
    });
  const tr = low.added['edgeway-translated − edgeway'];
  const gd = low.added['edgeway-guarded − edgeway'];
  const lines = [
    `## Streaming (${low.tokens} chunks paced ${low.paceMs} ms; ${low.repeats} × ${low.samplesPerRun} streams, about ${low.overlap} at once)`,
    '',
    table(
      ['target', 'first event p50 ms', 'p99 ms', 'gap p50 ms', 'gap p99 ms', 'events/stream', 'incomplete'],
      rows,
    ),
    '',
    ...(tr
      ? [
          `Translation (OpenAI client, Anthropic-format provider) over same-format pass-through, same run: first event p50 ${spread(tr.ttftMs.p50, signed)} ms, gap p99 ${spread(tr.gapMs.p99, signed)} ms.`,
          '',
        ]
      : []),
    ...(gd
      ? [
          `Guardrails on (every answer's text rewritten through the redactors) over the plain key, same run: first event p50 ${spread(gd.ttftMs.p50, signed)} ms, gap p50 ${spread(gd.gapMs.p50, signed)} ms, gap p99 ${spread(gd.gapMs.p99, signed)} ms.`,
          '',
        ]
      : []),
    ...responsesLines(low.added),
    `### Concurrent streams (every chunk delivered, terminator seen, no gap > ${s.concurrency.stallMs} ms)`,
    '',
  ];
  for (const [t, c] of Object.entries(s.concurrency.perTarget)) {
    const steps = c.history
      .map(
        (h) =>
          `${h.level} ${h.pass ? '✓' : `✗ (${h.reasons.join(', ')})`} worst gap ${ms(h.worstGapMs)} ms, peak RSS ${ms(h.rssPeakMiB)} MiB`,
      )
      .join('; ');
    lines.push(`- **${t}: ${c.capped ? '≥ ' : ''}${c.sustainedStreams}** — ${steps}`);
  }
  return lines.join('\n');
}

function memorySection(memory) {
  const rows = Object.entries(memory.perTarget).map(([t, x]) => [
    t,
    ms(x.responseMiB),
    x.complete ? 'yes' : 'NO',
    ms(x.seconds),
    ms(x.rssMiB.first),
    ms(x.rssMiB.peak),
    ms(x.rssMiB.last),
    signed(x.rssSecondHalfGrowthMiB),
    x.heapIdleMiB === null ? '–' : `${ms(x.heapIdleMiB)} → ${ms(x.heapLowWaterMiB)}`,
    x.flat ? 'yes' : 'NO',
    x.verdictFrom,
  ]);
  const each = memory.readBps ? `, each client reading at ${ms(memory.readBps / 1048576)} MiB/s` : '';
  return [
    `## Memory while streaming ${memory.streams} very large response(s) at once (${memory.tokens} events each${each})`,
    '',
    "MiB. A gateway that buffered would hold most of the bytes sent. RSS cannot tell alone (V8 grows its heap under a high allocation rate and keeps it), so the gateway's verdict uses its JS heap low-water mark over the second half of the run (idle → low-water); the floor, a native pipe, is judged on RSS.",
    '',
    table(
      [
        'target',
        'MiB sent',
        'complete',
        'seconds',
        'RSS start',
        'RSS peak',
        'RSS end',
        'RSS growth, 2nd half',
        'JS heap idle → low-water',
        'flat',
        'judged on',
      ],
      rows,
    ),
  ].join('\n');
}

function scenariosSection(scenarios) {
  const rows = scenarios.map((s) => [
    s.label,
    s.engaged ? 'yes' : 'no',
    spread(s.latencyMs.p50),
    spread(s.latencyMs.p99),
    s.name === 'plain' || s.name === 'stream' ? '' : spread(s.addedVsPlainMs.p50, signed),
    s.name === 'plain' || s.name === 'stream' ? '' : spread(s.addedVsPlainMs.p99, signed),
    spread(s.cpuMsPerRequest),
    s.errors,
  ]);
  return [
    '## Feature scenarios (Edgeway, concurrency 1, against the plain key in the same repeat; streamed ones against the plain key streamed)',
    '',
    table(
      ['scenario', 'engaged', 'p50 ms', 'p99 ms', 'added p50 ms', 'added p99 ms', 'CPU ms/req', 'errors'],
      rows,
    ),
  ].join('\n');
}

/** KiB: one decimal under 10 (the floors' few hundred bytes), whole above. */
const kib = (v) => (v === undefined ? '–' : v < 10 ? v.toFixed(1) : Math.round(v).toLocaleString('en-US'));

function coldStartSection(c) {
  const rows = Object.entries(c.perTarget).map(([name, t]) => [
    name,
    kib(t.rawKiB),
    kib(t.gzipKiB),
    ms(t.startupMs),
    t.runsMs.map((v) => v.toFixed(0)).join(', '),
  ]);
  const top = c.perTarget.edgeway?.top ?? [];
  return [
    `## Cold start (each Worker built as deployed; startup CPU: median of ${c.runs} \`wrangler check startup\` profile(s))`,
    '',
    'Startup CPU counts the profile samples in JavaScript or the garbage collector, 1 ms each (V8 samples every',
    'millisecond): a Worker that starts in less reads 0 or 1. A loaded machine moves it run to run; compare Workers within one run.',
    '',
    table(['Worker', 'bundle KiB', 'gzipped KiB', 'startup CPU ms', 'each run, ms'], rows),
    '',
    `Edgeway's busiest functions at startup (median run): ${top
      .slice(0, 8)
      .map((t) => `${t.fn} ${ms(t.ms)}`)
      .join(', ')}.`,
  ].join('\n');
}

function profileSection(p) {
  const pct = (rows, name) => rows.find((r) => r.name === name)?.pctOfBusy;
  const names = [...new Set([...p.json.modules, ...p.stream.modules].map((r) => r.name))]
    .map((name) => ({ name, json: pct(p.json.modules, name) ?? 0, stream: pct(p.stream.modules, name) ?? 0 }))
    .filter((r) => r.json >= 0.5 || r.stream >= 0.5)
    .sort((a, b) => b.json - a.json);
  const rows = names.map((r) => [r.name, `${r.json.toFixed(1)} %`, `${r.stream.toFixed(1)} %`]);
  const natives = (rows) =>
    rows
      .slice(0, 8)
      .map((r) => `${r.name} ${r.pctOfBusy.toFixed(1)} %`)
      .join(', ');
  return [
    "## Where the gateway's CPU goes (V8 CPU profile of the gateway isolate)",
    '',
    `Share of the isolate's busy time per source module (runtime built-ins charged to the module that called them), over ${p.json.requests} JSON requests`,
    `(${ms(p.json.busyMsPerRequest)} ms busy per request under the profiler) and ${p.stream.requests} streams of ${p.stream.chunks} chunks (${ms(p.stream.busyMsPerRequest)} ms per stream).`,
    '(program) is V8 and runtime work outside any JS frame. The profiler slows the isolate; the shares are the result.',
    '',
    table(['module', 'JSON requests', 'streams'], rows),
    '',
    `Top runtime built-ins, JSON requests: ${natives(p.json.natives)}; streams: ${natives(p.stream.natives)}.`,
  ].join('\n');
}

export function markdownReport(results, chartFile) {
  const parts = [methodSection(results), '## Summary', summaryTable(results)];
  if (results.latency) parts.push(latencySection(results.latency));
  if (results.rates) parts.push(ratesSection(results.rates));
  if (results.rates || results.capacity) parts.push(`![Latency against request rate](${chartFile})`);
  if (results.capacity) parts.push(capacitySection(results.capacity));
  if (results.streams) parts.push(streamsSection(results.streams));
  if (results.memory) parts.push(memorySection(results.memory));
  if (results.scenarios) parts.push(scenariosSection(results.scenarios));
  if (results.guardrails)
    parts.push(
      ['## Guardrail libraries (V8, outside the Worker)', '', microTable(results.guardrails)].join('\n'),
    );
  if (results.mcp) parts.push(mcpSection(results.mcp));
  if (results.profile) parts.push(profileSection(results.profile));
  if (results['hot-tenant']) parts.push(hotTenantSection(results['hot-tenant']));
  if (results['hot-tenant-users']) parts.push(hotTenantUsersSection(results['hot-tenant-users']));
  if (results['capacity-model']) parts.push(capacityModelSection(results['capacity-model']));
  if (results['cold-start']) parts.push(coldStartSection(results['cold-start']));
  if (results.notes.length) parts.push(['## Notes', '', ...results.notes.map((n) => `- ${n}`)].join('\n'));
  if (results.failures?.length)
    parts.push(
      ['## Harness failures', '', ...results.failures.map((f) => `- ${f.split('\n')[0]}`)].join('\n'),
    );
  return `${parts.join('\n\n')}\n`;
}
