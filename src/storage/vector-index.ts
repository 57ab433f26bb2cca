/**
 * VectorIndex port: nearest stored conversations for a vector, scoped to one
 * tenant and one params hash. Vectorize in production; locally one SQLite
 * Durable Object per tenant. Implementations must never return a row of
 * another tenant or params hash, nor one past its expiry.
 */
export interface VectorQuery {
  readonly topK: number;
  readonly tenantId: string;
  readonly paramsHash: string;
  /** Epoch ms; rows with expiresAt <= now are ignored. */
  readonly now: number;
}

export interface VectorMatch {
  readonly id: string;
  /** Cosine similarity, 1 for identical directions. */
  readonly score: number;
  /** The exact-cache key of the answer this conversation was given. */
  readonly cacheKey: string;
}

export interface VectorItem {
  /** At most 64 bytes (Vectorize's limit). */
  readonly id: string;
  /** Unit length (callers normalise), so a dot product is the cosine. */
  readonly vector: Float32Array;
  readonly tenantId: string;
  readonly paramsHash: string;
  readonly cacheKey: string;
  /** Epoch ms. */
  readonly expiresAt: number;
}

export interface VectorIndex {
  /** Best matches first. */
  query(vector: Float32Array, query: VectorQuery): Promise<VectorMatch[]>;
  /** Inserts or replaces by id. */
  upsert(items: readonly VectorItem[]): Promise<void>;
}
