/**
 * Training and cross-validation of the prompt-injection detector, shared by
 * scripts/guardrails/{train,eval}-injection.mjs and the node test. The feature
 * extraction and the scorer are the runtime's own TypeScript
 * (src/guardrails/injection/), bundled with esbuild, so training, evaluation and
 * the Worker share one implementation. Everything here is deterministic: the
 * folds come from hashes of the rows' text, the SGD order from a seeded PRNG.
 * Longer than most modules because it is the whole pipeline (data, folds,
 * training, metrics, threshold rule) that the three entry points must share.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { importTs } from './import-ts.mjs';
import { ordinaryPrompts } from './ordinary-prompts.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DEFAULT_DATA = resolve(ROOT, '..', 'shared', 'data', 'injection', 'dev.jsonl');
export const MODEL_MODULE = join(ROOT, 'src', 'guardrails', 'injection', 'model.ts');

/** Training settings: the shipped model is trained with exactly these. */
export const TRAINING = Object.freeze({
  bits: 17,
  epochs: 6,
  learningRate: 0.2,
  l2: 1e-6,
  seed: 20_240_615,
  folds: 5,
  /** Benign rows count this much more in the loss: false positives are what gets a firewall switched off. */
  benignWeight: 1.5,
  balance: false,
  /** How many generated ordinary prompts join the benign rows, and the weight of each (a dev row weighs 1). */
  ordinaryCount: 3000,
  ordinaryWeight: 0.2,
  /**
   * Weight of each buried injection and its host document in training (see buryInjections). 0: with the
   * 2,048-unit windows, every weight tried traded long-document false positives for buried recall.
   */
  buriedWeight: 0,
});

/** The source name of the generated ordinary prompts (scripts/guardrails/ordinary-prompts.mjs). */
export const ORDINARY = 'generated/ordinary-prompts';

/**
 * The default threshold is the lowest grid value whose cross-validated
 * false-positive rates stay within half the targets: overall, and on each
 * hard-negative source the targets name.
 */
export const FP_BUDGET = Object.freeze({ overall: 0.01, perSource: 0.02, ordinary: 0.005 });
export const THRESHOLD_GRID = Array.from({ length: 199 }, (_, i) => Math.round((i + 1) * 5) / 1000);

/** Targets the cross-validated figures must meet (the node test enforces them). */
export const TARGETS = Object.freeze({
  fpOverall: 0.02,
  fpPerSource: { 'leolee99/NotInject': 0.04, 'allenai/wildguardtest-benign': 0.04, [ORDINARY]: 0.01 },
  recall: { 'verazuo/jailbreak_llms': 0.85, 'deepset/prompt-injections': 0.7 },
});

/**
 * The generated ordinary prompts as benign rows. `group` is the template family: cross-validation keeps a
 * family in one fold, so every generated prompt is scored by a model that never saw its templates.
 */
export function ordinaryRows(settings = TRAINING) {
  return ordinaryPrompts({ count: settings.ordinaryCount, seed: settings.seed }).map((p) => ({
    text: p.text,
    label: 'benign',
    source: ORDINARY,
    group: `family-${p.family}`,
  }));
}

/**
 * Short injections (≤ BURY_MAX units) buried in documents made of generated ordinary prompts (about 2,000
 * units), labelled injection, each paired with its host document alone, labelled benign: without them, the
 * ordinary prompts teach the model that everyday English is benign evidence, and an attack inside a tool
 * result or a pasted e-mail is outvoted by its host; without the pairs, that length is evidence. Built only
 * from the rows given (in cross-validation, one side of the split), so no held-out text leaks in.
 */
export const BURY_MAX = 600;
export const BURIED = 'generated/buried-injections';
export function buryInjections(rows, seed = TRAINING.seed) {
  const random = prng(seed ^ 0x5bd1e995);
  const attacks = rows.filter((row) => row.label === 'injection' && row.text.length <= BURY_MAX);
  const hosts = rows.filter((row) => row.source === ORDINARY);
  if (hosts.length === 0) return [];
  return attacks.flatMap((attack) => {
    const parts = [];
    let length = 0;
    const target = 1_200 + Math.floor(random() * 1_200);
    while (length < target) {
      const host = hosts[Math.floor(random() * hosts.length)].text;
      parts.push(host);
      length += host.length + 2;
    }
    const host = { text: parts.join('\n\n'), label: 'benign', source: BURIED };
    parts.splice(Math.floor(random() * (parts.length + 1)), 0, attack.text);
    return [{ text: parts.join('\n\n'), label: 'injection', source: BURIED }, host];
  });
}

