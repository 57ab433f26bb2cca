#!/usr/bin/env node
/**
 * Micro-benchmark of the guardrail libraries in V8 (Node), outside the Worker:
 * per-call latency p50/p99 on fixed inputs and the bundle cost of each
 * guardrail's runtime (minified, and gzipped as a Worker upload is). Each
 * guardrail is one named case in CASES: { name, entry, setup(module, inputs) →
 * call }, so others are added by appending a case. The injection detector's
 * tool-result path is scored on fixed 1,000-token tool results in JSON, Python
 * repr, YAML and plain text, built from the tool-output generator
 * (bench/lib/tool-outputs.mjs; synthetic records when it is absent); BUNDLES
 * lists what its model adds to the Worker.
 *
 *   node bench/guardrails-micro.mjs [--iterations 5000] [--data ../shared/data/injection/dev.jsonl]
 *                                   [--generator scripts/guardrails/tool-outputs.mjs]
 *
 * `measureGuardrailsMicro()` returns the figures for bench/run.mjs;
 * `measureInjection()` just the injection cases (both paths).
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { percentile } from './lib/stats.mjs';
import {
  DOCUMENT_FORMATS,
  fillDocuments,
  loadGenerator,
  rowsByFormat,
  syntheticRows,
} from './lib/tool-outputs.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_INJECTION_DATA = resolve(ROOT, '..', 'shared', 'data', 'injection', 'dev.jsonl');
const PROMPT_CHARS = 4_000; // about 1,000 tokens of English
/** The generator's seed for the micro-benchmark's tool results (any fixed one: the figures are costs, not rates). */
const TOOL_RESULT_SEED = 7;
const TOOL_RESULT_ROWS = 800;

/** Seeded word salad, for when the dev data is absent. */
function syntheticText(length, seed) {
  const words = [
    'the',
    'model',
    'please',
    'summarise',
    'report',
    'quarterly',
    'ignore',
    'noise',
    'in',
    'this',
    'photo',
    'instructions',
    'customer',
    'invoice',
    'translate',
    'into',
    'German',
    'and',
    'list',
    'risks',
  ];
  let a = seed >>> 0;
  let out = '';
  while (out.length < length) {
    a = (Math.imul(a, 1_664_525) + 1_013_904_223) >>> 0;
    out += `${words[a % words.length]}${a % 11 === 0 ? '. ' : ' '}`;
  }
  return out.slice(0, length);
}

/** 1,000-token prompts: dev rows concatenated in file order when the data is there, else synthetic. */
export function injectionPrompts({ data = DEFAULT_INJECTION_DATA, count = 32 } = {}) {
  if (!existsSync(data)) {
    return {
      source: 'synthetic',
      prompts: Array.from({ length: count }, (_, i) => syntheticText(PROMPT_CHARS, i + 1)),
    };
  }
  const texts = readFileSync(data, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line).text);
  const prompts = [];
  let current = '';
  for (const text of texts) {
    current += `${text}\n\n`;
    if (current.length >= PROMPT_CHARS) {
      prompts.push(current.slice(0, PROMPT_CHARS));
      current = '';
      if (prompts.length === count) break;
    }
  }
  return { source: `${data} (rows concatenated)`, prompts };
}

/**
 * Fixed ~1,000-token tool results per format (DOCUMENT_FORMATS): the generator's benign rows, else (no
 * generator, or too few rows of a format) synthetic records.
 */
