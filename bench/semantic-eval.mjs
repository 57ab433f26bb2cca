#!/usr/bin/env node
/**
 * Semantic-cache evaluation on labelled question pairs (Quora Question Pairs,
 * ../shared/data/qqp-pairs-dev.jsonl: {a, b, duplicate}). For each pair the
 * cache's own code decides: `a` is a one-message chat request (temperature 0)
 * whose text semanticEligibility extracts; it is embedded by the configured
 * embedder; `b` hits when cosine(a, b) >= threshold, exactly the comparison
 * IndexedSemanticCache makes against one stored entry. Reports, per
 * threshold, the hit rate on duplicates (good hits) and on non-duplicates
 * (false hits: a wrong answer served), and the lowest threshold whose false
 * hits stay under 1 %.
 *
 *   node bench/semantic-eval.mjs                       # local embedder, all pairs
 *   node bench/semantic-eval.mjs --limit 200           # smoke run
 *   node bench/semantic-eval.mjs --embedder openai --url http://127.0.0.1:8788/v1 --key k --model text-embedding-3-small
 *
 * Writes bench/results/semantic-eval-<embedder>.{md,json} (git-ignored).
 */
import { build } from 'esbuild';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const THRESHOLDS = [0.7, 0.75, 0.8, 0.85, 0.88, 0.9, 0.92, 0.94, 0.95, 0.96, 0.97, 0.98, 0.99];
const FALSE_HIT_BUDGET = 0.01;

const { values: args } = parseArgs({
  options: {
    embedder: { type: 'string', default: 'local' },
    url: { type: 'string' },
    key: { type: 'string', default: '' },
    model: { type: 'string' },
    limit: { type: 'string' },
    data: { type: 'string', default: join(ROOT, '..', 'shared', 'data', 'qqp-pairs-dev.jsonl') },
    out: { type: 'string', default: join(ROOT, 'bench', 'results') },
    batch: { type: 'string', default: '128' },
  },
});

/** The gateway's own TypeScript, bundled for Node, so the eval measures the shipped code. */
async function loadGatewayCode() {
  const result = await build({
    stdin: {
      contents: [
        "export { localEmbedder } from './src/storage/local-embedder';",
        "export { openAiEmbedder } from './src/storage/openai-embedder';",
        "export { semanticEligibility } from './src/cache/semantic-request';",
        "export { unitVector, dot } from './src/util/vectors';",
      ].join('\n'),
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    external: ['node:*'],
    logLevel: 'warning',
  });
  const code = result.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

function chooseEmbedder(gw) {
  if (args.embedder === 'local') return gw.localEmbedder();
  if (args.embedder === 'openai') {
    if (!args.url || !args.model)
      throw new Error(
        '--embedder openai needs --url <base> and --model <id> (and --key if the route wants one)',
      );
    const url = `${args.url.replace(/\/+$/, '')}/embeddings`;
    const adapter = {
      id: 'eval',
      prepare: () => ({
        url,
        headers: new Headers({ 'content-type': 'application/json', authorization: `Bearer ${args.key}` }),
        format: 'openai',
      }),
      fetch: (request) => fetch(request),
    };
    return gw.openAiEmbedder({ adapter, model: args.model, timeoutMs: 120_000 });
  }
  throw new Error(`unknown --embedder '${args.embedder}' (local | openai)`);
}

async function readPairs() {
  const lines = (await readFile(args.data, 'utf8')).split('\n').filter((l) => l.trim() !== '');
  const pairs = lines.map((l) => JSON.parse(l));
  const limit = args.limit ? Number(args.limit) : pairs.length;
  if (!Number.isInteger(limit) || limit < 1) throw new Error('--limit takes a positive integer');
  // Keep the 50/50 balance in a smoke run: take duplicates and non-duplicates alternately.
  const dup = pairs.filter((p) => p.duplicate);
  const non = pairs.filter((p) => !p.duplicate);
  const out = [];
  for (let i = 0; out.length < Math.min(limit, pairs.length); i++) {
    if (dup[i]) out.push(dup[i]);
    if (non[i] && out.length < limit) out.push(non[i]);
  }
  return out;
}

/** The text the cache would embed for a question asked alone at temperature 0. */
function cacheText(gw, question) {
  const request = {
    endpoint: 'chat',
    body: { model: 'eval/model', messages: [{ role: 'user', content: question }], temperature: 0 },
    model: 'eval/model',
    stream: false,
    clientWantsUsage: false,
    maxOutputTokens: null,
  };
  const decision = gw.semanticEligibility(request, { semantic: true });
  return decision.eligible ? decision.text : null;
}

async function embedAll(gw, embedder, texts) {
  const size = Number(args.batch);
  const vectors = new Map();
  const unique = [...new Set(texts)];
  const batches = [];
  for (let i = 0; i < unique.length; i += size) batches.push(unique.slice(i, i + size));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++];
      const out = await embedder.embed(batch);
      for (const [i, t] of batch.entries()) vectors.set(t, gw.unitVector(out[i]));
    }
  };
  await Promise.all(Array.from({ length: args.embedder === 'local' ? 1 : 4 }, worker));
  return vectors;
}

