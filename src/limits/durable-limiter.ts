/**
 * The Limiter port (src/core/limiter.ts) filled by the per-tenant Limiter
 * Durable Object. Per request:
 * - a principal with no rate limits and no budgets (key and tenant) returns at
 *   once: no Durable Object round trip at all;
 * - a busy key is admitted from a lease this isolate holds (src/limits/lease*.ts):
 *   no round trip, one settle per lease when it closes;
 * - otherwise one round trip before the upstream call (`reserve`, to the
 *   tenant's object, which holds the key's counters too; it may open a lease),
 *   and one after it (`settle`, off the response path).
 * A failed or slow (> timeoutMs) reserve follows config.failMode (see config.ts);
 * a failed settle is logged and left to the reservation's expiry. Charges are
 * whole non-negative tokens and nano-dollars (a provider's odd usage numbers
 * are rounded up, negatives and non-finite ones count as 0); a worst case too
 * large to hold exactly is a 400 before any round trip, never a fail-open.
 */
import type { ProxyRequest } from '../core/request';
import { GatewayError, badRequest } from '../core/errors';
import type { Principal } from '../core/principal';
import { costUsd, priceOf } from '../core/cost';
import {
  DowngradeRequired,
  NO_SCOPE,
  NOTHING_RESERVED,
  type Limiter,
  type Reservation,
  type StreamEnd,
} from '../core/limiter';
import type { Price } from '../core/pricing';
import { plainUsage, type Usage } from '../core/usage';
import type { LimitsConfig } from './config';
import { denialError } from './denial';
import {
  cacheWriteTtl,
  estimatePromptTokens,
  maxTokensLimit,
  outputReserve,
  perChoiceCap,
  settledUsage,
} from './estimate';
import { quotaHeaders } from './headers';
import type { PriceBook } from './price-overrides';
import {
  NANOS_PER_USD,
  isCharge,
  type Charge,
  type LimiterRpc,
  type Quota,
  type ReserveInput,
  type ReserveResult,
  type ScopeSpec,
} from './protocol';
import { tighterQuota } from './check';
import { mayBeLimited, planScopes } from './scopes';
import { shardOf, userShardName } from './shards';
import { remember } from './snapshots';
import { Lease } from './lease';
import { LeaseBook } from './lease-book';
import { NOTHING } from './ledger';
import { within } from '../util/within';

export interface DurableLimiterOptions {
  readonly objectFor: (tenantId: string) => LimiterRpc;
  readonly prices: PriceBook;
  readonly config: LimitsConfig;
  readonly now?: () => number;
}

export function durableLimiter(options: DurableLimiterOptions): Limiter {
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
      if ('quota' in result) remember(principal.id, result.quota, now());
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
      const priced = await priceOf_(principal, request, named);
      const downgraded = scope.downgraded === true;

      // Both objects at once; a refusal by either gives back what the other took, so none is recorded.
      const asked = await Promise.allSettled([
        plan.object.length > 0
          ? leasedPart(
              principal,
              principal.tenantId,
              plan.object,
              otherScopes(plan.object),
              priced,
              downgraded,
            )
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
      remember(principal.id, quota, now());
      const background = parts.flatMap((p) => (p.background ? [p.background] : []));
      return {
        headers: quotaHeaders(quota),
        ...priced.outputCap,
        settle: once(async (usage, stream, model) => {
          await Promise.all(parts.map((p) => p.settle(usage, stream, model)));
        }),
        ...(background.length > 0 ? { background: Promise.all(background).then(() => {}) } : {}),
      };
    },
  };

  /** The request's worst case at the dearest model that may answer, and how to charge what it used. */
  async function priceOf_(
    principal: Principal,
    request: ProxyRequest,
    models: readonly string[],
  ): Promise<Priced> {
    // A max_tokens above the cap was refused by policy (src/pipeline/policy.ts); the cap still bounds the hold.
    const cap = maxTokensLimit(principal.limits, principal.tenantLimits);
    const prompt = estimatePromptTokens(request);
    const overrides = await prices.overrides();
    const output = outputReserve(request, cap?.limit ?? null, config.defaultMaxTokens);
    const ttl = request.endpoint === 'embeddings' ? null : cacheWriteTtl(request.body);
    const worst = (p: Price) => chargeAt(p, worstUsage(p, prompt, output, ttl));
    // The dearest model that may answer prices the hold, so a fallback never spends past it.
    const candidates = models.map((m) => priceOf(m, overrides));
    const price = candidates.reduce((a, b) => (worst(b).nanos > worst(a).nanos ? b : a));
    const cost = worst(price);
    if (!isCharge(cost)) throw tooCostly();
    const outputCap =
      request.maxOutputTokens === null && request.endpoint !== 'embeddings'
        ? { outputCap: perChoiceCap(request, cap?.limit ?? null, config.defaultMaxTokens) }
        : {};
    /** What the request really used, at the price of the model that answered. */
    const used = (usage: Usage | null, stream: StreamEnd | undefined, model: string | undefined) => {
      const u = settledUsage(prompt, usage, stream);
      return u ? chargeAt(model ? priceOf(model, overrides) : price, u) : null;
    };
    return { cost, used, outputCap };
  }
}

