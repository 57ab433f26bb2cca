/**
 * Validation of a Responses API request body (`POST /v1/responses`) with
 * OpenAI's messages, params and codes: the scalar fields, `text.format`,
 * `reasoning` (only for models that reason), `include`, `max_output_tokens`
 * (at least 16). Tools live in responses-tools.ts, input items in
 * responses-items.ts. Pure: body in, typed request or problem out.
 */
import { isReasoningModel, REASONING_WORDS } from './chat-options';
import type { OutputFormat } from './completion';
import { type Controls, parseRequestControls } from './controls';
import { parseTools, parseToolChoice, type ResponsesTool, type ToolChoice } from './responses-tools';
import { fail, isRecord, jsonType, type Parsed } from './validate';

export interface ResponsesRequest {
  readonly model: string;
  /** The body's `input` as sent (items are checked once the previous response is known). */
  readonly rawInput: unknown;
  readonly instructions: string | undefined;
  readonly maxOutputTokens: number | undefined;
  readonly stream: boolean;
  /** Stream deltas carry an `obfuscation` field unless `stream_options.include_obfuscation` is false. */
  readonly obfuscate: boolean;
  readonly store: boolean;
  readonly previousResponseId: string | undefined;
  readonly tools: readonly ResponsesTool[];
  readonly toolChoice: ToolChoice;
  readonly format: OutputFormat | undefined;
  /** Reasoning words before the answer (0 for a model that does not reason). */
  readonly reasoningWords: number;
  /** The reasoning item shows its words as a summary (`reasoning.summary` set). */
  readonly summary: boolean;
  /** `include` has `reasoning.encrypted_content`. */
  readonly encryptedReasoning: boolean;
  readonly cacheKey: string;
  readonly controls: Controls;
}

/** The values OpenAI's published types list for `include` (`ResponseIncludable`). */
const INCLUDABLE = [
  'file_search_call.results',
  'web_search_call.results',
  'web_search_call.action.sources',
  'message.input_image.image_url',
  'computer_call_output.output.image_url',
  'code_interpreter_call.outputs',
  'reasoning.encrypted_content',
  'message.output_text.logprobs',
];

/** Reasoning efforts OpenAI's types list; `max` thinks as much as `xhigh`. */
const EFFORT_WORDS: Readonly<Record<string, number>> = {
  ...REASONING_WORDS,
  max: REASONING_WORDS.xhigh as number,
};
const SUMMARIES = ['auto', 'concise', 'detailed'];

const quoted = (values: readonly string[]): string => {
  const all = values.map((v) => `'${v}'`);
  return all.length > 1 ? `${all.slice(0, -1).join(', ')}, and ${all.at(-1)}` : (all[0] ?? '');
};

const wrongType = (param: string, expected: string, value: unknown) =>
  fail(
    `Invalid type for '${param}': expected ${expected}, but got ${jsonType(value)} instead.`,
    param,
    'invalid_type',
  );

function optional<T>(
  body: Record<string, unknown>,
  name: string,
  type: 'string' | 'boolean',
): Parsed<T | undefined> {
  const value = body[name];
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (typeof value !== type) return wrongType(name, `a ${type}`, value);
  return { ok: true, value: value as T };
}

function parseMaxOutput(raw: unknown): Parsed<number | undefined> {
  if (raw === undefined || raw === null) return { ok: true, value: undefined };
  if (!Number.isInteger(raw)) return wrongType('max_output_tokens', 'an integer', raw);
  if ((raw as number) < 16)
    return fail(
      `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${String(raw)} instead.`,
      'max_output_tokens',
      'integer_below_min_value',
    );
  return { ok: true, value: raw as number };
}

function parseFormat(text: unknown): Parsed<OutputFormat | undefined> {
  if (text === undefined || text === null) return { ok: true, value: undefined };
  if (!isRecord(text)) return wrongType('text', 'an object', text);
  const format = text.format;
  if (format === undefined || format === null) return { ok: true, value: undefined };
  if (!isRecord(format)) return wrongType('text.format', 'an object', format);
  if (format.type === 'text') return { ok: true, value: undefined };
  if (format.type === 'json_object') return { ok: true, value: { kind: 'json_object' } };
  if (format.type !== 'json_schema')
    return fail(
      `Invalid value: '${String(format.type)}'. Supported values are: 'text', 'json_object', and 'json_schema'.`,
      'text.format.type',
      'invalid_value',
    );
  if (typeof format.name !== 'string')
    return fail(
      "Missing required parameter: 'text.format.name'.",
      'text.format.name',
      'missing_required_parameter',
    );
  if (!isRecord(format.schema))
    return fail(
      "Missing required parameter: 'text.format.schema'.",
      'text.format.schema',
      'missing_required_parameter',
    );
  return { ok: true, value: { kind: 'json_schema', schema: format.schema } };
}

interface Reasoning {
  readonly words: number;
  readonly summary: boolean;
}

