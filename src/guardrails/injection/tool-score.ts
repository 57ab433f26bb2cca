/**
 * Scoring one tool result's prose (prose.ts) with a linear model over the
 * detector's hashed features (features.ts) and cues (cues.ts), sentence by
 * sentence. The prose is cut into blocks that end at a line break or a
 * sentence's end (at least MIN_BLOCK units, at most MAX_BLOCK); a window is one
 * block, or a run of consecutive blocks of at most WINDOW units, and the
 * result's score is its best window's. An instruction hidden in one review, one e-mail or one
 * paragraph is scored on its own sentences, not diluted by the document, and a
 * long benign document is many short windows, not one unusual text: length and
 * markup do not raise its score.
 *
 * A window's logit is bias + scale · Σ weight / √(feature count) plus the
 * weights of the cues present in it (as score.ts, with sentence-aligned windows
 * in place of fixed blocks). One feature pass per result; the block buffers are
 * allocated once per isolate. The training script (scripts/guardrails/) cuts
 * blocks and windows with these very functions.
 */
import type { CueSink } from './cues';
import { type FeatureSink, scanFeatures } from './features';
import { cueLogit, type InjectionModel } from './score';

export const MIN_BLOCK = 24;
export const MAX_BLOCK = 256;
export const WINDOW = 512;
/** The longest stretch of one result's prose scanned in one pass (a longer one is scanned as head and tail). */
export const TOOL_HEAD_SCAN = 24_576;
export const TOOL_TAIL_SCAN = 8_192;
export const MAX_TOOL_SCAN = TOOL_HEAD_SCAN + TOOL_TAIL_SCAN;

const MAX_BLOCKS = Math.ceil(MAX_TOOL_SCAN / MIN_BLOCK) + 2;
const ends = new Int32Array(MAX_BLOCKS);
const sums = new Int32Array(MAX_BLOCKS);
const counts = new Int32Array(MAX_BLOCKS);
const cueMasks = new Int32Array(MAX_BLOCKS);

const isSentenceEnd = (c: number) => c === 0x2e || c === 0x21 || c === 0x3f;
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * The end offsets (relative to `from`) of the blocks of text[from, to) into `out`; returns how many.
 * A block ends after a line break, or after `.`, `!` or `?` followed by a space, once it is MIN_BLOCK
 * units long; and at MAX_BLOCK units whatever comes. The last block ends at `to`.
 */
export function blockEnds(text: string, from: number, to: number, out: Int32Array): number {
  let n = 0;
  let start = from;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    const length = i + 1 - start;
    const boundary = c === 0x0a || (isSentenceEnd(c) && i + 1 < to && isSpace(text.charCodeAt(i + 1)));
    if ((boundary && length >= MIN_BLOCK) || length >= MAX_BLOCK) {
      if (i + 1 < to) {
        out[n++] = i + 1 - from;
        start = i + 1;
      }
    }
  }
  if (to > from) out[n++] = to - from;
  return n;
}

/**
 * Calls `visit(first, last)` for every window of blocks [first, last): each block alone (a short
 * instruction is scored on its own sentence), and from each block the longest run that spans at most
 * WINDOW units (an instruction over several sentences is scored whole), unless it lies inside the
 * previous run.
 */
export function forEachWindow(
  blockEnd: Int32Array,
  blocks: number,
  visit: (first: number, last: number) => void,
): void {
  let last = 0;
  let previousLast = 0;
  for (let first = 0; first < blocks; first++) {
    const start = first === 0 ? 0 : blockEnd[first - 1]!;
    if (last <= first) last = first + 1;
    while (last < blocks && blockEnd[last]! - start <= WINDOW) last++;
    visit(first, first + 1);
    if (last > first + 1 && last > previousLast) visit(first, last);
    if (last > previousLast) previousLast = last;
  }
}

let block = 0;
const recordCue: CueSink = (cue, position) => {
  while (position >= ends[block]!) block++;
  cueMasks[block]! |= 1 << cue;
};

const sinks = new WeakMap<InjectionModel, FeatureSink>();
function sinkFor(model: InjectionModel): FeatureSink {
  let sink = sinks.get(model);
  if (!sink) {
    const weights = model.weights;
    sink = (bucket, position) => {
      while (position >= ends[block]!) block++;
      sums[block]! += weights[bucket]!;
      counts[block]!++;
    };
    sinks.set(model, sink);
  }
  return sink;
}

/** The best window's logit over text[from, to), to - from ≤ MAX_TOOL_SCAN; −∞ when it has no features. */
function stretchLogit(model: InjectionModel, text: string, from: number, to: number): number {
  const blocks = blockEnds(text, from, to, ends);
  sums.fill(0, 0, blocks);
  counts.fill(0, 0, blocks);
  cueMasks.fill(0, 0, blocks);
  block = 0;
  scanFeatures(text, from, to, model.bits, sinkFor(model), recordCue);
  let cued = false;
  for (let b = 0; b < blocks && !cued; b++) cued = cueMasks[b] !== 0;
  let best = Number.NEGATIVE_INFINITY;
  forEachWindow(ends, blocks, (first, last) => {
    let sum = 0;
    let count = 0;
    let mask = 0;
    for (let b = first; b < last; b++) {
      sum += sums[b]!;
      count += counts[b]!;
      if (cued) mask |= cueMasks[b]!;
    }
    if (count === 0) return;
    const logit =
      model.bias + (model.scale * sum) / Math.sqrt(count) + (mask ? cueLogit(model.cues, mask) : 0);
    if (logit > best) best = logit;
  });
  return best;
}

/**
 * The logit of a result's prose under `model`, scanning at most `cap` units (≤ MAX_TOOL_SCAN): all of it
 * when it fits, else its head (three quarters of `cap`) and its tail.
 */
export function proseLogit(model: InjectionModel, prose: string, cap = MAX_TOOL_SCAN): number {
  const length = prose.length;
  const limit = Math.max(0, Math.min(cap, MAX_TOOL_SCAN));
  if (length <= limit) return stretchLogit(model, prose, 0, length);
  const head = Math.ceil((limit * TOOL_HEAD_SCAN) / MAX_TOOL_SCAN);
  return Math.max(
    stretchLogit(model, prose, 0, head),
    stretchLogit(model, prose, length - (limit - head), length),
  );
}