function rate(scores, t) {
  return scores.length ? scores.filter((s) => s >= t).length / scores.length : 0;
}

/** Lowest threshold (3 decimals) with false hits strictly under the budget; null when even 1.000 is not enough. */
function safeThreshold(dupScores, nonScores) {
  const sorted = [...nonScores].sort((x, y) => y - x);
  const allowed = Math.ceil(FALSE_HIT_BUDGET * sorted.length) - 1;
  const boundary = sorted[Math.max(0, allowed)] ?? 0;
  const t = (Math.floor(boundary * 1000) + 1) / 1000;
  if (t > 1 || rate(nonScores, t) >= FALSE_HIT_BUDGET)
    return { threshold: null, falseHitRate: null, duplicateHitRate: null };
  return { threshold: t, falseHitRate: rate(nonScores, t), duplicateHitRate: rate(dupScores, t) };
}

/** Probability that a random duplicate outscores a random non-duplicate. */
function auc(dupScores, nonScores) {
  const all = [...dupScores.map((s) => [s, 1]), ...nonScores.map((s) => [s, 0])].sort((x, y) => x[0] - y[0]);
  let rankSum = 0;
  all.forEach(([, label], i) => {
    if (label) rankSum += i + 1;
  });
  const n1 = dupScores.length;
  const n0 = nonScores.length;
  return n1 && n0 ? (rankSum - (n1 * (n1 + 1)) / 2) / (n1 * n0) : 0;
}

const pct = (x) => `${(x * 100).toFixed(1)} %`;

async function main() {
  const gw = await loadGatewayCode();
  const embedder = chooseEmbedder(gw);
  const pairs = await readPairs();
  const items = pairs.map((p) => ({ a: cacheText(gw, p.a), b: cacheText(gw, p.b), duplicate: p.duplicate }));
  const usable = items.filter((p) => p.a !== null && p.b !== null);
  const started = performance.now();
  const vectors = await embedAll(
    gw,
    embedder,
    usable.flatMap((p) => [p.a, p.b]),
  );
  const embedMs = performance.now() - started;
  const dupScores = [];
  const nonScores = [];
  for (const p of usable)
    (p.duplicate ? dupScores : nonScores).push(gw.dot(vectors.get(p.a), vectors.get(p.b)));

  const rows = THRESHOLDS.map((t) => ({
    threshold: t,
    duplicateHitRate: rate(dupScores, t),
    falseHitRate: rate(nonScores, t),
  }));
  const safe = safeThreshold(dupScores, nonScores);
  const report = {
    embedder: embedder.id,
    dimensions: embedder.dimensions,
    data: args.data,
    pairs: usable.length,
    duplicates: dupScores.length,
    nonDuplicates: nonScores.length,
    skipped: items.length - usable.length,
    auc: auc(dupScores, nonScores),
    embedMs: Math.round(embedMs),
    thresholds: rows,
    under1PercentFalseHits: safe,
  };

  const md = [
    `# Semantic cache evaluation: ${report.embedder}`,
    '',
    `${report.pairs} QQP pairs (${report.duplicates} duplicates, ${report.nonDuplicates} not), ${report.skipped} skipped as ineligible; ` +
      `${report.dimensions} dims; ROC AUC ${report.auc.toFixed(3)}; embedding took ${report.embedMs} ms.`,
    '',
    '| threshold | hit rate on duplicates | false-hit rate on non-duplicates |',
    '|---:|---:|---:|',
    ...rows.map((r) => `| ${r.threshold.toFixed(2)} | ${pct(r.duplicateHitRate)} | ${pct(r.falseHitRate)} |`),
    '',
    safe.threshold === null
      ? 'No threshold up to 1.000 keeps false hits under 1 %.'
      : `Lowest threshold with false hits under 1 %: **${safe.threshold.toFixed(3)}** → ` +
        `${pct(safe.duplicateHitRate)} of duplicates hit, ${pct(safe.falseHitRate)} false hits.`,
    '',
  ].join('\n');

  await mkdir(args.out, { recursive: true });
  const base = join(args.out, `semantic-eval-${report.embedder.replace(/[^a-zA-Z0-9.-]+/g, '_')}`);
  await writeFile(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(`${base}.md`, md);
  console.log(md);
  console.log(`written: ${base}.md, ${base}.json`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
