/**
 * Reasoning on OpenAI's Chat Completions format (pure). Requests: `reasoning_effort` ⇄ the
 * canonical reasoning, sent only to models that reason (others refuse the field, so it is dropped
 * and named). Answers: the reasoning text as `reasoning_content` (the field OpenAI-compatible
 * reasoning providers and their clients use), and, where there are signatures or redacted
 * reasoning, `reasoning_details` items that carry them with their issuer's `format`, so a client
 * that sends the assistant message back gets them to the provider that can verify them.
 */
import type { ChatRequest, ReasoningIssuer, ReasoningPart, RedactedReasoningPart } from '../ir';
import { arr, type Json, obj, str, unsupported } from '../json';
import { effortOf, isEffort } from '../reasoning';

/** OpenAI-format models that take `reasoning_effort`: OpenAI's o-series and GPT-5, gpt-oss, and ids naming reasoning. */
const REASONS = /(?:^|[/.:-])(?:o\d|gpt-5|gpt-oss)|reason|think|(?:^|[/-])r1(?:$|[-:])|qwq/i;
const modelReasons = (model: string): boolean => REASONS.test(model);

export function decodeReasoningEffort(v: unknown): ChatRequest['reasoning'] {
  if (v === undefined || v === null) return null;
  if (!isEffort(v) || v === 'max') throw unsupported('reasoning_effort', null, `'${String(v)}'`);
  return { mode: v === 'none' ? 'off' : 'on', effort: v, budgetTokens: null, display: null };
}

/** `reasoning_effort` for the upstream body, or null (the canonical reasoning dropped where it cannot go). */
export function encodeReasoningEffort(request: ChatRequest, model: string, dropped: string[]): string | null {
  const r = request.reasoning;
  if (!r || r.mode === 'off') return null;
  if (!modelReasons(model)) {
    if (r.mode === 'on') dropped.push('reasoning');
    return null;
  }
  const effort = effortOf(r);
  return effort === 'max' ? 'xhigh' : effort;
}

const FORMATS: Readonly<Record<ReasoningIssuer, string>> = {
  anthropic: 'anthropic-claude-v1',
  gemini: 'google-gemini-v1',
  bedrock: 'amazon-bedrock-converse-v1',
  openai: 'openai-responses-v1',
};
const ISSUERS: ReadonlyMap<string, ReasoningIssuer> = new Map(
  Object.entries(FORMATS).map(([issuer, format]) => [format, issuer as ReasoningIssuer]),
);
const issuerOf = (format: unknown): ReasoningIssuer | null => ISSUERS.get(str(format) ?? '') ?? null;

/** One `reasoning_details` item for a part that carries a signature or redacted data. */
export function detailOf(p: ReasoningPart | RedactedReasoningPart, index: number): Json {
  const format = p.issuer ? FORMATS[p.issuer] : 'unknown';
  if (p.type === 'redacted_reasoning') return { type: 'reasoning.encrypted', data: p.data, format, index };
  return { type: 'reasoning.text', text: p.text, signature: p.signature, format, index };
}

/** `reasoning_content` and `reasoning_details` of an assistant message, for the parts given. */
export function reasoningFields(parts: readonly (ReasoningPart | RedactedReasoningPart)[]): Json {
  if (parts.length === 0) return {};
  const text = parts.map((p) => (p.type === 'reasoning' ? p.text : '')).join('');
  const signed = parts.some((p) => p.type === 'redacted_reasoning' || p.signature !== null);
  return {
    ...(text !== '' ? { reasoning_content: text } : {}),
    ...(signed ? { reasoning_details: parts.map(detailOf) } : {}),
  };
}

/**
 * The reasoning an assistant message carries: its `reasoning_details` when present (they hold the
 * signatures), else its `reasoning_content` (or `reasoning`) text.
 */
export function decodeReasoningFields(m: Json): (ReasoningPart | RedactedReasoningPart)[] {
  const details = arr(m.reasoning_details);
  if (details.length > 0)
    return details.flatMap((d): (ReasoningPart | RedactedReasoningPart)[] => {
      const item = obj(d) ?? {};
      if (item.type === 'reasoning.encrypted' && typeof item.data === 'string')
        return [{ type: 'redacted_reasoning', data: item.data, issuer: issuerOf(item.format) }];
      if (item.type === 'reasoning.text')
        return [
          {
            type: 'reasoning',
            text: str(item.text) ?? '',
            signature: str(item.signature),
            issuer: issuerOf(item.format),
          },
        ];
      return [];
    });
  const text = str(m.reasoning_content) ?? str(m.reasoning);
  return text ? [{ type: 'reasoning', text, signature: null, issuer: null }] : [];
}
