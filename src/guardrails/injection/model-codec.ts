/**
 * The shipped model's serialised form (what the training script writes into
 * model.ts: one signed byte per bucket, base64) and its decoding, done once per
 * isolate, the first time the detector scores a text.
 */
import { CUE_COUNT } from './cues';
import type { InjectionModel } from './score';

export interface SerialisedModel {
  readonly version: number;
  readonly bits: number;
  readonly scale: number;
  readonly bias: number;
  readonly threshold: number;
  /** The cue weights (CUE_COUNT, then the distinct-cue count weight), not quantised. */
  readonly cues: readonly number[];
  /** base64 of 2^bits two's-complement bytes. */
  readonly weights: string;
}

export function decodeModel(serialised: SerialisedModel): InjectionModel {
  const binary = atob(serialised.weights);
  const size = 1 << serialised.bits;
  if (binary.length !== size) {
    throw new Error(`injection model: ${binary.length} weights for ${serialised.bits} hash bits`);
  }
  if (serialised.cues.length !== CUE_COUNT + 1) {
    throw new Error(`injection model: ${serialised.cues.length} cue weights, expected ${CUE_COUNT + 1}`);
  }
  const weights = new Int8Array(size);
  for (let i = 0; i < size; i++) weights[i] = (binary.charCodeAt(i) << 24) >> 24;
  return {
    bits: serialised.bits,
    weights,
    scale: serialised.scale,
    bias: serialised.bias,
    threshold: serialised.threshold,
    cues: Float64Array.from(serialised.cues),
  };
}
