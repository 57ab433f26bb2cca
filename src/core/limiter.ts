/**
 * The Limiter port: reserve the worst case before the upstream call, settle
 * the real usage after it. Filled by the per-tenant Durable Object
 * (limits/durable-limiter.ts); a key with no limits has nothing to reserve.
 */
import type { Principal } from './principal';
import type { ProxyRequest } from './request';
import type { Usage } from './usage';

/** How a relayed stream ended, for settling one that brought no (or partial) usage. */
export interface StreamEnd {
  readonly completed: boolean;
  /** Characters of content the client received (RelayOutcome.deliveredChars). */
  readonly deliveredChars: number;
}

export interface Reservation {
  /** Headers describing the caller's remaining allowance (`x-ratelimit-*`). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Output tokens reserved per choice for a request that set no max_tokens
   * (absent otherwise). Sending it upstream as max_tokens makes the output
   * reserve a true bound; without it a provider may write past it.
   */
  readonly outputCap?: number;
  /**
   * Record what the request really used. `usage` null and no `stream`: nothing
   * was delivered, the reservation is released. For a stream pass how it ended
   * (a RelayOutcome fits): one that was cut or brought no usage is charged the
   * prompt estimate plus the delivered characters / 4.
   */
  settle(usage: Usage | null, stream?: StreamEnd, model?: string): Promise<void>;
  /**
   * Work the reservation started that must outlive the request, such as closing
   * the lease it opened when its admission window ends (keep it alive with waitUntil).
   */
  readonly background?: Promise<void>;
}

/** Who and what a request is for, beyond its key: the scopes below the key it is counted in. */
export interface RequestScope {
  /** The tenant's end user (src/limits/end-user.ts): `param` is where it was read. */
  readonly endUser: { readonly id: string; readonly param: string } | null;
  /** The request's values of the tenant's tag keys. */
  readonly tags: Readonly<Record<string, string>> | null;
  /** True when the request was already sent to a downgrade route: no downgrade applies again. */
  readonly downgraded?: boolean;
  /**
   * Keeps work alive after the response (the exchange's waitUntil): the closing of a lease a refused
   * request opened, which a successful one hands back as its Reservation's `background`.
   */
  readonly keep?: (work: Promise<unknown>) => void;
}

export const NO_SCOPE: RequestScope = { endUser: null, tags: null };

/**
 * A scope's spend-triggered downgrade applies: nothing was reserved; the request should be sent to
 * `route` instead (src/pipeline/proxy.ts replans it and reserves again, downgraded).
 */
export class DowngradeRequired extends Error {
  override readonly name = 'DowngradeRequired';
  constructor(
    readonly route: string,
    /** `user:u_1:usd_day@90`: which scope, budget and percent sent it there (the response's header). */
    readonly reason: string,
  ) {
    super(`downgrade to route ${route} (${reason})`);
  }
}

export interface Limiter {
  /**
   * Reserves capacity for the request, or throws a 429 GatewayError naming the
   * limit hit, or DowngradeRequired. `models`: the `provider/model`s that may answer (a route's
   * targets); the reservation is priced at the dearest, and `settle` charges
   * the `model` that answered at its own price. Defaults to the request's model.
   */
  reserve(
    principal: Principal,
    request: ProxyRequest,
    models?: readonly string[],
    scope?: RequestScope,
  ): Promise<Reservation>;
}

export const NOTHING_RESERVED: Reservation = { headers: {}, settle: async () => {} };

/** For deployments and keys without limits: every request is within bounds. */
export const unlimited: Limiter = {
  reserve: async () => NOTHING_RESERVED,
};