/** The dev rows plus the generated ordinary prompts: what the detector trains and is cross-validated on. */
export function trainingRows(devRows, settings = TRAINING) {
  return [...devRows, ...ordinaryRows(settings)];
}

export function readRows(path) {
  if (!existsSync(path)) return null;
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const row = JSON.parse(line);
      if (typeof row.text !== 'string' || (row.label !== 'benign' && row.label !== 'injection')) {
        throw new Error(`bad row in ${path}: ${line.slice(0, 80)}`);
      }
      return { text: row.text, label: row.label, source: String(row.source) };
    });
}

/** The runtime's feature and scoring code, bundled for Node. */
export async function loadRuntime() {
  return importTs([
    "export { scanFeatures } from './src/guardrails/injection/features';",
    "export { scoreText, textLogit, WINDOW, HEAD_SCAN, MAX_TEXT_SCAN } from './src/guardrails/injection/score';",
    "export { DIRECT_CUE_COUNT as CUE_COUNT } from './src/guardrails/injection/cues';",
    "export { decodeModel, encodeWeights, MODEL_VERSION } from './src/guardrails/injection/model-codec';",
    "export { SERIALISED_MODEL } from './src/guardrails/injection/model';",
  ]);
}

// --- near-duplicate groups and folds ---------------------------------------------------------------

function normalisedKey(text) {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

function shingles(text) {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length < 5) return new Set([words.join(' ')]);
  const out = new Set();
  for (let i = 0; i + 5 <= words.length; i++) out.add(words.slice(i, i + 5).join(' '));
  return out;
}

/**
 * Group ids: rows of one source whose word 5-gram Jaccard is ≥ 0.5 are in one group (transitively); rows
 * that name a `group` (generated ones: their template family) are grouped by it alone.
 */
export function nearDuplicateGroups(rows) {
  const parent = rows.map((_, i) => i);
  const find = (i) => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  const sets = rows.map((row) => (row.group === undefined ? shingles(row.text) : new Set()));
  const index = new Map();
  const explicit = new Map();
  rows.forEach((row, i) => {
    if (row.group !== undefined) {
      const key = `${row.source}\u0000${row.group}`;
      if (explicit.has(key)) parent[find(i)] = find(explicit.get(key));
      else explicit.set(key, i);
      return;
    }
    const candidates = new Map();
    for (const s of sets[i]) {
      const key = `${row.source}\u0000${s}`;
      const seen = index.get(key);
      if (seen) for (const j of seen) candidates.set(j, (candidates.get(j) ?? 0) + 1);
      if (seen) seen.push(i);
      else index.set(key, [i]);
    }
    for (const [j, shared] of candidates) {
      const union = sets[i].size + sets[j].size - shared;
      if (shared / union >= 0.5) parent[find(i)] = find(j);
    }
  });
  return rows.map((_, i) => find(i));
}

