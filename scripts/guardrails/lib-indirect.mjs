/**
 * Training and cross-validation of the injection detector's indirect path (tool
 * results), shared by scripts/guardrails/{train,eval}-indirect.mjs and the node
 * test. Like lib-injection.mjs, it runs the runtime's own TypeScript (prose.ts,
 * tool-score.ts, features.ts), so training sees exactly the blocks, windows and
 * features the Worker scores.
 *
 * A tool result is trained on window by window: its prose is cut into the
 * runtime's sentence blocks and windows; a window of a benign result is a
 * negative, a window that holds an injected instruction a positive, and a
 * window of an injected result that holds none of it is a negative too (it is
 * the benign carrier). Where the injected text is known (generated rows) its
 * occurrences mark the blocks; in the dev rows, whose injections are not
 * marked, an injected line is one that no benign row of the set contains.
 * Cross-validation also calibrates the scores (crossValidateTools), so the
 * shipped default threshold is 0.5. Long for a module because, like
 * lib-injection.mjs, it is the whole pipeline the three entry points share.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  DEFAULT_DATA,
  ORDINARY,
  ROOT,
  TRAINING,
  assignFolds,
  ordinaryRows,
  prng,
  quantise,
  readRows,
  trainLogistic,
  windowVector,
} from './lib-injection.mjs';
import { importTs } from './import-ts.mjs';

/** The runtime's prose extraction, blocks, windows, features and scorer, bundled for Node. */
export async function loadIndirectRuntime() {
  return importTs([
    "export { proseOf } from './src/guardrails/injection/prose';",
    "export { blockEnds, forEachWindow, proseLogit, MAX_TOOL_SCAN } from './src/guardrails/injection/tool-score';",
    "export { scanFeatures } from './src/guardrails/injection/features';",
    "export { CUE_COUNT } from './src/guardrails/injection/cues';",
    "export { decodeModel, encodeWeights, MODEL_VERSION } from './src/guardrails/injection/model-codec';",
    "export { sigmoid } from './src/guardrails/injection/score';",
    "export { SERIALISED_MODEL as TOOL_MODEL } from './src/guardrails/injection/tool-model';",
  ]);
}

const normLine = (line) => line.toLowerCase().replace(/\s+/g, ' ').trim();

/** Every normalised prose line of the benign rows: a dev row's line outside it is taken as injected. */
export function benignLines(runtime, rows) {
  const lines = new Set();
  for (const row of rows) {
    if (row.label !== 'benign') continue;
    for (const line of runtime.proseOf(row.text).split('\n')) lines.add(normLine(line));
  }
  return lines;
}

/**
 * A per-unit mask of `prose` (1 = injected): the occurrences of the row's `injection` text when it has one,
 * else the lines not found in `known` (benign lines). Null for a benign row.
 */
export function injectedMask(prose, row, known) {
  if (row.label !== 'injection') return null;
  const mask = new Uint8Array(prose.length);
  if (typeof row.injection === 'string') return markInjection(prose, row.injection, mask) ? mask : null;
  let found = false;
  let start = 0;
  for (const line of prose.split('\n')) {
    if (line.trim() !== '' && !known.has(normLine(line))) {
      mask.fill(1, start, start + line.length);
      found = true;
    }
    start += line.length + 1;
  }
  return found ? mask : null;
}

