/**
 * The semantic cache: maps "a conversation like this one" to the exact-cache
 * key whose stored answer it may reuse. Responses themselves live only in the
 * exact cache (KV); this index holds vectors and keys, nothing else.
 *
 * Scoping: every lookup is confined to one tenant and one scope hash; the
 * scope is the request's paramsHash combined with the embedder's id, so
 * vectors from another model (after a configuration change) are never
 * compared. The vector id hashes tenant, scope and text: remembering the same
 * conversation again replaces its row instead of adding one.
 *
 * Fails OPEN: an embedder or index failure is logged and treated as a miss
 * (find → null, remember → nothing stored). The semantic cache is an
 * optimisation; it must never fail a request the provider could answer.
 */
import type { Embedder } from '../storage/embedder';
import type { VectorIndex } from '../storage/vector-index';
import { sha256HexSync } from '../util/sha256-sync';
import { unitVector } from '../util/vectors';

export interface SemanticQuery {
  tenantId: string;
  paramsHash: string;
  text: string;
}

export interface SemanticCache {
  /** Best match at or above threshold, scoped to tenant and paramsHash; null when none. */
  find(query: SemanticQuery, threshold: number): Promise<{ cacheKey: string; score: number } | null>;
  /** Index this conversation as answered by the entry at cacheKey, for ttlSeconds. Called off the response path (waitUntil). */
  remember(query: SemanticQuery, cacheKey: string, ttlSeconds: number): Promise<void>;
}

/** Candidates fetched per lookup; the index returns them best first. */
const TOP_K = 3;

export class IndexedSemanticCache implements SemanticCache {
  constructor(
    private readonly embedder: Embedder,
    private readonly index: VectorIndex,
    private readonly now: () => number = Date.now,
  ) {}

  async find(query: SemanticQuery, threshold: number): Promise<{ cacheKey: string; score: number } | null> {
    try {
      const vector = await this.vectorOf(query.text);
      const matches = await this.index.query(vector, {
        topK: TOP_K,
        tenantId: query.tenantId,
        paramsHash: this.scope(query.paramsHash),
        now: this.now(),
      });
      let best: { cacheKey: string; score: number } | null = null;
      for (const m of matches) {
        const score = roundScore(m.score);
        if (score >= threshold && (!best || score > best.score)) best = { cacheKey: m.cacheKey, score };
      }
      return best;
    } catch (err) {
      console.warn('semantic cache lookup failed; treated as a miss:', describe(err));
      return null;
    }
  }

  async remember(query: SemanticQuery, cacheKey: string, ttlSeconds: number): Promise<void> {
    try {
      const vector = await this.vectorOf(query.text);
      const scope = this.scope(query.paramsHash);
      await this.index.upsert([
        {
          id: sha256HexSync(`${query.tenantId}\n${scope}\n${query.text}`),
          vector,
          tenantId: query.tenantId,
          paramsHash: scope,
          cacheKey,
          expiresAt: this.now() + ttlSeconds * 1000,
        },
      ]);
    } catch (err) {
      console.warn('semantic cache write failed; entry not indexed:', describe(err));
    }
  }

  /** 64 hex chars: exactly what Vectorize indexes of a string metadata value. */
  private scope(paramsHash: string): string {
    return sha256HexSync(`${this.embedder.id}\n${paramsHash}`);
  }

  private async vectorOf(text: string): Promise<Float32Array> {
    const [vector] = await this.embedder.embed([text]);
    if (!vector || vector.length === 0) throw new Error(`embedder ${this.embedder.id} returned no vector`);
    return unitVector(vector);
  }
}

/** Six decimals, at most 1: float32 rounding must not make identical texts miss a threshold of 1. */
function roundScore(score: number): number {
  return Math.min(1, Math.round(score * 1e6) / 1e6);
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
