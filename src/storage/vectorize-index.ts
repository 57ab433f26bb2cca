/**
 * VectorIndex on Vectorize (binding `VECTORIZE`). Tenant isolation is the
 * namespace (one per tenant; a query only ever searches its own), and the
 * params hash and expiry are metadata filters, so other settings and stale
 * rows never take a topK place. Every match is re-checked against its
 * metadata before use (defence in depth; metadata is returned with `all`).
 *
 * The index must be created with the embedder's dimensions and the cosine
 * metric, and with two metadata indexes BEFORE the first insert:
 *   wrangler vectorize create-metadata-index <index> --property-name=params_hash --type=string
 *   wrangler vectorize create-metadata-index <index> --property-name=expires_at --type=number
 * Limits honoured (developers.cloudflare.com/vectorize/platform/limits):
 * topK ≤ 20 with `returnMetadata: 'all'`, ids and namespaces ≤ 64 bytes,
 * indexed strings compared on their first 64 bytes (params hashes are 64 hex
 * chars), upserts ≤ 1000 vectors. Vectorize never expires rows by itself:
 * expired ones are filtered out and overwritten when the same conversation
 * is remembered again. Writes become visible after a few seconds.
 * Tested against test/gateway/fakes/vectorize.ts.
 */
import * as z from 'zod';
import { sha256HexSync } from '../util/sha256-sync';
import type { VectorIndex } from './vector-index';

export const VECTORIZE_MAX_TOP_K_WITH_METADATA = 20;
export const VECTORIZE_MAX_UPSERT = 1000;
const MAX_NAMESPACE_BYTES = 64;

/** The slice of the Vectorize binding this adapter uses (both index versions fit). */
export interface VectorizeLike {
  query(vector: Float32Array | number[], options?: VectorizeQueryOptions): Promise<VectorizeMatches>;
  upsert(vectors: VectorizeVector[]): Promise<unknown>;
}

const Metadata = z.object({
  tenant: z.string(),
  params_hash: z.string(),
  cache_key: z.string(),
  expires_at: z.number(),
});

const encoder = new TextEncoder();

/** The tenant id, or a hash of it when it would not fit Vectorize's namespace limit. */
export function tenantNamespace(tenantId: string): string {
  return encoder.encode(tenantId).byteLength <= MAX_NAMESPACE_BYTES
    ? tenantId
    : `h:${sha256HexSync(tenantId).slice(0, 62)}`;
}

export function vectorizeIndex(index: VectorizeLike): VectorIndex {
  return {
    async query(vector, { topK, tenantId, paramsHash, now }) {
      const result = await index.query(vector, {
        topK: Math.max(1, Math.min(topK, VECTORIZE_MAX_TOP_K_WITH_METADATA)),
        namespace: tenantNamespace(tenantId),
        filter: { params_hash: { $eq: paramsHash }, expires_at: { $gt: now } },
        returnMetadata: 'all',
      });
      const matches = [];
      for (const match of result.matches) {
        const meta = Metadata.safeParse(match.metadata);
        if (!meta.success) continue;
        const m = meta.data;
        if (m.tenant !== tenantId || m.params_hash !== paramsHash || m.expires_at <= now) continue;
        matches.push({ id: match.id, score: match.score, cacheKey: m.cache_key });
      }
      return matches.sort((a, b) => b.score - a.score);
    },
    async upsert(items) {
      const vectors: VectorizeVector[] = items.map((item) => ({
        id: item.id,
        values: item.vector,
        namespace: tenantNamespace(item.tenantId),
        metadata: {
          tenant: item.tenantId,
          params_hash: item.paramsHash,
          cache_key: item.cacheKey,
          expires_at: item.expiresAt,
        },
      }));
      for (let i = 0; i < vectors.length; i += VECTORIZE_MAX_UPSERT)
        await index.upsert(vectors.slice(i, i + VECTORIZE_MAX_UPSERT));
    },
  };
}