export async function toolResultInputs({ generator, count = 8 } = {}) {
  const gen = await loadGenerator(generator);
  const rows = gen
    ? rowsByFormat(gen.toolOutputs({ seed: TOOL_RESULT_SEED, count: TOOL_RESULT_ROWS }))
    : null;
  const synthetic = syntheticRows((length, seed) => syntheticText(length, seed));
  const standIns = [];
  const docs = {};
  for (const f of Object.keys(DOCUMENT_FORMATS)) {
    try {
      if (!rows) throw new Error('no generator');
      docs[f] = fillDocuments(rows[f], f, { chars: PROMPT_CHARS, count });
    } catch {
      if (rows) standIns.push(f);
      docs[f] = fillDocuments(synthetic[f], f, { chars: PROMPT_CHARS, count });
    }
  }
  const source = gen
    ? `${gen.path} (seed ${TOOL_RESULT_SEED}, benign rows joined per format` +
      `${standIns.length > 0 ? `; synthetic for ${standIns.join(', ')}` : ''})`
    : 'synthetic records (tool-output generator absent)';
  return { source, docs };
}

/** One case per tool-result format: the tool-result path's score of one ~1,000-token result. */
const toolResultCases = Object.keys(DOCUMENT_FORMATS).map((format) => ({
  name: `injection tool-result score, 1,000-token ${format} result`,
  entry: 'src/guardrails/injection/tool-results.ts',
  setup: (mod, inputs) => {
    const docs = inputs.toolResults.docs[format];
    let i = 0;
    return () => mod.toolResultScore(docs[i++ % docs.length]);
  },
}));

export const CASES = [
  {
    name: 'injection score, 1,000-token prompt',
    entry: 'src/guardrails/injection/index.ts',
    setup: (mod, inputs) => {
      let i = 0;
      return () => mod.injectionScore(inputs.prompts[i++ % inputs.prompts.length]);
    },
  },
  {
    name: 'injection verdict, request at the scan bound',
    entry: 'src/guardrails/injection/index.ts',
    setup: (mod, inputs) => {
      // Enough turns to exhaust MAX_REQUEST_SCAN: the worst case one request can cost.
      const turns = Math.ceil((mod.MAX_REQUEST_SCAN * 2) / PROMPT_CHARS);
      const texts = Array.from({ length: turns }, (_, k) => inputs.prompts[k % inputs.prompts.length]);
      return () => mod.detectInjection(texts).score;
    },
    iterations: 200,
  },
  ...toolResultCases,
  {
    name: 'injection tool-result verdict, request at the scan bound',
    entry: 'src/guardrails/injection/tool-results.ts',
    setup: (mod, inputs) => {
      // Enough results of every format to exhaust MAX_TOOL_RESULTS_SCAN: the most one request's tool results cost.
      const docs = Object.values(inputs.toolResults.docs).flat();
      const results = Array.from(
        { length: Math.ceil(mod.MAX_TOOL_RESULTS_SCAN / PROMPT_CHARS) + 1 },
        (_, k) => docs[k % docs.length],
      );
      return () => mod.judgeToolResults(results).scores[0];
    },
    iterations: 100,
  },
  {
    name: 'PII + secrets scan, 1,000-token prompt',
    entry: 'src/guardrails/pii/finder.ts',
    setup: async (mod, inputs) => {
      const finder = mod.sensitiveFinder(await sensitiveKinds());
      let i = 0;
      return () => finder.find(inputs.prompts[i++ % inputs.prompts.length]).length;
    },
  },
  {
    name: 'deny-list scan (100 terms, 5 patterns), 1,000-token prompt',
    entry: 'src/guardrails/denylist/denylist.ts',
    setup: (mod, inputs) => {
      const terms = Array.from({ length: 100 }, (_, k) => `codename ${k} bluebird`);
      const patterns = ['inv-\\d{6}', 'emp[0-9]{5}', 'project (alpha|beta|gamma)', 'acct#\\d+', 'zeta-\\d'];
      const finder = mod.compileDenyList({ terms, patterns });
      let i = 0;
      return () => finder.find(inputs.prompts[i++ % inputs.prompts.length]).length;
    },
  },
  {
    name: 'streamed answer redaction (PII + secrets), 1,000 tokens in 4-character deltas',
    entry: 'src/guardrails/pii/stream-redactor.ts',
    setup: async (mod, inputs) => {
      const { sensitiveFinder } = await loadBundle('src/guardrails/pii/finder.ts');
      const finder = sensitiveFinder(await sensitiveKinds());
      let i = 0;
      return () => {
        const text = inputs.prompts[i++ % inputs.prompts.length];
        const redactor = mod.createStreamRedactor({ finder, replace: () => '[X]' });
        let n = 0;
        for (let at = 0; at < text.length; at += 4) n += redactor.push(text.slice(at, at + 4)).length;
        return n + redactor.flush().length;
      };
    },
    iterations: 500,
  },
];

