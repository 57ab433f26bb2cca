/**
 * The one place that turns bindings into adapters (the ports of src/ports.ts), choosing local fallbacks
 * where a binding is absent. Built once per isolate and env; never throws:
 * configuration mistakes are collected in `problems` (the adapters fall back
 * to defaults), for /v1 to refuse with a 503 and /healthz to report.
 */
import { ExactCache } from './cache/exact-cache';
import { ResponseCache } from './cache/response-cache';
import { createSemanticCache } from './cache/semantic-deps';
import { ThrottleGate } from './admin/access/throttle-gate';
import { readConfig, type ConfigProblem } from './config';
import type { Bindings } from './env';
import type { Deps } from './ports';
import { limiterObjects } from './durable/limiter';
import { throttleObjects } from './durable/throttle';
import { breakerObjects } from './durable/breaker';
import { createBreakerBoard } from './routing/breaker-board';
import { durableLimiter } from './limits/durable-limiter';
import { readLimitsConfig } from './limits/config';
import { priceBook } from './limits/price-overrides';
import { indexDaysOf } from './logs/retention';
import { chooseSink } from './logs/produce/sink';
import { buildRegistry, type ProviderRegistry } from './providers/registry';
import { d1KeyLoader } from './storage/d1-keys';
import { D1KeyAdminStore } from './storage/key-admin-store';
import { TieredKeyStore } from './storage/key-store';
import { d1RouteLoader } from './storage/route-admin-store';
import { TieredRouteStore } from './storage/route-store';
import { D1SessionRevocations } from './storage/revoked-sessions';
import { D1TenantStore } from './storage/tenant-store';
import { StoredResponses } from './storage/response-store';
import type { SemanticCache } from './cache/semantic';
import { workersAiSecondOpinion } from './guardrails/second-opinion/workers-ai';

const built = new WeakMap<object, Deps>();

export function getDeps(env: Bindings): Deps {
  let deps = built.get(env);
  if (!deps) {
    const problems: ConfigProblem[] = [];
    const providers = buildRegistry(env, problems);
    const prices = priceBook(env.KV_KEYS);
    const limitsConfig = readLimitsConfig(env, problems);
    const config = readConfig(env, problems);
    const limiter = durableLimiter({ objectFor: limiterObjects(env.LIMITER), prices, config: limitsConfig });
    deps = {
      config,
      providers,
      keys: new TieredKeyStore(env.KV_KEYS, d1KeyLoader(env.DB)),
      routes: new TieredRouteStore(env.KV_KEYS, d1RouteLoader(env.DB)),
      limiterReads: limiterObjects(env.LIMITER),
      limiter,
      counter: limiter,
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
      // Without the RESPONSES bucket the records themselves go in D1 (src/storage/response-store.ts).
      responses: new StoredResponses(env.DB, env.RESPONSES ?? null),
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
