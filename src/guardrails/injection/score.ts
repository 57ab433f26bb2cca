/**
 * Windowed scoring of one text with a linear model over the hashed features.
 * Features are summed per 256-unit block; a window is 8 consecutive blocks
 * (2,048 UTF-16 units) sliding one block at a time, and the text's score is its
 * best window's, so an attack buried in a long document is not diluted by the
 * rest of it. A window's logit is bias + scale · Σ weight / √(feature count)
 * (the quantised weights of every n-gram occurrence, length-normalised) plus,
 * not normalised, the weight of each injection cue (cues.ts) present in the
 * window and a weight per distinct cue: a cue counts as much in a long window
 * as in a short prompt.
 *
 * Bound: a text longer than MAX_TEXT_SCAN units is scanned as its first
 * HEAD_SCAN and last TAIL_SCAN units, so one text costs at most MAX_TEXT_SCAN
 * units of feature extraction (five hashes each) plus one pass over its blocks.
 * The block buffers are allocated once per isolate.
 */
import type { CueSink } from './cues';
import { type FeatureSink, scanFeatures } from './features';

export interface InjectionModel {
  /** Buckets are [0, 2^bits). */
  readonly bits: number;
  /** One quantised weight per bucket. */
  readonly weights: Int8Array;
  /** Real weight = scale · quantised weight. */
  readonly scale: number;
  readonly bias: number;
  /**
   * One weight per cue it knows (the first ones in cue-id order: DIRECT_CUE_COUNT for the prompt model,
   * CUE_COUNT for the tool-result model), then the weight of the number of distinct cues in a window.
   */
  readonly cues: Float64Array;
  /** The trained default decision threshold on the [0, 1] score. */
  readonly threshold: number;
}

export const BLOCK_SHIFT = 8;
export const BLOCK = 1 << BLOCK_SHIFT;
export const WINDOW_BLOCKS = 8;
export const WINDOW = BLOCK * WINDOW_BLOCKS;
export const HEAD_SCAN = 12_288;
export const TAIL_SCAN = 4_096;
export const MAX_TEXT_SCAN = HEAD_SCAN + TAIL_SCAN;

const sums = new Int32Array((MAX_TEXT_SCAN >> BLOCK_SHIFT) + 1);
const counts = new Int32Array(sums.length);
/** Per block, a bit per cue found in it. */
const cueMasks = new Int32Array(sums.length);

const recordCue: CueSink = (cue, position) => {
  cueMasks[position >> BLOCK_SHIFT]! |= 1 << cue;
};

/**
 * One accumulating sink per model, its weights captured as a constant: reading
 * them from a mutable module variable instead doubles the cost of a scan.
 */
const sinks = new WeakMap<InjectionModel, FeatureSink>();
function sinkFor(model: InjectionModel): FeatureSink {
  let sink = sinks.get(model);
  if (!sink) {
    const weights = model.weights;
    sink = (bucket, position) => {
      const block = position >> BLOCK_SHIFT;
      sums[block]! += weights[bucket]!;
      counts[block]!++;
    };
    sinks.set(model, sink);
  }
  return sink;
}

function windowLogit(model: InjectionModel, sum: number, count: number): number {
  return count === 0 ? Number.NEGATIVE_INFINITY : model.bias + (model.scale * sum) / Math.sqrt(count);
}

/**
 * The cues' share of a window's logit: each present cue's weight, and the count weight per distinct cue.
 * A model knows the first `cues.length - 1` cues (the ones it was trained with); it ignores later ones.
 */
export function cueLogit(cues: Float64Array, mask: number): number {
  const known = cues.length - 1;
  let logit = 0;
  let distinct = 0;
  for (let c = 0; c < known; c++) {
    if ((mask >>> c) & 1) {
      logit += cues[c]!;
      distinct++;
    }
  }
  return logit + distinct * cues[known]!;
}

/** The cues found in blocks [first, last). */
function windowMask(first: number, last: number): number {
  let mask = 0;
  for (let b = first; b < last; b++) mask |= cueMasks[b]!;
  return mask;
}

/** The best window's logit over text[from, to), where to - from <= MAX_TEXT_SCAN. */
function segmentLogit(model: InjectionModel, text: string, from: number, to: number): number {
  const blocks = (to - from + BLOCK - 1) >> BLOCK_SHIFT;
  sums.fill(0, 0, blocks);
  counts.fill(0, 0, blocks);
  cueMasks.fill(0, 0, blocks);
  scanFeatures(text, from, to, model.bits, sinkFor(model), recordCue);
  const cued = windowMask(0, blocks) !== 0;
  const span = Math.min(blocks, WINDOW_BLOCKS);
  let sum = 0;
  let count = 0;
  for (let b = 0; b < span; b++) {
    sum += sums[b]!;
    count += counts[b]!;
  }
  let best = windowLogit(model, sum, count) + (cued ? cueLogit(model.cues, windowMask(0, span)) : 0);
  for (let b = span; b < blocks; b++) {
    sum += sums[b]! - sums[b - span]!;
    count += counts[b]! - counts[b - span]!;
    const cues = cued ? cueLogit(model.cues, windowMask(b + 1 - span, b + 1)) : 0;
    best = Math.max(best, windowLogit(model, sum, count) + cues);
  }
  return best;
}

/**
 * The logit of `text` under `model` (−∞ when it has no features: empty or
 * blank), scanning at most `cap` units (≤ MAX_TEXT_SCAN): the whole text when it
 * fits, else its first three quarters of `cap` and its last quarter.
 */
export function textLogit(model: InjectionModel, text: string, cap = MAX_TEXT_SCAN): number {
  const length = text.length;
  const limit = Math.max(0, Math.min(cap, MAX_TEXT_SCAN));
  if (length <= limit) return segmentLogit(model, text, 0, length);
  const head = Math.ceil((limit * HEAD_SCAN) / MAX_TEXT_SCAN);
  return Math.max(
    segmentLogit(model, text, 0, head),
    segmentLogit(model, text, length - (limit - head), length),
  );
}

export function sigmoid(logit: number): number {
  return 1 / (1 + Math.exp(-logit));
}

/** The [0, 1] injection score of `text` under `model`, scanning at most `cap` units. */
export function scoreText(model: InjectionModel, text: string, cap = MAX_TEXT_SCAN): number {
  return sigmoid(textLogit(model, text, cap));
}