function parseReasoning(raw: unknown, model: string): Parsed<Reasoning> {
  const reasons = isReasoningModel(model);
  const fallback = { words: reasons ? (REASONING_WORDS.medium as number) : 0, summary: false };
  if (raw === undefined || raw === null) return { ok: true, value: fallback };
  if (!isRecord(raw)) return wrongType('reasoning', 'an object', raw);
  const { effort } = raw;
  const summary = raw.summary ?? raw.generate_summary;
  if (
    !reasons &&
    ((effort !== undefined && effort !== null) || (summary !== undefined && summary !== null))
  ) {
    const param = effort !== undefined && effort !== null ? 'reasoning.effort' : 'reasoning.summary';
    return fail(
      `Unsupported parameter: '${param}' is not supported with this model.`,
      param,
      'unsupported_parameter',
    );
  }
  if (effort !== undefined && effort !== null && (typeof effort !== 'string' || !(effort in EFFORT_WORDS)))
    return fail(
      `Invalid value: '${String(effort)}'. Supported values are: ${quoted(Object.keys(EFFORT_WORDS))}.`,
      'reasoning.effort',
      'invalid_value',
    );
  if (
    summary !== undefined &&
    summary !== null &&
    (typeof summary !== 'string' || !SUMMARIES.includes(summary))
  )
    return fail(
      `Invalid value: '${String(summary)}'. Supported values are: ${quoted(SUMMARIES)}.`,
      raw.summary === undefined ? 'reasoning.generate_summary' : 'reasoning.summary',
      'invalid_value',
    );
  const words = typeof effort === 'string' ? (EFFORT_WORDS[effort] as number) : fallback.words;
  return { ok: true, value: { words, summary: summary !== undefined && summary !== null } };
}

function parseInclude(raw: unknown): Parsed<readonly string[]> {
  if (raw === undefined || raw === null) return { ok: true, value: [] };
  if (!Array.isArray(raw)) return wrongType('include', 'an array', raw);
  for (const [i, value] of raw.entries())
    if (typeof value !== 'string' || !INCLUDABLE.includes(value))
      return fail(
        `Invalid value: '${String(value)}'. Supported values are: ${quoted(INCLUDABLE)}.`,
        `include[${i}]`,
        'invalid_value',
      );
  return { ok: true, value: raw as string[] };
}

export function parseResponsesRequest(body: Record<string, unknown>): Parsed<ResponsesRequest> {
  const controls = parseRequestControls(body.mock, body.model);
  if (!controls.ok) return fail(controls.message, controls.param);
  if (body.model === undefined)
    return fail("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  if (typeof body.model !== 'string' || body.model === '') return wrongType('model', 'a string', body.model);
  if (body.input === undefined && body.previous_response_id === undefined)
    return fail("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  if (body.background === true)
    return fail('mock-llm does not run background responses; send background: false.', 'background');
  if (body.conversation !== undefined && body.conversation !== null)
    return fail(
      'mock-llm has no Conversations API; chain responses with previous_response_id.',
      'conversation',
    );
  if (body.prompt !== undefined && body.prompt !== null)
    return fail('mock-llm has no stored prompt templates.', 'prompt');

  const instructions = optional<string>(body, 'instructions', 'string');
  if (!instructions.ok) return instructions;
  const stream = optional<boolean>(body, 'stream', 'boolean');
  if (!stream.ok) return stream;
  const store = optional<boolean>(body, 'store', 'boolean');
  if (!store.ok) return store;
  const previous = optional<string>(body, 'previous_response_id', 'string');
  if (!previous.ok) return previous;
  const cacheKey = optional<string>(body, 'prompt_cache_key', 'string');
  if (!cacheKey.ok) return cacheKey;
  const options = body.stream_options;
  if (options !== undefined && options !== null) {
    if (stream.value !== true)
      return fail(
        "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
        'stream_options',
      );
    if (!isRecord(options)) return wrongType('stream_options', 'an object', options);
  }
  const maxOutput = parseMaxOutput(body.max_output_tokens);
  if (!maxOutput.ok) return maxOutput;
  const format = parseFormat(body.text);
  if (!format.ok) return format;
  const reasoning = parseReasoning(body.reasoning, body.model);
  if (!reasoning.ok) return reasoning;
  const include = parseInclude(body.include);
  if (!include.ok) return include;
  const tools = parseTools(body.tools);
  if (!tools.ok) return tools;
  const choice = parseToolChoice(body.tool_choice, tools.value);
  if (!choice.ok) return choice;

  return {
    ok: true,
    value: {
      model: body.model,
      rawInput: body.input,
      instructions: instructions.value,
      maxOutputTokens: maxOutput.value,
      stream: stream.value ?? false,
      obfuscate: !(isRecord(options) && options.include_obfuscation === false),
      store: store.value ?? true,
      previousResponseId: previous.value,
      tools: tools.value,
      toolChoice: choice.value,
      format: format.value,
      reasoningWords: reasoning.value.words,
      summary: reasoning.value.summary,
      encryptedReasoning: include.value.includes('reasoning.encrypted_content'),
      cacheKey: cacheKey.value ?? '',
      controls: controls.controls,
    },
  };
}
