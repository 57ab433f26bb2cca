/**
 * What a request may cost and what it did cost (pure): its worst case at the dearest model that may
 * answer it (the hold every scope is checked against), the charge for the usage it reported at the
 * price of the model that answered, and the output cap sent upstream when it names none, which makes
 * the output part of the worst case a true bound.
 */
import { badRequest, type GatewayError } from '../core/errors';
import { costUsd, priceOf } from '../core/cost';
import type { StreamEnd } from '../core/limiter';
import type { Price } from '../core/pricing';
import type { Principal } from '../core/principal';
import type { ProxyRequest } from '../core/request';
import { plainUsage, type Usage } from '../core/usage';
import {
  cacheWriteTtl,
  estimatePromptTokens,
  maxTokensLimit,
  outputReserve,
  perChoiceCap,
  settledUsage,
} from './estimate';
import { type Charge, isCharge, NANOS_PER_USD } from './protocol';

/** A request's worst case, the charge for what it used, and the output cap to send upstream. */
export interface Priced {
  readonly cost: Charge;
  readonly used: (
    usage: Usage | null,
    stream: StreamEnd | undefined,
    model: string | undefined,
  ) => Charge | null;
  readonly outputCap: { outputCap?: number };
}

/**
 * The request priced at the dearest of `models` (so a fallback never spends past its hold), with the
 * admin's price `overrides`; a worst case too large to hold exactly is a 400 `cost_out_of_range`.
 */
export function pricedRequest(
  principal: Principal,
  request: ProxyRequest,
  models: readonly string[],
  overrides: Readonly<Record<string, Price>>,
  defaultMaxTokens: number,
): Priced {
  // A max_tokens above the cap was refused by policy (src/pipeline/policy.ts); the cap still bounds the hold.
  const cap = maxTokensLimit(principal.limits, principal.tenantLimits);
  const prompt = estimatePromptTokens(request);
  const output = outputReserve(request, cap?.limit ?? null, defaultMaxTokens);
  const ttl = request.endpoint === 'embeddings' ? null : cacheWriteTtl(request.body);
  const worst = (p: Price) => chargeAt(p, worstUsage(p, prompt, output, ttl));
  const candidates = models.map((m) => priceOf(m, overrides));
  const price = candidates.reduce((a, b) => (worst(b).nanos > worst(a).nanos ? b : a));
  const cost = worst(price);
  if (!isCharge(cost)) throw tooCostly();
  const outputCap =
    request.maxOutputTokens === null && request.endpoint !== 'embeddings'
      ? { outputCap: perChoiceCap(request, cap?.limit ?? null, defaultMaxTokens) }
      : {};
  /** What the request really used, at the price of the model that answered. */
  const used = (usage: Usage | null, stream: StreamEnd | undefined, model: string | undefined) => {
    const u = settledUsage(prompt, usage, stream);
    return u ? chargeAt(model ? priceOf(model, overrides) : price, u) : null;
  };
  return { cost, used, outputCap };
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