function sha(text) {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Fold number per row: whole near-duplicate groups, balanced per (source, label)
 * stratum. Groups are placed largest first, ties in hash order, each into the
 * fold that currently holds the fewest rows of its members' strata.
 */
export function assignFolds(rows, k, seed = TRAINING.seed) {
  const groupOf = nearDuplicateGroups(rows);
  const groups = new Map();
  rows.forEach((_, i) => {
    const members = groups.get(groupOf[i]);
    if (members) members.push(i);
    else groups.set(groupOf[i], [i]);
  });
  const ordered = [...groups.values()]
    .map((members) => ({ members, key: sha(`${seed}|${normalisedKey(rows[members[0]].text)}`) }))
    .sort((a, b) => b.members.length - a.members.length || (a.key < b.key ? -1 : 1));
  const counts = new Map();
  const fold = new Array(rows.length);
  for (const { members } of ordered) {
    let best = 0;
    let bestLoad = Number.POSITIVE_INFINITY;
    for (let f = 0; f < k; f++) {
      let load = 0;
      for (const i of members) load += counts.get(`${f}|${rows[i].source}|${rows[i].label}`) ?? 0;
      if (load < bestLoad) {
        best = f;
        bestLoad = load;
      }
    }
    for (const i of members) {
      fold[i] = best;
      const key = `${best}|${rows[i].source}|${rows[i].label}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return {
    fold,
    groups: groups.size,
    groupedRows: [...groups.values()].filter((m) => m.length > 1).flat().length,
  };
}

// --- features and training --------------------------------------------------------------------------

/**
 * A text's training vectors: one per non-overlapping window over its scanned
 * head (a short text is one window, exactly as the runtime scores it), each a
 * sparse count vector over buckets normalised by √(feature count), the same
 * normalisation the runtime applies, followed by the window's cues (index
 * 2^bits + cue, value 1, not normalised) and their number (index 2^bits + CUE_COUNT).
 */
export function featurise(runtime, text, bits) {
  const end = Math.min(text.length, runtime.HEAD_SCAN);
  const windows = Math.max(1, Math.ceil(end / runtime.WINDOW));
  const maps = Array.from({ length: windows }, () => new Map());
  const masks = new Array(windows).fill(0);
  const at = (position) => Math.min(windows - 1, Math.floor(position / runtime.WINDOW));
  runtime.scanFeatures(
    text,
    0,
    end,
    bits,
    (bucket, position) => {
      const map = maps[at(position)];
      map.set(bucket, (map.get(bucket) ?? 0) + 1);
    },
    (cue, position) => {
      masks[at(position)] |= 1 << cue;
    },
  );
  const out = [];
  maps.forEach((map, w) => {
    const vector = windowVector(map, masks[w], bits, runtime.CUE_COUNT);
    if (vector) out.push(vector);
  });
  return out;
}

/**
 * One window's training vector: its bucket counts normalised by √(feature count), as the runtime does,
 * then each of the first `cueCount` cues present (index 2^bits + cue, value 1) and their number (index
 * 2^bits + cueCount). Null for a window without features.
 */
export function windowVector(counts, cueMask, bits, cueCount) {
  let total = 0;
  for (const n of counts.values()) total += n;
  if (total === 0) return null;
  const dim = 1 << bits;
  const buckets = [...counts.keys()].sort((a, b) => a - b);
  const norm = 1 / Math.sqrt(total);
  const values = buckets.map((b) => counts.get(b) * norm);
  let distinct = 0;
  for (let c = 0; c < cueCount; c++) {
    if ((cueMask >>> c) & 1) {
      buckets.push(dim + c);
      values.push(1);
      distinct++;
    }
  }
  if (distinct > 0) {
    buckets.push(dim + cueCount);
    values.push(distinct);
  }
  return { idx: Int32Array.from(buckets), val: Float32Array.from(values) };
}

/** Mulberry32: a small seeded PRNG, enough for a reproducible shuffle (and the turn sampling of lib-indirect). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * L2-regularised logistic regression by AdaGrad SGD over the examples
 * ({vectors, y, weight}); a text with several windows spreads its weight over them.
 */
export function trainLogistic(examples, settings = TRAINING, cueCount = 0) {
  const dim = (1 << settings.bits) + cueCount + 1;
  const w = new Float64Array(dim);
  const g2 = new Float64Array(dim);
  let bias = 0;
  let biasG2 = 0;
  const items = [];
  for (const ex of examples) {
    for (const v of ex.vectors) items.push({ v, y: ex.y, weight: ex.weight / ex.vectors.length });
  }
  const random = prng(settings.seed);
  const order = items.map((_, i) => i);
  for (let epoch = 0; epoch < settings.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const o of order) {
      const { v, y, weight } = items[o];
      let z = bias;
      for (let k = 0; k < v.idx.length; k++) z += w[v.idx[k]] * v.val[k];
      const g = (1 / (1 + Math.exp(-z)) - y) * weight;
      for (let k = 0; k < v.idx.length; k++) {
        const b = v.idx[k];
        const gi = g * v.val[k] + settings.l2 * w[b];
        g2[b] += gi * gi;
        w[b] -= (settings.learningRate * gi) / Math.sqrt(g2[b] + 1e-8);
      }
      biasG2 += g * g;
      bias -= (settings.learningRate * g) / Math.sqrt(biasG2 + 1e-8);
    }
  }
  return { w, bias };
}

/** Float weights to the runtime's form: the n-gram weights as int8, the cue weights (after them) as they are. */
export function quantise({ w, bias }, bits, threshold = 0.5) {
  const dim = 1 << bits;
  let max = 0;
  for (let i = 0; i < dim; i++) max = Math.max(max, Math.abs(w[i]));
  const scale = max === 0 ? 1 : max / 127;
  const weights = new Int8Array(dim);
  for (let i = 0; i < dim; i++) weights[i] = Math.max(-127, Math.min(127, Math.round(w[i] / scale)));
  return { bits, weights, scale, bias, threshold, cues: Float64Array.from(w.subarray(dim)) };
}

/**
 * Example weights: optionally every (source, label) stratum carries the same
 * total weight (so 814 long jailbreaks do not drown 159 short deepset
 * injections), then benign rows are weighted up by `benignWeight`; the mean
 * dev-row weight is 1. A generated ordinary prompt weighs `ordinaryWeight`:
 * there are thousands, from a few dozen templates, and they should teach
 * "ordinary tasks are benign" without outweighing the real data.
 */
export function examplesOf(runtime, rows, settings = TRAINING) {
  const strata = new Map();
  for (const row of rows)
    strata.set(`${row.source}|${row.label}`, (strata.get(`${row.source}|${row.label}`) ?? 0) + 1);
  const raw = rows.map((row) => {
    const balance = settings.balance
      ? rows.length / strata.size / strata.get(`${row.source}|${row.label}`)
      : 1;
    return balance * (row.label === 'injection' ? 1 : settings.benignWeight);
  });
  const generated = (row) => row.source === ORDINARY || row.source === BURIED;
  const devRows = rows.filter((row) => !generated(row));
  const mean = raw.reduce((a, b, i) => (generated(rows[i]) ? a : a + b), 0) / devRows.length;
  return rows.map((row, i) => ({
    vectors: featurise(runtime, row.text, settings.bits),
    y: row.label === 'injection' ? 1 : 0,
    weight:
      row.source === ORDINARY
        ? settings.ordinaryWeight
        : row.source === BURIED
          ? settings.buriedWeight
          : raw[i] / mean,
  }));
}

export function trainModel(
  runtime,
  rows,
  settings = TRAINING,
  examples = examplesOf(runtime, rows, settings),
) {
  return quantise(trainLogistic(examples, settings, runtime.CUE_COUNT), settings.bits);
}

/**
 * Out-of-fold scores from the runtime scorer: each row scored by a model that never saw its group. Each
 * fold's model also trains on injections buried in documents built from its own training rows, and the
 * held-out fold's injections, buried in its own held-out ordinary prompts, are scored as `buried`.
 */
export function crossValidate(runtime, rows, settings = TRAINING) {
  const k = settings.folds;
  const { fold, groups, groupedRows } = assignFolds(rows, k, settings.seed);
  const examples = examplesOf(runtime, rows, settings);
  const scores = new Float64Array(rows.length);
  const buried = { rows: [], scores: [] };
  for (let f = 0; f < k; f++) {
    const train = examples.filter((_, i) => fold[i] !== f);
    const trainBuried = buryInjections(
      rows.filter((_, i) => fold[i] !== f),
      settings.seed + f,
    );
    if (settings.buriedWeight > 0) train.push(...examplesOf(runtime, trainBuried, settings));
    const model = trainModel(runtime, null, settings, train);
    rows.forEach((row, i) => {
      if (fold[i] === f) scores[i] = runtime.scoreText(model, row.text);
    });
    for (const row of buryInjections(
      rows.filter((_, i) => fold[i] === f),
      settings.seed + k + f,
    )) {
      buried.rows.push(row);
      buried.scores.push(runtime.scoreText(model, row.text));
    }
  }
  return { scores, fold, groups, groupedRows, buried };
}

/** The shipped model: trained on every row (and on buried injections when `buriedWeight` > 0). */
export function trainShipped(runtime, rows, settings = TRAINING) {
  const extra = settings.buriedWeight > 0 ? buryInjections(rows, settings.seed) : [];
  const examples = examplesOf(runtime, [...rows, ...extra], settings);
  return trainModel(runtime, null, settings, examples);
}

// --- metrics and the threshold -----------------------------------------------------------------------

/**
 * Precision, recall and false-positive rate at `threshold`, overall and per source. "Overall" is the dev
 * rows only; the generated ordinary prompts are a source of their own.
 */
export function metricsAt(rows, scores, threshold) {
  const tally = () => ({ tp: 0, fn: 0, fp: 0, tn: 0 });
  const overall = tally();
  const bySource = new Map();
  rows.forEach((row, i) => {
    const fired = scores[i] >= threshold;
    const t = bySource.get(row.source) ?? tally();
    bySource.set(row.source, t);
    for (const x of row.source === ORDINARY || row.source === BURIED ? [t] : [overall, t]) {
      if (row.label === 'injection') fired ? x.tp++ : x.fn++;
      else fired ? x.fp++ : x.tn++;
    }
  });
  const rates = (x) => ({
    ...x,
    precision: x.tp + x.fp === 0 ? Number.NaN : x.tp / (x.tp + x.fp),
    recall: x.tp + x.fn === 0 ? Number.NaN : x.tp / (x.tp + x.fn),
    fpr: x.fp + x.tn === 0 ? Number.NaN : x.fp / (x.fp + x.tn),
  });
  return {
    threshold,
    overall: rates(overall),
    sources: Object.fromEntries([...bySource].sort().map(([s, x]) => [s, rates(x)])),
  };
}

/** The lowest grid threshold whose out-of-fold false-positive rates fit FP_BUDGET. */
export function chooseThreshold(rows, scores) {
  for (const t of THRESHOLD_GRID) {
    const m = metricsAt(rows, scores, t);
    if (m.overall.fpr > FP_BUDGET.overall) continue;
    if (m.sources[ORDINARY]?.fpr > FP_BUDGET.ordinary) continue;
    const hard = Object.keys(TARGETS.fpPerSource).filter((s) => s !== ORDINARY);
    if (hard.some((s) => m.sources[s]?.fpr > FP_BUDGET.perSource)) continue;
    return t;
  }
  return THRESHOLD_GRID[THRESHOLD_GRID.length - 1];
}

/** Which targets the metrics miss (empty when all are met). */
export function missedTargets(metrics) {
  const missed = [];
  if (metrics.overall.fpr > TARGETS.fpOverall) missed.push(`FP overall ${pct(metrics.overall.fpr)} > 2 %`);
  for (const [source, limit] of Object.entries(TARGETS.fpPerSource)) {
    const fpr = metrics.sources[source]?.fpr;
    if (!(fpr <= limit)) missed.push(`FP on ${source} ${pct(fpr)} > ${pct(limit)}`);
  }
  for (const [source, floor] of Object.entries(TARGETS.recall)) {
    const recall = metrics.sources[source]?.recall;
    if (!(recall >= floor)) missed.push(`recall on ${source} ${pct(recall)} < ${pct(floor)}`);
  }
  return missed;
}

/** CLI options shared by the scripts: --data <path>, --folds <k>, --write <path>. */
export function cliOptions(argv, extra = {}) {
  const { values } = parseArgs({
    args: argv,
    options: { data: { type: 'string' }, folds: { type: 'string' }, ...extra },
  });
  const folds = Number(values.folds ?? TRAINING.folds);
  if (!Number.isInteger(folds) || folds < 2)
    throw new Error(`--folds must be an integer ≥ 2, got ${values.folds}`);
  return { ...values, data: resolve(values.data ?? DEFAULT_DATA), folds };
}

export function fileSha256(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

export function pct(x) {
  return Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : '–';
}

// --- the model module ----------------------------------------------------------------------------------

/** `  name: [a, b, …],` as the formatter lays out a number array: on one line, or filled at 110 columns. */
function numbers(name, values) {
  const items = [...values].map((x) => String(Number(x.toPrecision(6))));
  const flat = `  ${name}: [${items.join(', ')}],`;
  if (flat.length <= 110) return flat;
  const lines = [];
  let line = '   ';
  for (const item of items) {
    if (line.length + 1 + item.length + 1 > 110) {
      lines.push(line);
      line = '   ';
    }
    line += ` ${item},`;
  }
  lines.push(line);
  return [`  ${name}: [`, ...lines, '  ],'].join('\n');
}

/** The TypeScript that declares a trained model as `SERIALISED_MODEL` (after the caller's header comment). */
export function modelModuleBody(runtime, model, threshold) {
  const encoded = runtime.encodeWeights(model.weights);
  return [
    "import type { SerialisedModel } from './model-codec';",
    '',
    'export const SERIALISED_MODEL: SerialisedModel = {',
    `  version: ${runtime.MODEL_VERSION},`,
    `  bits: ${model.bits},`,
    `  scale: ${model.scale},`,
    `  bias: ${model.bias},`,
    `  threshold: ${threshold},`,
    numbers('cues', model.cues),
    `  weights:\n    '${encoded.weights}',`,
    numbers('outliers', encoded.outliers),
    '};',
    '',
  ].join('\n');
}
