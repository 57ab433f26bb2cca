/**
 * Stage 4, cache: plan (key and directives), look up (exact, then a coalesced
 * in-flight twin, then semantic), answer hits in the client's format, and keep
 * complete 2xx answers. Keeping is registered on the exchange when the lookup
 * misses (with the lease that makes identical requests in this isolate wait
 * for this one), so at the exit the lease is released exactly once and the
 * answer, if whole, is stored off the response path. A waiter gives up after
 * INFLIGHT_WAIT_MS (src/cache/exact-cache.ts) and calls upstream itself. Exact keys and semantic
 * lookups are scoped by tenant, so one tenant can never read another's entries.
 */
import type { CachedEntry } from '../cache/entry';
import type { ResponseCache } from '../cache/response-cache';
import type { SemanticQuery } from '../cache/semantic';
import { semanticEligibility, semanticThreshold } from '../cache/semantic-request';
import { cacheDirectives, type CacheDirectives } from '../cache/directives';
import { exactCacheKey } from '../cache/key';
import { replaySse } from '../cache/replay';
import type { Answer, Ending, Exchange } from '../core/exchange';
import type { Principal } from '../core/principal';
import type { ProxyRequest } from '../core/request';
import { NO_USAGE } from '../core/usage';

export interface CachePlan {
  /** Null when neither lookup nor store applies. */
  readonly key: string | null;
  readonly directives: CacheDirectives;
  /** Set when the key enables the semantic cache and the request is eligible. */
  readonly semantic: { readonly query: SemanticQuery; readonly threshold: number } | null;
}

export type CacheLookup =
  | { readonly status: 'HIT' | 'SEMANTIC'; readonly entry: CachedEntry; readonly score: number | null }
  | {
      readonly status: 'MISS' | 'BYPASS';
      readonly entry: null;
      /**
       * Gives up this lookup's claim: identical requests waiting on it go on their own and its answer is
       * not stored under its key (the request was downgraded to another route, src/pipeline/proxy.ts).
       */
      readonly abandon?: () => void;
    };

/** The cache's "provider" for a named route: its answers are keyed on the route's name (the request's model). */
export const ROUTE_CACHE_SCOPE = 'route';

/** `scope`: the provider id for a `provider/model`, ROUTE_CACHE_SCOPE for a named route. */
export async function planCache(
  principal: Principal,
  request: ProxyRequest,
  scope: string,
  headers: Headers,
): Promise<CachePlan> {
  const directives = cacheDirectives(headers, principal.cache);
  if (!directives.lookup && !directives.store) return { key: null, directives, semantic: null };
  const key = await exactCacheKey({
    tenantId: principal.tenantId,
    provider: scope,
    endpoint: request.endpoint,
    model: request.model,
    body: request.body,
    namespace: directives.namespace,
  });
  return { key, directives, semantic: semanticPlan(principal, request, directives) };
}

function semanticPlan(
  principal: Principal,
  request: ProxyRequest,
  directives: CacheDirectives,
): CachePlan['semantic'] {
  if (!directives.semantic) return null;
  const eligibility = semanticEligibility(request, principal.cache);
  if (!eligibility.eligible) return null;
  // The namespace separates semantic matches exactly as it separates exact keys.
  const paramsHash =
    directives.namespace === null
      ? eligibility.paramsHash
      : `${eligibility.paramsHash}:${directives.namespace}`;
  return {
    query: { tenantId: principal.tenantId, paramsHash, text: eligibility.text },
    threshold: semanticThreshold(principal.cache),
  };
}

/** Looks the request up; on a miss, registers on the exchange what the exit does with the answer. */
export async function lookupCache(
  x: Exchange,
  cache: ResponseCache,
  plan: CachePlan,
  request: ProxyRequest,
): Promise<CacheLookup> {
  if (!plan.key) return BYPASS;
  if (!plan.directives.lookup) {
    const abandon = keepAnswer(x, cache, plan, request, null);
    return abandon ? { ...BYPASS, abandon } : BYPASS;
  }
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
  const abandon = plan.directives.store
    ? keepAnswer(x, cache, plan, request, cache.exact.lead(plan.key))
    : null;
  return abandon ? { ...MISS, abandon } : MISS;
}

const BYPASS = { status: 'BYPASS', entry: null } as const;
const MISS = { status: 'MISS', entry: null } as const;

/**
 * At the exit: hand the answer (or null) to identical requests waiting on this one, and store it if
 * whole. Returns what abandons that (null when nothing is kept).
 */
function keepAnswer(
  x: Exchange,
  cache: ResponseCache,
  plan: CachePlan,
  request: ProxyRequest,
  lease: ((entry: CachedEntry | null) => void) | null,
): (() => void) | null {
  if (!plan.directives.store) return null;
  let abandoned = false;
  x.defer((ending) => {
    if (abandoned) return undefined;
    const entry = entryOf(ending, request);
    lease?.(entry);
    return entry ? storeCache(cache, plan, entry) : undefined;
  });
  return () => {
    if (abandoned) return;
    abandoned = true;
    lease?.(null);
  };
}

/** A complete 2xx answer as a cache entry; null for anything else. */
function entryOf(ending: Ending, request: ProxyRequest): CachedEntry | null {
  const whole = ending.answer?.whole;
  if (!whole || ending.status < 200 || ending.status > 299) return null;
  const usage = ending.answer?.usage ?? NO_USAGE;
  return {
    v: 1,
    format: whole.format,
    endpoint: request.endpoint,
    body: whole.body,
    usage,
    storedAt: Date.now(),
  };
}

/** A hit as the exchange's answer: the entry's usage is logged, no tokens are spent, nothing new is stored. */
export function hitAnswer(entry: CachedEntry, captureText: boolean): Answer {
  return {
    usage: entry.usage,
    delivery: null,
    whole: null,
    lateError: null,
    text: captureText ? JSON.stringify(entry.body) : null,
  };
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

async function storeCache(cache: ResponseCache, plan: CachePlan, entry: CachedEntry): Promise<void> {
  if (!plan.key || !plan.directives.store) return;
  await cache.exact.put(plan.key, entry, plan.directives.ttlSeconds);
  if (plan.semantic) await cache.semantic.remember(plan.semantic.query, plan.key, plan.directives.ttlSeconds);
}
