/**
 * The chat request's model options, validated with OpenAI's messages:
 * `reasoning_effort` (only for models that reason), `response_format`
 * (text, json_object, json_schema) and `prompt_cache_key`. Also which model
 * ids reason and which show their reasoning, as OpenAI-compatible reasoning
 * providers (DeepSeek, vLLM, OpenRouter) do in `reasoning_content`. Pure.
 */
import type { OutputFormat } from './completion';
import { modelName } from './models';
import { fail, isRecord, jsonType, type Parsed } from './validate';

export interface ChatOptions {
  /** Reasoning words before the answer (0 for a model that does not reason). */
  readonly reasoningWords: number;
  /** The reasoning text is returned in `reasoning_content`. */
  readonly showsReasoning: boolean;
  readonly format: OutputFormat | undefined;
  readonly cacheKey: string;
}

/** Reasoning words per effort; a reasoning model without one thinks at `medium`, OpenAI's default. */
export const REASONING_WORDS: Readonly<Record<string, number>> = {
  none: 0,
  minimal: 4,
  low: 8,
  medium: 16,
  high: 24,
  xhigh: 32,
};

/** Models that reason: o-series (`o` + digit), `gpt-5…`, and any id containing `reason` or `think`. */
export function isReasoningModel(model: string): boolean {
  const name = modelName(model);
  return /^o\d/.test(name) || name.startsWith('gpt-5') || showsReasoning(name);
}

/** Models that return their reasoning text (`reasoning_content`): ids containing `reason` or `think`. */
export function showsReasoning(model: string): boolean {
  const name = modelName(model);
  return name.includes('reason') || name.includes('think');
}

function parseEffort(raw: unknown, model: string): Parsed<number> {
  const reasons = isReasoningModel(model);
  if (raw === undefined || raw === null)
    return { ok: true, value: reasons ? (REASONING_WORDS.medium as number) : 0 };
  if (!reasons)
    return fail(
      "Unsupported parameter: 'reasoning_effort' is not supported with this model.",
      'reasoning_effort',
      'unsupported_parameter',
    );
  if (typeof raw !== 'string' || !(raw in REASONING_WORDS))
    return fail(
      `Invalid value: '${String(raw)}'. Supported values are: 'none', 'minimal', 'low', 'medium', 'high', and 'xhigh'.`,
      'reasoning_effort',
      'invalid_value',
    );
  return { ok: true, value: REASONING_WORDS[raw] as number };
}

function parseFormat(raw: unknown): Parsed<OutputFormat | undefined> {
  if (raw === undefined || raw === null) return { ok: true, value: undefined };
  if (!isRecord(raw))
    return fail(
      `Invalid type for 'response_format': expected an object, but got ${jsonType(raw)} instead.`,
      'response_format',
      'invalid_type',
    );
  if (raw.type === 'text') return { ok: true, value: undefined };
  if (raw.type === 'json_object') return { ok: true, value: { kind: 'json_object' } };
  if (raw.type !== 'json_schema')
    return fail(
      `Invalid value: '${String(raw.type)}'. Supported values are: 'text', 'json_object', and 'json_schema'.`,
      'response_format.type',
      'invalid_value',
    );
  const spec = raw.json_schema;
  if (spec === undefined)
    return fail(
      "Missing required parameter: 'response_format.json_schema'.",
      'response_format.json_schema',
      'missing_required_parameter',
    );
  if (!isRecord(spec))
    return fail(
      `Invalid type for 'response_format.json_schema': expected an object, but got ${jsonType(spec)} instead.`,
      'response_format.json_schema',
      'invalid_type',
    );
  if (typeof spec.name !== 'string')
    return fail(
      "Missing required parameter: 'response_format.json_schema.name'.",
      'response_format.json_schema.name',
      'missing_required_parameter',
    );
  if (spec.schema === undefined) return { ok: true, value: { kind: 'json_object' } };
  return { ok: true, value: { kind: 'json_schema', schema: spec.schema } };
}

export function parseChatOptions(body: Record<string, unknown>, model: string): Parsed<ChatOptions> {
  const words = parseEffort(body.reasoning_effort, model);
  if (!words.ok) return words;
  const format = parseFormat(body.response_format);
  if (!format.ok) return format;
  const key = body.prompt_cache_key;
  if (key !== undefined && key !== null && typeof key !== 'string')
    return fail(
      `Invalid type for 'prompt_cache_key': expected a string, but got ${jsonType(key)} instead.`,
      'prompt_cache_key',
      'invalid_type',
    );
  return {
    ok: true,
    value: {
      reasoningWords: words.value,
      showsReasoning: showsReasoning(model),
      format: format.value,
      cacheKey: key ?? '',
    },
  };
}