/**
 * Bundles whose sizes say what the tool-result path costs a Worker: its model's data alone, the
 * direct detector, and both paths together (the difference is what the tool-result path adds).
 */
export const BUNDLES = [
  { name: 'tool-result model data (tool-model.ts)', entries: ['src/guardrails/injection/tool-model.ts'] },
  { name: 'injection detector, user turns (index.ts)', entries: ['src/guardrails/injection/index.ts'] },
  {
    name: 'injection detector, user turns and tool results',
    entries: ['src/guardrails/injection/index.ts', 'src/guardrails/injection/tool-results.ts'],
  },
];

/** Every PII and secret kind, as src/guardrails/finding.ts lists them. */
async function sensitiveKinds() {
  const { PII_KINDS, SECRET_KINDS } = await loadBundle('src/guardrails/finding.ts');
  return new Set([...PII_KINDS, ...SECRET_KINDS]);
}

const loaded = new Map();

/** One entry bundled (minified) and imported, once per run. */
export async function loadBundle(entry) {
  if (!loaded.has(entry)) {
    const b = await bundle(entry);
    const mod = await import(`data:text/javascript;base64,${Buffer.from(b.code).toString('base64')}`);
    loaded.set(entry, { ...b, mod });
  }
  return loaded.get(entry).mod;
}

/** One entry, or several imported side by side (code they share counted once). */
async function bundle(entry) {
  const entries = [entry].flat();
  const input =
    entries.length === 1
      ? { entryPoints: [join(ROOT, entries[0])] }
      : {
          stdin: {
            contents: `${entries.map((e, k) => `import * as m${k} from './${e}';`).join('\n')}\nexport { ${entries.map((_, k) => `m${k}`).join(', ')} };`,
            resolveDir: ROOT,
            loader: 'js',
          },
        };
  const result = await build({
    ...input,
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    logLevel: 'warning',
  });
  const bytes = result.outputFiles[0].contents;
  return { bytes: bytes.length, gzipBytes: gzipSync(bytes).length, code: result.outputFiles[0].text };
}

function timeCalls(call, iterations) {
  let sink = 0;
  for (let i = 0; i < Math.min(500, iterations); i++) sink += call();
  const micros = new Float64Array(iterations);
  const cpuMicros = new Float64Array(iterations);
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < iterations; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    sink += call();
    micros[i] = (performance.now() - t0) * 1000;
    const c = process.cpuUsage(c0);
    cpuMicros[i] = c.user + c.system;
  }
  const cpu = process.cpuUsage(cpu0);
  if (Number.isNaN(sink)) throw new Error('a guardrail returned NaN');
  // CPU per call is what the process was charged (all its threads, the garbage collector's included):
  // unlike wall-clock p99 it is immune to preemption on a busy host.
  return {
    p50: percentile(micros, 50),
    p99: percentile(micros, 99),
    max: percentile(micros, 100),
    cpuMean: (cpu.user + cpu.system) / iterations,
    cpuP99: percentile(cpuMicros, 99),
  };
}

