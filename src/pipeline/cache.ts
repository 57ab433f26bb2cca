/**
 * Stage 4, cache: plan (key and directives), look up (exact, then a coalesced
 * in-flight twin, then semantic), answer hits in the client's format, and store
 * complete 2xx answers off the response path. Exact keys and semantic lookups
 * are scoped by tenant, so one tenant can never read another's entries.
 */
import type { ProxyRequest } from '../api/request';
import type { CachedEntry } from '../cache/entry';
import type { ResponseCache } from '../cache/response-cache';
import type { SemanticQuery } from '../cache/semantic';
import { semanticEligibility, semanticThreshold } from '../cache/semantic-request';
import { cacheDirectives, type CacheDirectives } from '../cache/directives';
import { exactCacheKey } from '../cache/key';
import { replaySse } from '../cache/replay';
import type { Usage } from '../sse/observer';
import type { Principal } from './auth';
import type { Route } from './route';

export type CacheStatus = 'HIT' | 'SEMANTIC' | 'MISS' | 'BYPASS';

export interface CachePlan {
  /** Null when neither lookup nor store applies. */
  readonly key: string | null;
  readonly directives: CacheDirectives;
  /** Set when the key enables the semantic cache and the request is eligible. */
  readonly semantic: { readonly query: SemanticQuery; readonly threshold: number } | null;
}

export type CacheLookup =
  | { readonly status: 'HIT' | 'SEMANTIC'; readonly entry: CachedEntry; readonly score: number | null }
  | { readonly status: 'MISS' | 'BYPASS'; readonly entry: null; readonly release: (entry: CachedEntry | null) => void };

export const NO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
const noop = () => {};

export async function planCache(principal: Principal, request: ProxyRequest, route: Route, headers: Headers): Promise<CachePlan> {
  const directives = cacheDirectives(headers, principal.cache);
  if (!directives.lookup && !directives.store) return { key: null, directives, semantic: null };
  const key = await exactCacheKey({
    tenantId: principal.tenantId,
    provider: route.providerId,
    endpoint: request.endpoint,
    model: request.model,
    body: request.body,
    namespace: directives.namespace,
  });
  return { key, directives, semantic: semanticPlan(principal, request, directives) };
}

function semanticPlan(principal: Principal, request: ProxyRequest, directives: CacheDirectives): CachePlan['semantic'] {
  if (!directives.semantic) return null;
  const eligibility = semanticEligibility(request, principal.cache);
  if (!eligibility.eligible) return null;
  // The namespace separates semantic matches exactly as it separates exact keys.
  const paramsHash = directives.namespace === null ? eligibility.paramsHash : `${eligibility.paramsHash}:${directives.namespace}`;
  return { query: { tenantId: principal.tenantId, paramsHash, text: eligibility.text }, threshold: semanticThreshold(principal.cache) };
}

export async function lookupCache(cache: ResponseCache, plan: CachePlan): Promise<CacheLookup> {
  if (!plan.key) return { status: 'BYPASS', entry: null, release: noop };
  if (!plan.directives.lookup) return { status: 'BYPASS', entry: null, release: noop };
  const stored = await cache.exact.get(plan.key);
  if (stored) return { status: 'HIT', entry: stored, score: null };
  const twin = cache.exact.joinInflight(plan.key);
  if (twin) {
    const entry = await twin;
    if (entry) return { status: 'HIT', entry, score: null };
  }
  if (plan.semantic) {
    const match = await cache.semantic.find(plan.semantic.query, plan.semantic.threshold);
    const entry = match ? await cache.exact.get(match.cacheKey) : null;
    if (match && entry) return { status: 'SEMANTIC', entry, score: match.score };
  }
  return { status: 'MISS', entry: null, release: plan.directives.store ? cache.exact.lead(plan.key) : noop };
}

/** The cached answer in the shape the client asked for now (JSON, or SSE if it streams). */
export function cachedResponse(entry: CachedEntry, request: ProxyRequest, headers: Headers): Response {
  if (request.stream) {
    headers.set('content-type', 'text/event-stream; charset=utf-8');
    headers.set('cache-control', 'no-cache');
    return new Response(replaySse(entry, request.clientWantsUsage), { status: 200, headers });
  }
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(entry.body), { status: 200, headers });
}

export function cacheEntry(request: ProxyRequest, format: 'openai' | 'anthropic', body: unknown, usage: Usage | null, now: number): CachedEntry | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  return { v: 1, format, endpoint: request.endpoint, body: body as Record<string, unknown>, usage: usage ?? NO_USAGE, storedAt: now };
}

export async function storeCache(cache: ResponseCache, plan: CachePlan, entry: CachedEntry): Promise<void> {
  if (!plan.key || !plan.directives.store) return;
  await cache.exact.put(plan.key, entry, plan.directives.ttlSeconds);
  if (plan.semantic) await cache.semantic.remember(plan.semantic.query, plan.key, plan.directives.ttlSeconds);
}
