/**
 * The one request the hot-tenant driver limits, built once per isolate the way
 * the pipeline builds it (parseProxyRequest), the usage every admitted request
 * settles (at most the worst case reserved: the prompt estimate, 12 of its 16
 * output tokens) and what that usage is charged, computed as the limits
 * adapter charges it, so the bench can check the object's ledger against the
 * sum the drivers settled.
 */
import { costUsd, priceOf } from '../../src/core/cost';
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
