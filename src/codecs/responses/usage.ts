/**
 * The Responses API's usage object ⇄ the canonical counts, and the gateway's Usage from a body or an
 * event (pure). `input_tokens` already includes `input_tokens_details.cached_tokens` (and the cache
 * writes OpenAI reports for explicit breakpoints), and `output_tokens` includes the reasoning tokens,
 * as the canonical counts do. The format has no 1-hour cache-write count.
 */
import type { Usage } from '../../core/usage';
import type { TokenUsage } from '../ir';
import { count, type Json, obj } from '../json';
import { gatewayUsage } from '../usage';

export function fromResponsesUsage(u: Json): TokenUsage {
  const input = obj(u.input_tokens_details);
  return {
    input: count(u.input_tokens),
    output: count(u.output_tokens),
    cacheRead: count(input?.cached_tokens),
    cacheWrite: count(input?.cache_write_tokens),
    cacheWrite1h: 0,
    reasoning: count(obj(u.output_tokens_details)?.reasoning_tokens),
  };
}

export function toResponsesUsage(u: TokenUsage): Json {
  return {
    input_tokens: u.input,
    input_tokens_details: { cached_tokens: u.cacheRead, cache_write_tokens: u.cacheWrite },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning },
    total_tokens: u.input + u.output,
  };
}

/**
 * Usage from a complete Responses object or one stream event (the terminal events carry it in
 * `response.usage`); null when it carries none.
 */
export function responsesUsage(body: unknown): Usage | null {
  const b = obj(body);
  const u = obj(b?.usage) ?? obj(obj(b?.response)?.usage);
  return u ? gatewayUsage(fromResponsesUsage(u)) : null;
}
