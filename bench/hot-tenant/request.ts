/**
 * The one request the hot-tenant driver limits, built once per isolate the way
 * the pipeline builds it (parseProxyRequest), the usage every admitted request
 * settles (at most the worst case reserved: the prompt estimate, 12 of its 16
 * output tokens) and what that usage is charged, computed as the limits
 * adapter charges it, so the bench can check the object's ledger against the
 * sum the drivers settled; and the default every end user of the end-user
 * tenant is held to.
 */
import { costUsd, priceOf } from '../../src/core/cost';
import type { ScopeRule } from '../../src/core/settings';
import { parseProxyRequest } from '../../src/core/request';
import { plainUsage, type Usage } from '../../src/core/usage';
import { estimatePromptTokens } from '../../src/limits/estimate';
import { NANOS_PER_USD, type Charge } from '../../src/limits/protocol';

export const MODEL = 'openai/gpt-4o-mini';
export const MAX_OUTPUT_TOKENS = 16;

export const REQUEST = parseProxyRequest('chat', {
  model: MODEL,
  messages: [{ role: 'user', content: 'Hot tenant bench: one limited request.' }],
  max_tokens: MAX_OUTPUT_TOKENS,
});

export const USAGE: Usage = plainUsage(estimatePromptTokens(REQUEST), 12);

/** Rounded up to the nano-dollar like the adapter's own charge (the epsilon absorbs float noise). */
export const CHARGE: Charge = {
  tokens: USAGE.inputTokens + USAGE.outputTokens,
  nanos: Math.max(0, Math.ceil(costUsd(priceOf(MODEL), USAGE) * NANOS_PER_USD - 1e-6)),
};

/**
 * Every end user's default in the end-user run: 50 requests and $1 a day. The requests budget is what the
 * run's heavy users reach (a request costs about $0.00001 here); the usd one is checked all the same.
 */
export const END_USER_DEFAULT: ScopeRule = {
  limits: {},
  budgets: { requests: { day: 50 }, usd: { day: 1 } },
};
