/**
 * VectorIndex over the local Durable Object index: one object per tenant, so
 * tenant isolation holds by construction (a query cannot even name another
 * tenant's rows). Calls are typed RPC, as src/storage/vector-index-protocol.ts states them.
 */
import type { VectorIndex, VectorItem } from './vector-index';
import { MAX_UPSERT_BATCH, type VectorIndexObjects } from './vector-index-protocol';

export function durableVectorIndex(namespace: VectorIndexObjects): VectorIndex {
  const stubOf = (tenantId: string) => namespace.get(namespace.idFromName(tenantId));
  return {
    async query(vector, { topK, tenantId, paramsHash, now }) {
      return stubOf(tenantId).query(vector, paramsHash, topK, now);
    },
    async upsert(items) {
      const byTenant = new Map<string, VectorItem[]>();
      for (const item of items) byTenant.set(item.tenantId, [...(byTenant.get(item.tenantId) ?? []), item]);
      for (const [tenantId, rows] of byTenant) {
        const stub = stubOf(tenantId);
        for (let i = 0; i < rows.length; i += MAX_UPSERT_BATCH) {
          await stub.upsert(
            rows.slice(i, i + MAX_UPSERT_BATCH).map(({ id, vector, paramsHash, cacheKey, expiresAt }) => ({
              id,
              vector,
              paramsHash,
              cacheKey,
              expiresAt,
            })),
          );
        }
      }
    },
  };
}