/** A lease slot's name beside the key's id: the scopes of the tenant object beyond the key's and tenant's. */
function otherScopes(scopes: readonly ScopeSpec[]): string {
  return scopes
    .slice(2)
    .map((spec) => spec.id)
    .join('\n');
}

/** A request's worst case, the charge for what it used, and the output cap to send upstream. */
interface Priced {
  readonly cost: Charge;
  readonly used: (
    usage: Usage | null,
    stream: StreamEnd | undefined,
    model: string | undefined,
  ) => Charge | null;
  readonly outputCap: { outputCap?: number };
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

/**
 * The output cap per choice a provider is sent when the request names none:
 * the key's or tenant's max_tokens, else LIMITS_DEFAULT_MAX_TOKENS. It is what
 * a limited key's reservation holds, and what formats that require a cap
 * (Anthropic's max_tokens) are sent for any key.
 */
export function outputCapFor(principal: Principal, request: ProxyRequest, defaultCap: number): number {
  const cap = maxTokensLimit(principal.limits, principal.tenantLimits);
  return perChoiceCap(request, cap?.limit ?? null, defaultCap);
}

/** True when a request of this key may have anything to count: only then is there a Limiter to ask. */
export const isLimited = mayBeLimited;

/**
 * A request's worst case at one price: every prompt token billed at the dearest rate a prompt token of
 * this request can have there (plain input, a cache read, or, when its breakpoints ask for one, a
 * cache write of their TTL: 1.25× or 2× input at Anthropic), and the whole output reserve.
 */
function worstUsage(price: Price, prompt: number, output: number, ttl: '1h' | '5m' | null): Usage {
  const usage = plainUsage(prompt, output);
  const write5m = ttl ? price.cache_write : 0;
  const write1h = ttl === '1h' ? price.cache_write_1h : 0;
  const dearest = Math.max(price.input, price.cached, write5m, write1h);
  if (dearest === price.input) return usage;
  if (dearest === write1h) return { ...usage, cacheWriteTokens: prompt, cacheWrite1hTokens: prompt };
  if (dearest === write5m) return { ...usage, cacheWriteTokens: prompt };
  return { ...usage, cachedTokens: prompt };
}

/** Rounded up to the nano-dollar; the epsilon keeps float noise (0.016 × 1e9 = 16000000.000000002) from adding one. */
function chargeAt(price: Price, reported: Usage): Charge {
  const usage = {
    inputTokens: whole(reported.inputTokens),
    outputTokens: whole(reported.outputTokens),
    cachedTokens: whole(reported.cachedTokens),
    cacheWriteTokens: whole(reported.cacheWriteTokens),
    cacheWrite1hTokens: whole(reported.cacheWrite1hTokens),
    reasoningTokens: whole(reported.reasoningTokens),
  };
  return {
    tokens: usage.inputTokens + usage.outputTokens,
    nanos: Math.max(0, Math.ceil(costUsd(price, usage) * NANOS_PER_USD - 1e-6)),
  };
}

const whole = (n: number) => (Number.isFinite(n) && n > 0 ? Math.ceil(n) : 0);

function tooCostly(): GatewayError {
  return badRequest(
    "This request's worst-case cost is too large to reserve; lower 'max_tokens' or 'n'.",
    null,
    'cost_out_of_range',
  );
}
