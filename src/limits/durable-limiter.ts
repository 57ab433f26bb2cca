/**
 * The Limiter port (src/core/limiter.ts) filled by Limiter Durable Objects: the tenant's (its key,
 * tenant, model-rule and tag scopes) and, for a request with an end user, that user's shard
 * (src/limits/shards.ts), asked in parallel. Per request:
 * - a principal with nothing limited (src/limits/scopes.ts) returns at once: no round trip at all;
 * - a busy key (or end user) is admitted from a lease this isolate holds (src/limits/lease*.ts):
 *   no round trip, one settle per lease when it closes;
 * - otherwise one round trip to each object concerned before the upstream call (`reserve`; it may
 *   open a lease), and one after it (`settle`, off the response path). A refusal by one object
 *   gives back what the other held, uncounted.
 * A failed or slow (> timeoutMs) reserve follows config.failMode (see config.ts); a failed settle is
 * logged and left to the reservation's expiry. What a request may cost and is charged is
 * src/limits/worst-case.ts (a worst case too large to hold exactly is a 400 before any round trip).
 */
import { GatewayError } from '../core/errors';
import type { Principal } from '../core/principal';
import {
  DowngradeRequired,
  NO_SCOPE,
  NOTHING_RESERVED,
  type Limiter,
  type RequestScope,
  type Reservation,
  type StreamEnd,
} from '../core/limiter';
import type { Usage } from '../core/usage';
import type { LimitsConfig } from './config';
import { denialError } from './denial';
import { quotaHeaders } from './headers';
import type { PriceBook } from './price-overrides';
import type { Charge, LimiterRpc, Quota, ReserveInput, ReserveResult, ScopeSpec } from './protocol';
import { tighterQuota } from './check';
import { mayBeLimited, planScopes, type ScopePlan } from './scopes';
import { shardOf, userShardName } from './shards';
import { remember } from './snapshots';
import { Lease } from './lease';
import { LeaseBook } from './lease-book';
import { NOTHING } from './ledger';
import { type Priced, pricedRequest } from './worst-case';
import { within } from '../util/within';

export interface DurableLimiterOptions {
  readonly objectFor: (tenantId: string) => LimiterRpc;
  readonly prices: PriceBook;
  readonly config: LimitsConfig;
  readonly now?: () => number;
}

/**
 * Requests that are counted but cost nothing (tool calls, src/mcp/limits.ts), in scopes of their own, with
 * the same leases, exactness and fail mode as the model path. `slot` names the lease slot of the tenant
 * object's part (apart from the model path's); the user part's slot is its scope's id.
 */
export interface CountingLimiter {
  reserveCount(
    principal: Principal,
    plan: ScopePlan,
    slot: string,
    scope?: RequestScope,
  ): Promise<Reservation>;
}