/** Runs `cases` (default: all) and returns one row per case: latency in µs and the bundle cost. */
export async function measureGuardrailsMicro({
  cases = CASES,
  bundles = BUNDLES,
  iterations = 5_000,
  data,
  generator,
} = {}) {
  const prompts = injectionPrompts({ data });
  const toolResults = await toolResultInputs({ generator });
  const inputs = { ...prompts, toolResults };
  const rows = [];
  for (const c of cases) {
    await loadBundle(c.entry);
    const b = loaded.get(c.entry);
    const latency = timeCalls(await c.setup(b.mod, inputs), c.iterations ?? iterations);
    rows.push({ name: c.name, entry: c.entry, ...latency, bytes: b.bytes, gzipBytes: b.gzipBytes });
  }
  const sizes = [];
  for (const b of bundles) {
    const { bytes, gzipBytes } = await bundle(b.entries);
    sizes.push({ name: b.name, entries: b.entries, bytes, gzipBytes });
  }
  return {
    inputs: `${prompts.source}; tool results: ${toolResults.source}`,
    toolResultChars: Object.fromEntries(
      Object.entries(toolResults.docs).map(([f, docs]) => [f, Math.round(mean(docs.map((d) => d.length)))]),
    ),
    rows,
    bundles: sizes,
  };
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

export async function measureInjection(options = {}) {
  return measureGuardrailsMicro({ ...options, cases: CASES.filter((c) => c.name.startsWith('injection')) });
}

/** The tool-result path's p99 budget: 0.5 ms per 1,000 tokens. */
export const TOOL_RESULT_P99_BUDGET_US = 500;

export function microTable({ inputs, rows, bundles = [], toolResultChars }) {
  const lines = [
    `Inputs: ${inputs}. Latency per call in µs (V8, one thread, load average ${loadavg()[0].toFixed(1)}); ` +
      'bundle minified / gzipped.',
    '',
    '| case | p50 µs | p99 µs | max µs | CPU µs/call | CPU p99 µs | bundle bytes | gzip bytes |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.name} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} | ${r.cpuMean.toFixed(1)} | ` +
        `${r.cpuP99 === undefined ? '–' : r.cpuP99.toFixed(1)} | ` +
        `${r.bytes} | ${r.gzipBytes} |`,
    );
  }
  const tool = rows.filter((r) => r.name.startsWith('injection tool-result score'));
  if (tool.length > 0) {
    const worst = Math.max(...tool.map((r) => r.p99));
    const worstCpu = Math.max(...tool.map((r) => r.cpuP99 ?? Number.NaN));
    const verdict = (us) => (us <= TOOL_RESULT_P99_BUDGET_US ? 'within' : 'over');
    lines.push(
      '',
      `Tool-result score per ~1,000-token result, worst over formats: p99 ${worst.toFixed(1)} µs wall-clock ` +
        `(${verdict(worst)} the ${TOOL_RESULT_P99_BUDGET_US} µs budget)` +
        (Number.isFinite(worstCpu)
          ? `, p99 ${worstCpu.toFixed(1)} µs of CPU (${verdict(worstCpu)}; on a busy host the wall-clock p99 includes preemption, the CPU p99 does not)`
          : '') +
        (toolResultChars
          ? `; mean result length ${Object.entries(toolResultChars)
              .map(([f, n]) => `${f} ${n}`)
              .join(', ')} characters.`
          : '.'),
    );
  }
  if (bundles.length > 0) {
    lines.push('', '| bundle | bytes | gzip bytes |', '| --- | ---: | ---: |');
    for (const b of bundles) lines.push(`| ${b.name} | ${b.bytes} | ${b.gzipBytes} |`);
    const direct = bundles.find((b) => b.entries.length === 1 && b.entries[0].endsWith('injection/index.ts'));
    const both = bundles.find((b) => b.entries.length === 2);
    if (direct && both)
      lines.push(
        '',
        `The tool-result path adds ${both.bytes - direct.bytes} bytes (${both.gzipBytes - direct.gzipBytes} gzipped) ` +
          'to a Worker that has the injection detector.',
      );
  }
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: { iterations: { type: 'string' }, data: { type: 'string' }, generator: { type: 'string' } },
  });
  const result = await measureGuardrailsMicro({
    iterations: values.iterations ? Number(values.iterations) : undefined,
    data: values.data ? resolve(values.data) : undefined,
    generator: values.generator,
  });
  console.log(microTable(result));
}
