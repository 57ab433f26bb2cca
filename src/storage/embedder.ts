/**
 * Embedder port: text → vectors. Production uses Workers AI; locally a
 * hashing embedder that needs no network, or any OpenAI-compatible
 * embeddings route. Vectors from different embedders live in different
 * spaces, so `id` names the model (and its settings) and the semantic cache
 * never compares vectors across ids.
 */
export interface Embedder {
  /** Stable name of the model and its settings, e.g. `local-hash-v1:512`. */
  readonly id: string;
  /** Length of every vector it returns; 0 when only the first answer tells. */
  readonly dimensions: number;
  /** One vector per text, in order. Throws on failure (callers decide to fail open). */
  embed(texts: string[]): Promise<Float32Array[] | number[][]>;
}
