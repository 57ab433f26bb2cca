/**
 * Deterministic embedding vectors: uniform values from a PRNG seeded by the
 * input's hash, scaled to unit length and stored as float32 (what the real API
 * returns). A shorter `dimensions` gives a prefix of the same sequence,
 * renormalised, as text-embedding-3 models do. Pure.
 */
import { prng } from './hash';

const UINT32_RANGE = 0x1_0000_0000;

/** A unit-length float32 vector of `dimensions` values derived from `seed`. */
export function embeddingVector(seed: number, dimensions: number): Float32Array {
  const next = prng(seed);
  const values = new Float64Array(dimensions);
  let sumSquares = 0;
  for (let i = 0; i < dimensions; i++) {
    const v = (next() / UINT32_RANGE) * 2 - 1;
    values[i] = v;
    sumSquares += v * v;
  }
  const scale = sumSquares > 0 ? 1 / Math.sqrt(sumSquares) : 0;
  const out = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) out[i] = (values[i] as number) * scale;
  return out;
}

/** Base64 of the vector as little-endian float32 bytes (OpenAI's `encoding_format: "base64"`). */
export function float32Base64(vector: Float32Array): string {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i] as number, true);
  let binary = '';
  const CHUNK = 8192;
  for (let i = 0; i < bytes.length; i += CHUNK)
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}
