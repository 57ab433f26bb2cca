/**
 * The one place that turns bindings into adapters, choosing local fallbacks
 * where a binding is absent. Built once per isolate and env.
 */
import { ExactCache } from './cache/exact-cache';
import { ResponseCache } from './cache/response-cache';
import { createSemanticCache } from './cache/semantic-deps';
import { readConfig, type Config } from './config';
import type { Bindings } from './env';
import { limiterObjects } from './durable/limiter';
import { durableLimiter } from './limits/durable-limiter';
import { readLimitsConfig } from './limits/config';
import { priceBook, type PriceBook } from './limits/price-overrides';
import type { Limiter } from './core/limiter';
import type { LogSink } from './core/log-event';
import { chooseSink } from './logs/sink';
import { buildRegistry, type ProviderRegistry } from './providers/registry';
import { d1KeyLoader } from './storage/d1-keys';
import { D1KeyAdminStore, type KeyAdminStore } from './storage/key-admin-store';
import { TieredKeyStore, type KeyStore } from './storage/key-store';
import { D1TenantStore, type TenantStore } from './storage/tenant-store';

export interface Deps {
  readonly config: Config;
  readonly providers: ProviderRegistry;
  readonly keys: KeyStore;
  readonly limiter: Limiter;
  readonly logs: LogSink;
  /** Admin repositories (D1); never used on the /v1 hot path. */
  readonly tenants: TenantStore;
  readonly apiKeys: KeyAdminStore;
  readonly cache: ResponseCache;
  /** Admin price overrides (isolate → KV), shared by the limiter and the log's cost. */
  readonly prices: PriceBook;
}

const built = new WeakMap<object, Deps>();

export function getDeps(env: Bindings): Deps {
  let deps = built.get(env);
  if (!deps) {
    const providers = buildRegistry(env);
    const prices = priceBook(env.KV_KEYS);
    deps = {
      config: readConfig(env),
      providers,
      keys: new TieredKeyStore(env.KV_KEYS, d1KeyLoader(env.DB)),
      limiter: durableLimiter({
        objectFor: limiterObjects(env.LIMITER),
        prices,
        config: readLimitsConfig(env),
      }),
      logs: chooseSink(env.LOG_SINK, env.LOG_QUEUE),
      tenants: new D1TenantStore(env.DB),
      apiKeys: new D1KeyAdminStore(env.DB),
      cache: new ResponseCache(new ExactCache(env.KV_CACHE), createSemanticCache(env, providers)),
      prices,
    };
    built.set(env, deps);
  }
  return deps;
}