export function durableLimiter(options: DurableLimiterOptions): Limiter & CountingLimiter {
  const { objectFor, prices, config } = options;
  const now = options.now ?? Date.now;
  const book = config.leases ? new LeaseBook(config.leaseMs) : null;

  /** One reserve round trip, with the timeout and LIMITS_FAIL_MODE applied; null: through unmetered. */
  async function ask(object: LimiterRpc, input: ReserveInput): Promise<ReserveResult | null> {
    try {
      return await within(config.timeoutMs, object.reserve(input));
    } catch (err) {
      // The fail-open / fail-closed choice, made here (LIMITS_FAIL_MODE, default closed).
      console.error(
        'limiter reserve failed',
        config.failMode,
        err instanceof Error ? err.message : String(err),
      );
      if (config.failMode === 'open') return null;
      throw new GatewayError(
        503,
        'Rate limits and budgets could not be checked, so the request was not sent. Retry shortly.',
        { code: 'limiter_unavailable', headers: { 'retry-after': '1' } },
      );
    }
  }

  /** Sends a closed, drained lease's one report; a failure is left to the object (it charges the whole hold). */
  async function report(objectName: string, lease: Lease, at: number): Promise<void> {
    const final = lease.report(at);
    if (!final) return;
    try {
      await objectFor(objectName).settle(lease.id, final.spent, final.requests);
    } catch (err) {
      console.error(
        'limiter lease report failed; the object will charge its whole hold',
        err instanceof Error ? err.message : String(err),
      );
    }
  }

  /** Throws what a refused reserve means: a 429 naming the limit, a downgrade, or a 500 for input the object refused. */
  function refusal(result: Exclude<ReserveResult, { ok: true }>): Error {
    if ('invalid' in result) {
      // Unreachable from client input (the cost was checked before); never fail open on it.
      console.error('limiter refused a reservation', result.invalid);
      return new GatewayError(500, 'Rate limits and budgets could not be checked for this request.', {
        code: 'limiter_refused',
      });
    }
    if ('downgrade' in result) {
      const d = result.downgrade;
      const scope = d.scopeId === null ? d.scope : `${d.scope}:${d.scopeId}`;
      return new DowngradeRequired(d.route, `${scope}:${d.kind}@${d.atPercent}`);
    }
    return denialError(result.denial, result.quota);
  }

  /** Settles a plain reservation in `object`; a failure is left to the reservation's expiry. */
  async function settleIn(object: LimiterRpc, id: string, actual: Charge | null, requests?: number) {
    try {
      await object.settle(id, actual, requests);
    } catch (err) {
      console.error(
        'limiter settle failed; the reservation will expire',
        err instanceof Error ? err.message : String(err),
      );
    }
  }

  /**
   * One object's part of a request: the tenant object's key, tenant, model and tag scopes, or an end
   * user's scope in its shard. From a lease this isolate holds for the same key and scopes when they
   * are busy, else one round trip (which may open a lease): a quiet key or end user is metered request
   * by request, a busy one (an agent's burst) mostly without a round trip.
   */
  async function leasedPart(
    principal: Principal,
    objectName: string,
    scopes: readonly ScopeSpec[],
    slotName: string,
    priced: Priced,
    downgraded: boolean,
  ): Promise<Part> {
    const { cost, used } = priced;
    const slot = book?.slot(principal, now(), downgraded ? `${slotName}\ndowngraded` : slotName) ?? null;
    const onLease = (lease: Lease | null, taken = false): Part | null => {
      if (!lease || !(taken || lease.take(cost, now()))) return null;
      return {
        quota: lease.quotaNow(),
        settle: async (usage, stream, model) => {
          lease.finish(cost, used(usage, stream, model) ?? NOTHING);
          await report(objectName, lease, now());
        },
        release: async () => {
          lease.untake(cost);
          await report(objectName, lease, now());
        },
      };
    };
    if (slot) {
      let local = onLease(slot.lease);
      // A burst that finds the lease spent waits for the one acquisition in flight, then the next.
      for (let waits = 0; !local && slot.acquiring && waits < 3; waits++)
        local = onLease(await slot.acquiring);
      if (local) return local;
    }

    const object = objectFor(objectName);
    const want = slot && book ? book.want(slot) : 1;
    const asked = ask(object, {
      scopes,
      tenantId: principal.tenantId,
      cost,
      ttlMs: config.reservationTtlMs,
      ...(want > 1 ? { want } : {}),
      ...(downgraded ? { downgraded } : {}),
    });
    // This request's share is taken as the lease opens, before any waiter sees it.
    const leased =
      slot && want > 1
        ? asked
            .then((r) => {
              const lease = leaseOf(r, now(), config.leaseMs);
              return lease?.take(cost, now()) ? lease : null;
            })
            .catch(() => null)
        : null;
    if (slot && leased) {
      slot.acquiring = leased;
      void leased.then((lease) => {
        if (slot.acquiring === leased) slot.acquiring = null;
        if (lease) slot.lease = lease;
      });
    }
    const result = await asked;
    if (result === null) return UNMETERED;
    if (!result.ok) {
      // The x-ratelimit-* snapshot is the model path's: counted-only requests leave it alone.
      if ('quota' in result && priced !== COUNT_ONLY) remember(principal.id, result.quota, now());
      throw refusal(result);
    }
    const lease = leased ? await leased : null;
    if (lease) {
      // Reports the lease when its window ends, should no request of it still be in flight then.
      const closer = sleep(Math.max(0, lease.closesAt - now())).then(() => report(objectName, lease, now()));
      return { ...onLease(lease, true)!, background: closer };
    }
    const id = result.id;
    return {
      quota: result.quota,
      settle: (usage, stream, model) => settleIn(object, id, used(usage, stream, model)),
      release: () => settleIn(object, id, null, 0),
    };
  }

  /**
   * Every part of a plan at once (the tenant object's scopes, the end user's shard); a refusal by either
   * gives back what the other took, so none is recorded. `slot` names the object part's lease slot.
   */
  async function reserveParts(
    principal: Principal,
    plan: ScopePlan,
    slot: string,
    priced: Priced,
    scope: RequestScope,
  ): Promise<Reservation> {
    const downgraded = scope.downgraded === true;
    const asked = await Promise.allSettled([
      plan.object.length > 0
        ? leasedPart(principal, principal.tenantId, plan.object, slot, priced, downgraded)
        : UNMETERED,
      plan.user
        ? leasedPart(
            principal,
            userShardName(principal.tenantId, shardOf(plan.user.label ?? '')),
            [plan.user],
            plan.user.id,
            priced,
            downgraded,
          )
        : UNMETERED,
    ]);
    const parts = asked.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failures = asked.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    if (failures.length > 0) {
      await Promise.all(parts.map((p) => p.release()));
      // A lease this request opened still closes and reports when its window ends.
      for (const p of parts) if (p.background) scope.keep?.(p.background);
      throw failures.find((f) => f instanceof DowngradeRequired) ?? failures[0];
    }
    const quota = parts.reduce<Quota>((q, p) => tighterQuota(q, p.quota), NO_QUOTA);
    if (priced !== COUNT_ONLY) remember(principal.id, quota, now());
    const background = parts.flatMap((p) => (p.background ? [p.background] : []));
    return {
      headers: quotaHeaders(quota),
      ...priced.outputCap,
      settle: once(async (usage, stream, model) => {
        await Promise.all(parts.map((p) => p.settle(usage, stream, model)));
      }),
      ...(background.length > 0 ? { background: Promise.all(background).then(() => {}) } : {}),
    };
  }

  return {
    async reserve(principal, request, models = [request.model], scope = NO_SCOPE) {
      if (!mayBeLimited(principal)) return NOTHING_RESERVED;
      const named = models.length > 0 ? models : [request.model];
      const plan = planScopes(principal, {
        models: [request.model, ...named],
        endUser: scope.endUser,
        tags: scope.tags,
      });
      if (plan.object.length === 0 && plan.user === null) return NOTHING_RESERVED;
      const priced = pricedRequest(
        principal,
        request,
        named,
        await prices.overrides(),
        config.defaultMaxTokens,
      );
      return reserveParts(principal, plan, otherScopes(plan.object), priced, scope);
    },

    async reserveCount(principal, plan, slot, scope = NO_SCOPE) {
      if (plan.object.length === 0 && plan.user === null) return NOTHING_RESERVED;
      return reserveParts(principal, plan, slot, COUNT_ONLY, scope);
    },
  };
}

