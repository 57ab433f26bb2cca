/**
 * The Limiter port (src/core/limiter.ts) filled by the per-tenant Limiter
 * Durable Object. Per request:
 * - `max_tokens` above the key's or tenant's limits.max_tokens is a 400, decided here;
 * - a principal with no rate limits and no budgets (key and tenant) returns at
 *   once: no Durable Object round trip at all;
 * - otherwise exactly one round trip before the upstream call (`reserve`, to
 *   the tenant's object, which holds the key's counters too), and one after it
 *   (`settle`, off the response path).
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
import { NOTHING_RESERVED, type Limiter } from '../core/limiter';
import type { Price } from '../core/pricing';
import type { Usage } from '../core/usage';
import type { Budgets, Limits } from '../core/settings';
import type { LimitsConfig } from './config';
import { denialError } from './denial';
import { estimatePromptTokens, maxTokensLimit, outputReserve, perChoiceCap, settledUsage } from './estimate';
import { quotaHeaders } from './headers';
import type { PriceBook } from './price-overrides';
import { NANOS_PER_USD, isCharge, type Charge, type ReserveInput, type ReserveResult } from './protocol';
import { remember } from './snapshots';
import { within } from '../util/within';

/** The two hot-path methods of a tenant's Limiter object (a DurableObjectStub<Limiter> has them). */
export interface LimiterRpc {
  reserve(input: ReserveInput): Promise<ReserveResult>;
  settle(id: string, actual: Charge | null): Promise<boolean>;
}

export interface DurableLimiterOptions {
  readonly objectFor: (tenantId: string) => LimiterRpc;
  readonly prices: PriceBook;
  readonly config: LimitsConfig;
  readonly now?: () => number;
}

export function durableLimiter(options: DurableLimiterOptions): Limiter {
  const { objectFor, prices, config } = options;
  const now = options.now ?? Date.now;
  return {
    async reserve(principal, request, models = [request.model]) {
      const cap = maxTokensLimit(principal.limits, principal.tenantLimits);
      if (cap && request.maxOutputTokens !== null && request.maxOutputTokens > cap.limit)
        throw overCap(request, cap);
      if (!isLimited(principal)) return NOTHING_RESERVED;

      const prompt = estimatePromptTokens(request);
      const overrides = await prices.overrides();
      const worst = {
        inputTokens: prompt,
        outputTokens: outputReserve(request, cap?.limit ?? null, config.defaultMaxTokens),
        cachedTokens: 0,
      };
      // The dearest model that may answer prices the hold, so a fallback never spends past it.
      const candidates = (models.length > 0 ? models : [request.model]).map((m) => priceOf(m, overrides));
      const price = candidates.reduce((a, b) => (charge(b, worst).nanos > charge(a, worst).nanos ? b : a));
      const cost = charge(price, worst);
      if (!isCharge(cost)) throw tooCostly();
      const object = objectFor(principal.tenantId);
      let result: ReserveResult;
      try {
        result = await within(
          config.timeoutMs,
          object.reserve({
            keyId: principal.id,
            key: { limits: principal.limits, budgets: principal.budgets },
            tenant: { limits: principal.tenantLimits, budgets: principal.tenantBudgets },
            cost,
            ttlMs: config.reservationTtlMs,
          }),
        );
      } catch (err) {
        // The fail-open / fail-closed choice, made here (LIMITS_FAIL_MODE, default closed).
        console.error(
          'limiter reserve failed',
          config.failMode,
          err instanceof Error ? err.message : String(err),
        );
        if (config.failMode === 'open') return NOTHING_RESERVED;
        throw new GatewayError(
          503,
          'Rate limits and budgets could not be checked, so the request was not sent. Retry shortly.',
          {
            code: 'limiter_unavailable',
            headers: { 'retry-after': '1' },
          },
        );
      }
      if ('invalid' in result) {
        // Unreachable from client input (the cost was checked above); never fail open on it.
        console.error('limiter refused a reservation', result.invalid);
        throw new GatewayError(500, 'Rate limits and budgets could not be checked for this request.', {
          code: 'limiter_refused',
        });
      }
      remember(principal.id, result.quota, now());
      if (!result.ok) throw denialError(result.denial, result.quota);

      const id = result.id;
      let settled = false;
      return {
        headers: quotaHeaders(result.quota),
        ...(request.maxOutputTokens === null && request.endpoint !== 'embeddings'
          ? { outputCap: perChoiceCap(request, cap?.limit ?? null, config.defaultMaxTokens) }
          : {}),
        async settle(usage, stream, model) {
          if (settled) return;
          settled = true;
          const used = settledUsage(prompt, usage, stream);
          const answeredAt = model ? priceOf(model, overrides) : price;
          try {
            await object.settle(id, used ? charge(answeredAt, used) : null);
          } catch (err) {
            console.error(
              'limiter settle failed; the reservation will expire',
              err instanceof Error ? err.message : String(err),
            );
          }
        },
      };
    },
  };
}

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

/** True when the key or its tenant has a rate limit or a budget: only then is there anything to count. */
export function isLimited(principal: Principal): boolean {
  return (
    hasRate(principal.limits) ||
    hasRate(principal.tenantLimits) ||
    hasBudget(principal.budgets) ||
    hasBudget(principal.tenantBudgets)
  );
}

const hasRate = (l: Limits) => l.rpm !== undefined || l.tpm !== undefined || l.concurrent !== undefined;
const hasBudget = (b: Budgets) =>
  [b.tokens, b.usd].some((w) => w !== undefined && (w.day ?? w.month ?? w.total) !== undefined);

/** Rounded up to the nano-dollar; the epsilon keeps float noise (0.016 × 1e9 = 16000000.000000002) from adding one. */
function charge(price: Price, reported: Usage): Charge {
  const usage = {
    inputTokens: whole(reported.inputTokens),
    outputTokens: whole(reported.outputTokens),
    cachedTokens: whole(reported.cachedTokens),
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

function overCap(request: ProxyRequest, cap: { limit: number; scope: 'key' | 'tenant' }): GatewayError {
  const param = request.maxOutputTokensParam ?? 'max_tokens';
  const owner = cap.scope === 'key' ? 'this key' : "this key's tenant";
  return badRequest(
    `'${param}' is ${request.maxOutputTokens}, above the ${cap.limit} allowed for ${owner}.`,
    param,
    'max_tokens_exceeded',
  );
}