/** Backslash escapes a serialiser may have left in a recorded injection. */
const unescaped = (text) =>
  text.replace(/\\(["'\\/nt])/g, (_, c) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));

/** `text` with every run of whitespace as one space, and the offset in `text` of each of its units. */
function squeezed(text) {
  let out = '';
  const at = [];
  let space = false;
  for (let i = 0; i < text.length; i++) {
    if (/\s/.test(text[i])) {
      if (space || out === '') continue;
      space = true;
      out += ' ';
    } else {
      space = false;
      out += text[i];
    }
    at.push(i);
  }
  return { out, at };
}

/**
 * Marks every occurrence of the injected text in `mask`, whitespace-insensitively (serialisation may
 * re-indent, fold or wrap it), line by line; false when none is found, as written or unescaped.
 */
function markInjection(prose, injection, mask) {
  const { out, at } = squeezed(prose);
  for (const text of [injection, unescaped(injection), unescaped(unescaped(injection))]) {
    let found = false;
    for (const line of text.split('\n')) {
      const part = squeezed(line).out.trim();
      if (part.length < 4) continue;
      let k = out.indexOf(part);
      while (k >= 0) {
        mask.fill(1, at[k], at[k + part.length - 1] + 1);
        found = true;
        k = out.indexOf(part, k + part.length);
      }
    }
    if (found) return true;
  }
  return false;
}

/**
 * The windows of one text as training vectors: each a sparse count vector over the buckets, normalised by
 * √(feature count) as the runtime normalises it, then its cues (index 2^bits + cue, value 1) and their
 * number (index 2^bits + CUE_COUNT); with `injected`, the share of its units the mask marks.
 */
export function windowVectors(runtime, prose, bits, mask) {
  const end = Math.min(prose.length, runtime.MAX_TOOL_SCAN);
  const ends = new Int32Array(Math.ceil(end / 8) + 2);
  const blocks = runtime.blockEnds(prose, 0, end, ends);
  const maps = Array.from({ length: blocks }, () => new Map());
  const masks = new Int32Array(blocks);
  let block = 0;
  let cueBlock = 0;
  runtime.scanFeatures(
    prose,
    0,
    end,
    bits,
    (bucket, position) => {
      while (position >= ends[block]) block++;
      const map = maps[block];
      map.set(bucket, (map.get(bucket) ?? 0) + 1);
    },
    (cue, position) => {
      while (position >= ends[cueBlock]) cueBlock++;
      masks[cueBlock] |= 1 << cue;
    },
  );
  const out = [];
  runtime.forEachWindow(ends, blocks, (first, last) => {
    const counts = new Map();
    let cueMask = 0;
    for (let b = first; b < last; b++) {
      for (const [k, n] of maps[b]) counts.set(k, (counts.get(k) ?? 0) + n);
      cueMask |= masks[b];
    }
    const vector = windowVector(counts, cueMask, bits, runtime.CUE_COUNT);
    if (!vector) return;
    const from = first === 0 ? 0 : ends[first - 1];
    const to = ends[last - 1];
    let injected = 0;
    if (mask) for (let i = from; i < to; i++) injected += mask[i];
    out.push({ ...vector, injected: injected / (to - from), injectedUnits: injected });
  });
  return out;
}

// --- the rows --------------------------------------------------------------------------------------

export const DEFAULT_INDIRECT_DATA = resolve(ROOT, '..', 'shared', 'data', 'injection', 'indirect-dev.jsonl');
export { DEFAULT_DATA };
export const TOOL_MODEL_MODULE = join(ROOT, 'src', 'guardrails', 'injection', 'tool-model.ts');
export const GENERATED_TOOLS = 'generated/tool-outputs';

/** Training settings: the shipped tool-result model is trained with exactly these. */
export const INDIRECT_TRAINING = Object.freeze({
  bits: 17,
  epochs: 6,
  learningRate: 0.2,
  l2: 1e-6,
  seed: 20_261_127,
  folds: 5,
  /** Negative windows count this much more than positive ones: false positives switch a guardrail off. */
  benignWeight: 1.5,
  /** Weight of a direct prompt's windows, and of a generated ordinary prompt's (a tool result's weighs 1). */
  promptWeight: 0.5,
  ordinaryWeight: 0.2,
  /** Weight of a generated tool result's windows. */
  generatedWeight: 1,
  /** How many generated tool results (scripts/guardrails/tool-outputs.mjs) join the dev rows. */
  generatedCount: 6000,
  /** A window of an injected result is a positive when this share of its units is injected. */
  positiveShare: 0.3,
});

/** Reads the indirect rows (tool results) of `path`, or null when it is absent. */
export function readToolRows(path) {
  if (!existsSync(path)) return null;
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const row = JSON.parse(line);
      if (typeof row.text !== 'string' || (row.label !== 'benign' && row.label !== 'injection'))
        throw new Error(`bad row in ${path}: ${line.slice(0, 80)}`);
      return {
        text: row.text,
        label: row.label,
        source: String(row.source),
        family: String(row.family ?? 'none'),
        format: String(row.format ?? 'text'),
        domain: String(row.source).split('/').slice(0, 2).join('/'),
        hardNegative: row.hard_negative === true,
        kind: 'tool',
      };
    });
}

/**
 * A benign text that quotes an attack (a security post, a test file, a post-mortem citing the line that
 * fooled an assistant): a detector that flags it is right about the words it quotes. Such rows neither
 * train the model (they would teach it that the attack's own words are benign) nor count in the
 * false-positive figures; the report gives their rate on their own.
 */
export const QUOTED_ATTACK =
  /["“'][^"”\n]{0,80}\b(ignore|disregard|forget)\b[^"”\n]{0,40}\b(previous|prior|above|all)\b[^"”\n]{0,30}\binstructions\b[^"”\n]{0,120}["”']/i;

/** The generated tool results, as rows of the same shape. */
export async function generatedToolRows(settings = INDIRECT_TRAINING) {
  if (settings.generatedCount === 0) return [];
  const { toolOutputs } = await import('./tool-outputs.mjs');
  return toolOutputs({ seed: settings.seed, count: settings.generatedCount }).map((row) => ({
    text: row.text,
    label: row.label,
    source: GENERATED_TOOLS,
    family: row.family ?? 'none',
    format: row.format,
    domain: `generated/${row.domain}`,
    hardNegative: row.hard_negative === true,
    group: row.group,
    injection: row.injection ?? null,
    quotesAttack: row.label === 'benign' && QUOTED_ATTACK.test(row.text),
    kind: 'tool',
  }));
}

/** Every row the tool-result model learns from: tool results (dev and generated) and prompts (direct dev, ordinary). */
export async function indirectTrainingRows(toolRows, directRows, settings = INDIRECT_TRAINING) {
  const prompts = [
    ...(directRows ?? []).map((r) => ({ ...r, kind: 'prompt' })),
    ...ordinaryRows({ ...TRAINING, seed: TRAINING.seed }).map((r) => ({ ...r, kind: 'prompt' })),
  ];
  return [...toolRows, ...(await generatedToolRows(settings)), ...prompts];
}

export { readRows };

// --- examples and training -------------------------------------------------------------------------

/** Training examples (one per window) of `rows`; `known` is benignLines of the dev tool rows. */
export function windowExamples(runtime, rows, known, settings = INDIRECT_TRAINING) {
  const out = [];
  for (const row of rows) {
    if (row.quotesAttack) continue;
    const tool = row.kind === 'tool';
    const prose = tool ? runtime.proseOf(row.text) : row.text;
    const mask = tool ? injectedMask(prose, row, known) : null;
    const vectors = windowVectors(runtime, prose, settings.bits, mask);
    const base =
      row.source === ORDINARY
        ? settings.ordinaryWeight
        : !tool
          ? settings.promptWeight
          : row.source === GENERATED_TOOLS
            ? settings.generatedWeight
            : 1;
    const weight = base / Math.sqrt(Math.max(1, vectors.length));
    for (const v of vectors) {
      let y;
      if (row.label === 'benign') y = 0;
      else if (!tool) y = 1;
      else if (!mask) continue;
      else if (v.injected >= settings.positiveShare) y = 1;
      else if (v.injectedUnits === 0) y = 0;
      else continue;
      out.push({ vectors: [v], y, weight: weight * (y === 0 ? settings.benignWeight : 1) });
    }
  }
  return out;
}

export function trainToolModel(runtime, examples, settings = INDIRECT_TRAINING) {
  return quantise(trainLogistic(examples, settings, runtime.CUE_COUNT), settings.bits);
}

/** A tool result's logit under `model`, as the runtime computes it (its score is the logit's sigmoid). */
export function toolLogit(runtime, model, text) {
  return runtime.proseLogit(model, runtime.proseOf(text));
}

// --- cross-validation ------------------------------------------------------------------------------

const hash = (text) => Number.parseInt(createHash('sha256').update(text).digest('hex').slice(0, 8), 16);

/**
 * Fold per tool row. Generated rows: a whole template group per fold (`holdout` 'group': a result is scored
 * by a model that never saw its template, its records or its injected wording, though it saw other results
 * of its domain), or a whole domain (`holdout` 'domain': never a result of its kind — e-mail, chat, web — at
 * all, a stress figure). Dev rows: near-duplicate groups, stratified, as the direct detector's folds.
 */
export function toolFolds(rows, k, seed = INDIRECT_TRAINING.seed, holdout = 'group') {
  const fold = new Array(rows.length).fill(-1);
  const dev = [];
  rows.forEach((row, i) => {
    if (row.kind !== 'tool') return;
    if (row.source === GENERATED_TOOLS)
      fold[i] = hash(`${seed}|${holdout === 'domain' ? row.domain : row.group}`) % k;
    else dev.push(i);
  });
  const assigned = assignFolds(
    dev.map((i) => rows[i]),
    k,
    seed,
  ).fold;
  dev.forEach((i, j) => {
    fold[i] = assigned[j];
  });
  return fold;
}

/**
 * Out-of-fold scores of every tool row (prompt rows train every fold and are not scored), and, as a second
 * check, the dev tool rows scored by a model that never saw a dev tool row at all (`unseenDev`). Scores are
 * calibrated: each is sigmoid(logit − offset), `offset` being the lowest logit whose out-of-fold false
 * positives fit TOOL_FP_BUDGET, so the default threshold is TOOL_THRESHOLD (0.5) and the shipped model's
 * bias carries the same offset (trainShippedTool).
 */
export function crossValidateTools(runtime, rows, settings = INDIRECT_TRAINING, holdout = 'group') {
  const k = settings.folds;
  const fold = toolFolds(rows, k, settings.seed, holdout);
  const known = benignLines(
    runtime,
    rows.filter((r) => r.kind === 'tool' && r.source !== GENERATED_TOOLS),
  );
  const examples = rows.map((row) => windowExamples(runtime, [row], known, settings));
  const logits = new Float64Array(rows.length).fill(Number.NaN);
  for (let f = 0; f < k; f++) {
    const train = examples.filter((_, i) => fold[i] !== f).flat();
    const model = trainToolModel(runtime, train, settings);
    rows.forEach((row, i) => {
      if (fold[i] === f) logits[i] = toolLogit(runtime, model, row.text);
    });
  }
  const isDevTool = (row) => row.kind === 'tool' && row.source !== GENERATED_TOOLS;
  const unseenModel = trainToolModel(
    runtime,
    examples.filter((_, i) => !isDevTool(rows[i])).flat(),
    settings,
  );
  const offset = calibrationOffset(rows, logits);
  const calibrated = (logit) => runtime.sigmoid(logit - offset);
  return {
    scores: logits.map(calibrated),
    unseenDev: rows.map((row) =>
      isDevTool(row) ? calibrated(toolLogit(runtime, unseenModel, row.text)) : Number.NaN,
    ),
    offset,
    fold,
    known,
  };
}

/** The shipped model: trained on every row, its bias less the calibration `offset` (crossValidateTools). */
export function trainShippedTool(runtime, rows, settings = INDIRECT_TRAINING, offset = 0) {
  const known = benignLines(
    runtime,
    rows.filter((r) => r.kind === 'tool' && r.source !== GENERATED_TOOLS),
  );
  const model = trainToolModel(runtime, windowExamples(runtime, rows, known, settings), settings);
  return { ...model, bias: model.bias - offset, threshold: TOOL_THRESHOLD };
}

// --- metrics, turns and the threshold --------------------------------------------------------------

/** Targets the cross-validated figures must meet (the node test enforces them). */
export const TOOL_TARGETS = Object.freeze({
  fpOverall: 0.02,
  fpHardNegative: 0.05,
  recallOverall: 0.8,
  recallPerFamily: 0.6,
  /** A turn with 5 benign tool results quarantined or blocked. */
  turn5: 0.05,
});
/**
 * The default threshold's budget: half the false-positive targets, and four fifths of the turn target. The
 * few false positives left at half the targets score near 1, so a stricter turn budget would buy almost no
 * fewer of them with a lot of recall.
 */
export const TOOL_FP_BUDGET = Object.freeze({ overall: 0.01, hardNegative: 0.025, turn5: 0.04 });
export const TOOL_THRESHOLD_GRID = Array.from({ length: 199 }, (_, i) => Math.round((i + 1) * 5) / 1000);

const tallyOf = () => ({ tp: 0, fn: 0, fp: 0, tn: 0 });
function rates(x) {
  return {
    ...x,
    n: x.tp + x.fn + x.fp + x.tn,
    recall: x.tp + x.fn === 0 ? Number.NaN : x.tp / (x.tp + x.fn),
    fpr: x.fp + x.tn === 0 ? Number.NaN : x.fp / (x.fp + x.tn),
  };
}

/** Recall and false positives of the scored tool rows at `threshold`: overall, and by family, format, domain. */
export function toolMetricsAt(rows, scores, threshold) {
  const overall = tallyOf();
  const hard = tallyOf();
  const quoting = tallyOf();
  const groups = { family: new Map(), format: new Map(), domain: new Map() };
  rows.forEach((row, i) => {
    const s = scores[i];
    if (row.kind !== 'tool' || !Number.isFinite(s)) return;
    const fired = s >= threshold;
    if (row.quotesAttack) {
      fired ? quoting.fp++ : quoting.tn++;
      return;
    }
    const targets = [overall];
    if (row.label === 'benign' && row.hardNegative) targets.push(hard);
    for (const [name, map] of Object.entries(groups)) {
      const key = name === 'family' ? (row.label === 'benign' ? '(benign)' : row.family) : row[name];
      if (!map.has(key)) map.set(key, tallyOf());
      targets.push(map.get(key));
    }
    for (const t of targets) {
      if (row.label === 'injection') fired ? t.tp++ : t.fn++;
      else fired ? t.fp++ : t.tn++;
    }
  });
  const sorted = (map) => Object.fromEntries([...map].sort().map(([k, x]) => [k, rates(x)]));
  return {
    threshold,
    overall: rates(overall),
    hardNegative: rates(hard),
    quoting: rates(quoting),
    family: sorted(groups.family),
    format: sorted(groups.format),
    domain: sorted(groups.domain),
  };
}

/**
 * The chance that a turn carrying `n` benign tool results has at least one at or over `threshold` (so is
 * quarantined in part, or blocked), for each n: turns drawn from the benign results' scores, `trials` each.
 */
export function turnRates(benignScores, threshold, ns = [1, 5, 20], trials = 20_000, seed = 7) {
  const random = prng(seed);
  const out = {};
  for (const n of ns) {
    let hit = 0;
    for (let t = 0; t < trials; t++) {
      for (let k = 0; k < n; k++) {
        if (benignScores[Math.floor(random() * benignScores.length)] >= threshold) {
          hit++;
          break;
        }
      }
    }
    out[n] = hit / trials;
  }
  return out;
}

export const benignToolScores = (rows, scores) =>
  rows.flatMap((row, i) =>
    row.kind === 'tool' && row.label === 'benign' && !row.quotesAttack && Number.isFinite(scores[i])
      ? [scores[i]]
      : [],
  );

/** The shipped default threshold on calibrated scores. */
export const TOOL_THRESHOLD = 0.5;

/** The budget's test: the false positives of `scores` at `threshold` fit TOOL_FP_BUDGET. */
function withinBudget(rows, scores, threshold) {
  const m = toolMetricsAt(rows, scores, threshold);
  if (m.overall.fpr > TOOL_FP_BUDGET.overall) return false;
  if (m.hardNegative.fpr > TOOL_FP_BUDGET.hardNegative) return false;
  return turnRates(benignToolScores(rows, scores), threshold, [5], 10_000)[5] <= TOOL_FP_BUDGET.turn5;
}

/** The lowest logit (on a 0.05 grid from −10 to 30) whose out-of-fold false positives fit TOOL_FP_BUDGET. */
export function calibrationOffset(rows, logits) {
  for (let t = -10; t <= 30; t = Math.round((t + 0.05) * 100) / 100) {
    if (withinBudget(rows, logits, t)) return t;
  }
  return 30;
}

/** The lowest 0.005-grid threshold on calibrated scores whose out-of-fold false positives fit TOOL_FP_BUDGET. */
export function chooseToolThreshold(rows, scores) {
  for (const t of TOOL_THRESHOLD_GRID) if (withinBudget(rows, scores, t)) return t;
  return TOOL_THRESHOLD_GRID[TOOL_THRESHOLD_GRID.length - 1];
}

/** Which targets the metrics miss (empty when all are met). */
export function missedToolTargets(metrics, turn5) {
  const missed = [];
  const p = (x) => `${(x * 100).toFixed(1)} %`;
  if (!(metrics.overall.fpr <= TOOL_TARGETS.fpOverall)) missed.push(`FP ${p(metrics.overall.fpr)} > 2 %`);
  if (!(metrics.hardNegative.fpr <= TOOL_TARGETS.fpHardNegative))
    missed.push(`FP on trigger-word results ${p(metrics.hardNegative.fpr)} > 5 %`);
  if (!(metrics.overall.recall >= TOOL_TARGETS.recallOverall))
    missed.push(`recall ${p(metrics.overall.recall)} < 80 %`);
  for (const [family, x] of Object.entries(metrics.family)) {
    if (family !== '(benign)' && !(x.recall >= TOOL_TARGETS.recallPerFamily))
      missed.push(`recall on ${family} ${p(x.recall)} < 60 %`);
  }
  if (turn5 !== undefined && !(turn5 <= TOOL_TARGETS.turn5)) missed.push(`5-result turns ${p(turn5)} > 5 %`);
  return missed;
}