/** One request that costs no tokens and no dollars: counted in request windows and request budgets only. */
const COUNT_ONLY: Priced = { cost: NOTHING, used: () => NOTHING, outputCap: {} };

/** A lease slot's name beside the key's id: the scopes of the tenant object beyond the key's and tenant's. */
function otherScopes(scopes: readonly ScopeSpec[]): string {
  return scopes
    .slice(2)
    .map((spec) => spec.id)
    .join('\n');
}

/** What one object (the tenant's, or an end user's shard) holds for a request. */
interface Part {
  readonly quota: Quota;
  settle(usage: Usage | null, stream?: StreamEnd, model?: string): Promise<void>;
  /** Gives the hold back unused, the request uncounted: another part refused it. */
  release(): Promise<void>;
  readonly background?: Promise<void>;
}

const NO_QUOTA: Quota = { requests: null, tokens: null };

/** LIMITS_FAIL_MODE=open let the request through this object unmetered. */
const UNMETERED: Part = { quota: NO_QUOTA, settle: async () => {}, release: async () => {} };

/** The lease a grant of more than one request opens, or null (a plain reservation, or a refusal). */
function leaseOf(result: ReserveResult | null, at: number, admitsForMs: number): Lease | null {
  if (!result?.ok || !result.grant || result.grant.requests < 2) return null;
  return new Lease(result.id, result.grant, result.quota, at, admitsForMs);
}

/** A settle that runs once, however often it is called. */
function once(settle: Reservation['settle']): Reservation['settle'] {
  let done = false;
  return async (usage, stream, model) => {
    if (done) return;
    done = true;
    await settle(usage, stream, model);
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
