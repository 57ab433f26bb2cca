/**
 * The shipped model's serialised form (what the training script writes into
 * model.ts: one signed byte per bucket, base64) and its decoding, done once per
 * isolate when the detector's module loads.
 */
import type { InjectionModel } from './score';

export interface SerialisedModel {
  readonly version: number;
  readonly bits: number;
  readonly scale: number;
  readonly bias: number;
  readonly threshold: number;
  /** base64 of 2^bits two's-complement bytes. */
  readonly weights: string;
}

export function decodeModel(serialised: SerialisedModel): InjectionModel {
  const binary = atob(serialised.weights);
  const size = 1 << serialised.bits;
  if (binary.length !== size) {
    throw new Error(`injection model: ${binary.length} weights for ${serialised.bits} hash bits`);
  }
  const weights = new Int8Array(size);
  for (let i = 0; i < size; i++) weights[i] = (binary.charCodeAt(i) << 24) >> 24;
  return {
    bits: serialised.bits,
    weights,
    scale: serialised.scale,
    bias: serialised.bias,
    threshold: serialised.threshold,
  };
}
