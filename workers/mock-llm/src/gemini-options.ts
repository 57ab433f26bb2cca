/**
 * The Gemini fake's generation options beyond sampling: `thinkingConfig`
 * (`thinkingBudget`, `includeThoughts`, `thinkingLevel`; budget and level are
 * exclusive, as the real API says) and structured output (`responseSchema` or
 * `responseJsonSchema` with `responseMimeType: application/json`, or an enum
 * schema with `text/x.enum`, answered with its first value as plain text); and the
 * `thoughtSignature`s a request carries back in model turns, to be checked. Pure.
 */
import type { OutputFormat } from './completion';
import { canonicalJson } from './hash';
import { checkKeys, field, Invalid } from './gemini-validate';
import type { SignedItem } from './signature';
import type { MessageLike } from './text';
import { isRecord } from './validate';

export interface GeminiThinking {
  /** Reasoning words (thoughtsTokenCount). */
  readonly words: number;
  /** `includeThoughts`: the thought text is returned as a `thought: true` part. */
  readonly include: boolean;
}

/** Thought words per level; a budget gives that many words up to HIGH's, -1 (dynamic) MEDIUM's. */
export const LEVEL_WORDS: Readonly<Record<string, number>> = { MINIMAL: 4, LOW: 8, MEDIUM: 16, HIGH: 24 };
const THINKING_KEYS = new Set(['thinkingBudget', 'includeThoughts', 'thinkingLevel']);
const AT = 'generation_config.thinking_config';

export function parseThinking(raw: unknown): GeminiThinking | undefined {
  if (raw === undefined) return undefined;
  if (!isRecord(raw)) throw field(AT, 'must be an object.');
  checkKeys(raw, THINKING_KEYS, AT);
  const { thinkingBudget: budget, thinkingLevel: level, includeThoughts: include = false } = raw;
  if (typeof include !== 'boolean') throw field(`${AT}.include_thoughts`, 'must be a boolean.');
  if (budget !== undefined && level !== undefined)
    throw new Invalid('You can only set only one of thinking budget and thinking level.');
  let words = LEVEL_WORDS.MEDIUM as number;
  if (budget !== undefined) {
    if (!Number.isInteger(budget) || (budget as number) < -1)
      throw field(`${AT}.thinking_budget`, 'must be -1, 0 or a positive integer.');
    if (budget !== -1) words = Math.min(budget as number, LEVEL_WORDS.HIGH as number);
  }
  if (level !== undefined) {
    const known = typeof level === 'string' ? LEVEL_WORDS[level.toUpperCase()] : undefined;
    if (known === undefined)
      throw new Invalid(
        `Invalid value at '${AT}.thinking_level' (type.googleapis.com/google.ai.generativelanguage.v1beta.ThinkingConfig.ThinkingLevel), "${String(level)}"`,
      );
    words = known;
  }
  return words === 0 ? undefined : { words, include };
}

/** The structured output a config asks for, if any. */
export function parseFormat(config: Record<string, unknown>): OutputFormat | undefined {
  const { responseSchema, responseJsonSchema, responseMimeType } = config;
  if (responseJsonSchema === undefined) {
    if (responseSchema === undefined) return undefined;
    return responseMimeType === 'text/x.enum'
      ? { kind: 'enum', schema: responseSchema }
      : { kind: 'json_schema', schema: responseSchema };
  }
  if (responseSchema !== undefined)
    throw field(
      'generation_config.response_json_schema',
      'response_schema and response_json_schema cannot both be set.',
    );
  if (responseMimeType !== 'application/json')
    throw field(
      'generation_config.response_mime_type',
      'response_mime_type must be application/json when response_json_schema is set.',
    );
  return { kind: 'json_schema', schema: responseJsonSchema };
}

/** What a thoughtSignature vouches for: the part's text, or its function call. */
export function signedPartText(part: Readonly<Record<string, unknown>>): string {
  return typeof part.text === 'string' ? part.text : canonicalJson(part.functionCall ?? null);
}

/** Placeholders Google documents for history it did not produce (e.g. moved from another model): never checked. */
const DUMMY_SIGNATURES = new Set([
  'skip_thought_signature_validator',
  'context_engineering_is_the_way_to_go',
]);

/** The thoughtSignatures of model parts in history (dummy placeholders aside). */
export function signedParts(messages: readonly MessageLike[]): SignedItem[] {
  const out: SignedItem[] = [];
  for (const [i, message] of messages.entries()) {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) continue;
    for (const [j, part] of (message.content as Record<string, unknown>[]).entries())
      if (part.thoughtSignature !== undefined && !DUMMY_SIGNATURES.has(part.thoughtSignature as string))
        out.push({
          at: `contents[${i}].parts[${j}]`,
          kind: 'thought',
          text: signedPartText(part),
          token: part.thoughtSignature,
        });
  }
  return out;
}
