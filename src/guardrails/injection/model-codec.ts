/**
 * The shipped model's serialised form (what the training script writes into
 * model.ts) and its decoding, done once per isolate, the first time the
 * detector scores a text.
 *
 * The weights are text, one character per weight: the 93 printable ASCII
 * characters that need no escape in a quoted string (space to `~`, less `'`
 * and `\`) stand for -46…46 in order; the few weights outside that range are
 * written as 0's character and listed in `outliers`. Most weights are small,
 * and gzip codes such text close to the weights' entropy: 128 KiB raw and
 * 89 KiB gzipped in the bundle, where base64 took 171 and 113 KiB.
 */
import { CUE_COUNT } from './cues';
import type { InjectionModel } from './score';

export interface SerialisedModel {
  readonly version: number;
  readonly bits: number;
  readonly scale: number;
  readonly bias: number;
  readonly threshold: number;
  /** The weights of the cues it knows (the first ones), then the distinct-cue count weight, not quantised. */
  readonly cues: readonly number[];
  /** 2^bits characters, one per weight (see above). */
  readonly weights: string;
  /** The weights outside -46…46: bucket, weight, bucket, weight… */
  readonly outliers: readonly number[];
}

/** The serialised form's version: 3 since the weights are one character each (2 was base64). */
export const MODEL_VERSION = 3;

const OFFSET = 46;
const SPACE = 0x20;
const QUOTE = 0x27;
const BACKSLASH = 0x5c;

/** The character of a weight in -46…46. */
function weightChar(weight: number): string {
  let code = SPACE + weight + OFFSET;
  if (code >= QUOTE) code++;
  if (code >= BACKSLASH) code++;
  return String.fromCharCode(code);
}

/** The weight of a character code (the inverse of weightChar). */
function charWeight(code: number): number {
  return code - SPACE - (code > QUOTE ? 1 : 0) - (code > BACKSLASH ? 1 : 0) - OFFSET;
}

/** The text and outliers of a weight table (for the training script). */
export function encodeWeights(weights: Int8Array): { weights: string; outliers: number[] } {
  const chars: string[] = [];
  const outliers: number[] = [];
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i]!;
    if (w < -OFFSET || w > OFFSET) {
      outliers.push(i, w);
      chars.push(weightChar(0));
    } else chars.push(weightChar(w));
  }
  return { weights: chars.join(''), outliers };
}

export function decodeModel(serialised: SerialisedModel): InjectionModel {
  if (serialised.version !== MODEL_VERSION) {
    throw new Error(`injection model: version ${serialised.version}, expected ${MODEL_VERSION}`);
  }
  const text = serialised.weights;
  const size = 1 << serialised.bits;
  if (text.length !== size) {
    throw new Error(`injection model: ${text.length} weights for ${serialised.bits} hash bits`);
  }
  if (serialised.cues.length < 1 || serialised.cues.length > CUE_COUNT + 1) {
    throw new Error(
      `injection model: ${serialised.cues.length} cue weights, expected at most ${CUE_COUNT + 1}`,
    );
  }
  const weights = new Int8Array(size);
  for (let i = 0; i < size; i++) weights[i] = charWeight(text.charCodeAt(i));
  const { outliers } = serialised;
  for (let i = 0; i + 1 < outliers.length; i += 2) weights[outliers[i]!] = outliers[i + 1]!;
  return {
    bits: serialised.bits,
    weights,
    scale: serialised.scale,
    bias: serialised.bias,
    threshold: serialised.threshold,
    cues: Float64Array.from(serialised.cues),
  };
}
