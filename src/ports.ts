/**
 * The adapters every request may use, as ports: what the stages, the admin
 * API and the dashboard may call, declared by interface only. src/deps.ts is
 * the one place that fills this record from the bindings; nothing here (nor in
 * what it imports) reaches an adapter's construction, so a stage that takes
 * Deps imports no Durable Object, queue or binding code through it.
 */
import type { ResponseCache } from './cache/response-cache';
import type { Config, ConfigProblem } from './config';
import type { Limiter } from './core/limiter';
import type { LogSink } from './core/log-event';
import type { Bindings } from './env';
import type { SecondOpinion } from './guardrails/second-opinion/port';
import type { LimitsConfig } from './limits/config';
import type { CountingLimiter } from './limits/durable-limiter';
import type { LimiterReads } from './limits/protocol';
import type { PriceBook } from './limits/price-overrides';
import type { ProviderRegistry } from './providers/registry';
import type { BreakerBoard } from './routing/breaker-board';
import type { KeyAdminStore } from './storage/key-admin-store';
import type { KeyStore } from './storage/key-store';
import type { SessionRevocations } from './storage/revoked-sessions';
import type { ResponseStore } from './storage/response-store';
import type { RouteStore } from './storage/route-store';
import type { TenantStore } from './storage/tenant-store';

/**
 * Wrong admin tokens per client, counted across isolates (src/admin/access/throttle-gate.ts).
 * `judge` answers who the token belongs to (null: nobody); the answer is that, 'wrong', or the
 * seconds the client must wait.
 */
export interface TokenThrottle {
  verify<T>(headers: Headers, judge: () => Promise<T | null>): Promise<T | 'wrong' | number>;
}

export interface Deps {
  readonly config: Config;
  readonly providers: ProviderRegistry;
  readonly keys: KeyStore;
  /** Named routes by tenant and name (isolate → KV → D1), for /v1; admin writes invalidate it. */
  readonly routes: RouteStore;
  readonly limiter: Limiter;
  /** Counted-only requests (tool calls on /mcp) in the same Limiter objects, with the same leases. */
  readonly counter: CountingLimiter;
  /** A tenant's Limiter object, for the admin API's reads of its counters and alerts (never on /v1). */
  readonly limiterReads: (tenantId: string) => LimiterReads;
  /** The limits' settings (the default output cap is also what a format requiring one is sent). */
  readonly limitsConfig: LimitsConfig;
  readonly logs: LogSink;
  /** Admin repositories (D1); never used on the /v1 hot path. */
  readonly tenants: TenantStore;
  readonly apiKeys: KeyAdminStore;
  readonly cache: ResponseCache;
  /** Stored responses of POST /v1/responses, per tenant (R2 with its D1 index, or D1 alone). */
  readonly responses: ResponseStore;
  /** Admin price overrides (isolate → KV), shared by the limiter and the log's cost. */
  readonly prices: PriceBook;
  /** Wrong admin tokens per client (admin API and dashboard sign-in). */
  readonly throttle: TokenThrottle;
  /** Circuit breakers and health per target (isolate view; one Breaker object per target, shared). */
  readonly breakers: BreakerBoard;
  /** Dashboard sessions ended by sign-out. */
  readonly sessions: SessionRevocations;
  /** The guardrails' second opinion (Llama Guard on the AI binding); null without the binding. */
  readonly secondOpinion: SecondOpinion | null;
  /** What is wrong with the configuration; empty when it is sound. */
  readonly problems: readonly ConfigProblem[];
}

/** The adapters for an env (src/deps.ts's getDeps; tests pass their own around it). */
export type DepsFor = (env: Bindings) => Deps;
