/** Reads token usage from a complete (non-streamed) response body of either wire format (pure). */
import type { Usage } from '../sse/observer';

export function usageFromJson(format: 'openai' | 'anthropic', body: unknown): Usage | null {
  if (typeof body !== 'object' || body === null) return null;
  const usage = (body as { usage?: unknown }).usage;
  if (typeof usage !== 'object' || usage === null) return null;
  const u = usage as Record<string, unknown>;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  if (format === 'anthropic') {
    return { inputTokens: n(u.input_tokens), outputTokens: n(u.output_tokens), cachedTokens: n(u.cache_read_input_tokens) };
  }
  const details = u.prompt_tokens_details as Record<string, unknown> | undefined;
  return { inputTokens: n(u.prompt_tokens), outputTokens: n(u.completion_tokens), cachedTokens: n(details?.cached_tokens) };
}
