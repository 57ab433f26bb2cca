/**
 * A refused reservation as the client sees it: 429, `retry-after` when waiting
 * can help, the `x-ratelimit-*` headers, and a body naming the limit. Rate
 * limits and budgets are told apart by code (and OpenAI's types):
 * `rate_limit_exceeded` / rate_limit_error, `budget_exceeded` / insufficient_quota.
 */
import { GatewayError } from '../core/errors';
import { quotaHeaders, retryAfterHeader } from './headers';
import type { Denial, LimitKind, Quota } from './protocol';

const RATE_KINDS: ReadonlySet<LimitKind> = new Set(['rpm', 'tpm', 'concurrent']);

export const isBudget = (kind: LimitKind) => !RATE_KINDS.has(kind);

const NAMES: Record<LimitKind, string> = {
  rpm: 'requests per minute',
  tpm: 'tokens per minute',
  concurrent: 'concurrent requests',
  tokens_day: 'daily token budget',
  tokens_month: 'monthly token budget',
  tokens_total: 'total token budget',
  usd_day: 'daily USD budget',
  usd_month: 'monthly USD budget',
  usd_total: 'total USD budget',
  requests_day: 'daily request budget',
  requests_month: 'monthly request budget',
  requests_total: 'total request budget',
};

/** Whose limit it is, in the message. */
function ownerOf(d: Denial): string {
  const id = d.scopeId ?? '';
  switch (d.scope) {
    case 'key':
      return 'this key';
    case 'tenant':
      return "this key's tenant";
    case 'user':
      return `end user '${id}'`;
    case 'model':
      return `model rule '${id}'`;
    case 'tag':
      return `tag '${id}'`;
  }
}

/** The header naming the scope that refused, beside the body's `limit.scope`. */
export const LIMIT_SCOPE_HEADER = 'x-edgeway-limit-scope';

export function denialMessage(d: Denial): string {
  const owner = ownerOf(d);
  const amount = (n: number) => (d.kind.startsWith('usd_') ? `$${round(n)}` : String(n));
  const wait =
    d.retryAfterMs === null
      ? isBudget(d.kind)
        ? ' Waiting will not help: raise the budget or lower max_tokens.'
        : ' This request alone is larger than the limit: lower max_tokens.'
      : ` Retry after ${Math.max(1, Math.ceil(d.retryAfterMs / 1000))} s.`;
  const what = isBudget(d.kind) ? 'Budget exceeded' : 'Rate limit reached';
  return `${what}: the ${NAMES[d.kind]} of ${owner} is ${amount(d.limit)}, with ${amount(d.used)} used or reserved.${wait}`;
}

export function denialError(d: Denial, quota: Quota): GatewayError {
  const budget = isBudget(d.kind);
  return new GatewayError(429, denialMessage(d), {
    type: budget ? 'insufficient_quota' : 'rate_limit_error',
    code: budget ? 'budget_exceeded' : 'rate_limit_exceeded',
    param: d.param ?? null,
    headers: {
      ...quotaHeaders(quota),
      ...retryAfterHeader(d.retryAfterMs),
      [LIMIT_SCOPE_HEADER]: d.scope,
    },
    details: {
      limit: {
        scope: d.scope,
        ...(d.scopeId != null ? { scope_id: d.scopeId } : {}),
        kind: d.kind,
        limit: d.limit,
        used: d.kind.startsWith('usd_') ? round(d.used) : d.used,
      },
    },
  });
}

/** USD shown to the micro-dollar. */
function round(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}
