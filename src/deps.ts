/**
 * The one place that turns bindings into adapters, choosing local fallbacks
 * where a binding is absent. Built once per isolate and env; never throws:
 * configuration mistakes are collected in `problems` (the adapters fall back
 * to defaults), for /v1 to refuse with a 503 and /healthz to report.
 */
import { ExactCache } from './cache/exact-cache';
import { ResponseCache } from './cache/response-cache';
import { createSemanticCache } from './cache/semantic-deps';
import { ThrottleGate } from './admin/access/throttle-gate';
import { readConfig, type Config, type ConfigProblem } from './config';
import type { Bindings } from './env';
import { limiterObjects } from './durable/limiter';
import { throttleObjects } from './durable/throttle';
import { breakerObjects } from './durable/breaker';
import { type BreakerBoard, createBreakerBoard } from './routing/breaker-board';
import { durableLimiter } from './limits/durable-limiter';
import { type LimitsConfig, readLimitsConfig } from './limits/config';
import { priceBook, type PriceBook } from './limits/price-overrides';
import type { Limiter } from './core/limiter';
import type { LogSink } from './core/log-event';
import { indexDaysOf } from './logs/retention';
import { chooseSink } from './logs/produce/sink';
import { buildRegistry, type ProviderRegistry } from './providers/registry';
import { d1KeyLoader } from './storage/d1-keys';
import { D1KeyAdminStore, type KeyAdminStore } from './storage/key-admin-store';
import { TieredKeyStore, type KeyStore } from './storage/key-store';
import { d1RouteLoader } from './storage/route-admin-store';
import { TieredRouteStore, type RouteStore } from './storage/route-store';
import { D1SessionRevocations, type SessionRevocations } from './storage/revoked-sessions';
import { D1TenantStore, type TenantStore } from './storage/tenant-store';
import type { SemanticCache } from './cache/semantic';
import type { SecondOpinion } from './guardrails/second-opinion/port';
import { workersAiSecondOpinion } from './guardrails/second-opinion/workers-ai';

export interface Deps {
  readonly config: Config;
  readonly providers: ProviderRegistry;
  readonly keys: KeyStore;
  /** Named routes by tenant and name (isolate → KV → D1), for /v1; admin writes invalidate it. */
  readonly routes: RouteStore;
  readonly limiter: Limiter;
  /** The limits' settings (the default output cap is also what a format requiring one is sent). */
  readonly limitsConfig: LimitsConfig;
  readonly logs: LogSink;
  /** Admin repositories (D1); never used on the /v1 hot path. */
  readonly tenants: TenantStore;
  readonly apiKeys: KeyAdminStore;
  readonly cache: ResponseCache;
  /** Admin price overrides (isolate → KV), shared by the limiter and the log's cost. */
  readonly prices: PriceBook;
  /** Wrong admin tokens per client (admin API and dashboard sign-in). */
  readonly throttle: ThrottleGate;
  /** Circuit breakers and health per target (isolate view; one Breaker object per target, shared). */
  readonly breakers: BreakerBoard;
  /** Dashboard sessions ended by sign-out. */
  readonly sessions: SessionRevocations;
  /** The guardrails' second opinion (Llama Guard on the AI binding); null without the binding. */
  readonly secondOpinion: SecondOpinion | null;
  /** What is wrong with the configuration; empty when it is sound. */
  readonly problems: readonly ConfigProblem[];
}

const built = new WeakMap<object, Deps>();

export function getDeps(env: Bindings): Deps {
  let deps = built.get(env);
  if (!deps) {
    const problems: ConfigProblem[] = [];
    const providers = buildRegistry(env, problems);
    const prices = priceBook(env.KV_KEYS);
    const limitsConfig = readLimitsConfig(env, problems);
    const config = readConfig(env, problems);
    deps = {
      config,
      providers,
      keys: new TieredKeyStore(env.KV_KEYS, d1KeyLoader(env.DB)),
      routes: new TieredRouteStore(env.KV_KEYS, d1RouteLoader(env.DB)),
      limiter: durableLimiter({
        objectFor: limiterObjects(env.LIMITER),
        prices,
        config: limitsConfig,
      }),
      limitsConfig,
      logs: chooseSink(env.LOG_SINK, env.LOG_QUEUE, {
        db: env.DB,
        archive: env.LOG_ARCHIVE ?? null,
        index: indexDaysOf(env.LOG_INDEX_DAYS) > 0,
        waitMs: config.logBatchWaitMs,
      }),
      tenants: new D1TenantStore(env.DB),
      apiKeys: new D1KeyAdminStore(env.DB),
      cache: new ResponseCache(new ExactCache(env.KV_CACHE), semanticCache(env, providers, problems)),
      prices,
      throttle: new ThrottleGate(throttleObjects(env.THROTTLE)),
      breakers: createBreakerBoard(breakerObjects(env.BREAKER)),
      sessions: new D1SessionRevocations(env.DB),
      secondOpinion: env.AI ? workersAiSecondOpinion(env.AI) : null,
      problems,
    };
    built.set(env, deps);
  }
  return deps;
}

/** A SEMANTIC_EMBEDDER that cannot be honoured is recorded, and the local embedder stands in. */
function semanticCache(env: Bindings, providers: ProviderRegistry, problems: ConfigProblem[]): SemanticCache {
  try {
    return createSemanticCache(env, providers);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    problems.push({ variable: 'SEMANTIC_EMBEDDER', message });
    return createSemanticCache({ ...env, SEMANTIC_EMBEDDER: 'local' }, providers);
  }
}
