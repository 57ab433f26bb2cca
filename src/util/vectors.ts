/** Vector arithmetic shared by the embedders and the local index (pure). */

/** A float32 copy scaled to unit length (the zero vector stays zero). */
export function unitVector(values: ArrayLike<number>): Float32Array {
  let sumSquares = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    sumSquares += v * v;
  }
  const scale = sumSquares > 0 ? 1 / Math.sqrt(sumSquares) : 0;
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = (values[i] as number) * scale;
  return out;
}

/** Dot product; for unit vectors this is their cosine similarity. Lengths must match. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}
