/**
 * The local vector index's protocol: what the VectorIndex adapter
 * (src/storage/durable-vector-index.ts) and the VectorIndexDO object
 * (src/durable/vector-index.ts) say to each other. Both import this module,
 * never each other.
 */

export const MAX_ROWS_PER_SCOPE = 1000;
export const MAX_ROWS_PER_TENANT = 20_000;
export const MAX_UPSERT_BATCH = 100;
export const MAX_TOP_K = 100;

export interface StoredVector {
  readonly id: string;
  /** Unit length; the caller normalises. */
  readonly vector: Float32Array;
  readonly paramsHash: string;
  readonly cacheKey: string;
  readonly expiresAt: number;
}

export interface IndexMatch {
  readonly id: string;
  readonly score: number;
  readonly cacheKey: string;
}

/**
 * The object's calls, as the adapter uses them: the object implements them (answering at once where it
 * can) and a DurableObjectStub of it has them (always a promise).
 */
export interface VectorIndexRpc {
  /** The topK best live rows of one params hash, best first. */
  query(
    vector: Float32Array,
    paramsHash: string,
    topK: number,
    now: number,
  ): IndexMatch[] | Promise<IndexMatch[]>;
  /** At most MAX_UPSERT_BATCH rows per call. */
  upsert(items: readonly StoredVector[]): Promise<{ evicted: number }>;
}

/** The namespace of per-tenant objects, as the adapter uses it. */
export interface VectorIndexObjects {
  idFromName(name: string): DurableObjectId;
  get(id: DurableObjectId): VectorIndexRpc;
}
