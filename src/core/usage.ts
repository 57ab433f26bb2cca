/** Token usage, the one measure that limits, logs, cost and the cache share, and how to read it from a response body (pure). */
import type { ClientFormat } from './endpoints';

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
}

export const NO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };

/** Usage from a complete (non-streamed) response body, or from one OpenAI stream chunk; null when it carries none. */
export function usageFromJson(format: ClientFormat, body: unknown): Usage | null {
  if (typeof body !== 'object' || body === null) return null;
  const usage = (body as { usage?: unknown }).usage;
  if (typeof usage !== 'object' || usage === null) return null;
  const u = usage as Record<string, unknown>;
  if (format === 'anthropic') {
    // Anthropic's input_tokens leaves out cache reads and writes; inputTokens counts every prompt token.
    return {
      inputTokens:
        count(u.input_tokens) + count(u.cache_read_input_tokens) + count(u.cache_creation_input_tokens),
      outputTokens: count(u.output_tokens),
      cachedTokens: count(u.cache_read_input_tokens),
    };
  }
  const details = u.prompt_tokens_details as Record<string, unknown> | undefined;
  return {
    inputTokens: count(u.prompt_tokens),
    outputTokens: count(u.completion_tokens),
    cachedTokens: count(details?.cached_tokens),
  };
}

/** A token count as a provider reports it; anything that is not a finite number counts as 0. */
export function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}
