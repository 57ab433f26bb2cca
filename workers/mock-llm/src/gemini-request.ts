/**
 * Validation of a Gemini `GenerateContentRequest` as the real API does it
 * (pure): unknown fields are refused ("Unknown name … Cannot find field."),
 * `contents` is required, roles are `user`/`model`, parts are non-empty and
 * hold exactly one kind of data, function declarations and their parameter
 * schemas use only the fields of Google's Schema, and tool config is coherent.
 * Problems come back as Google-worded messages for a 400 INVALID_ARGUMENT.
 * Thinking, structured output and thought signatures are read by gemini-options.ts.
 */
import type { OutputFormat, ToolSpec } from './completion';
import { type Controls, parseRequestControls } from './controls';
import { type GeminiThinking, parseFormat, parseThinking, signedParts } from './gemini-options';
import type { SignedItem } from './signature';
import type { MessageLike } from './text';
import {
  checkKeys,
  checkSchema,
  checkToolConfig,
  checkTools,
  field,
  Invalid,
  unknownName,
  type GeminiMode,
} from './gemini-validate';
import { isRecord } from './validate';

export interface GeminiRequest {
  /** The contents as messages the mock's text rules read (roles user/assistant, parts as content). */
  readonly messages: readonly MessageLike[];
  readonly system: MessageLike | undefined;
  readonly maxTokens: number | undefined;
  /** The functions declared (name and parameters schema). */
  readonly tools: readonly ToolSpec[];
  /** The function ANY mode forces: the first allowed, or the first declared. */
  readonly forcedTool: string | undefined;
  readonly thinking: GeminiThinking | undefined;
  readonly format: OutputFormat | undefined;
  /** thoughtSignatures carried back in model turns, to check. */
  readonly signed: readonly SignedItem[];
  readonly mode: GeminiMode;
  readonly candidateCount: number;
  readonly controls: Controls;
}

export type GeminiParsed =
  | { readonly ok: true; readonly value: GeminiRequest }
  | { readonly ok: false; readonly message: string };

const TOP = new Set([
  'contents',
  'systemInstruction',
  'tools',
  'toolConfig',
  'generationConfig',
  'safetySettings',
  'cachedContent',
  'model',
  'mock',
]);
const PART_DATA = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
];
const PART_META = new Set(['thought', 'thoughtSignature', 'videoMetadata']);
const CONFIG = new Set([
  'stopSequences',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'responseModalities',
  'candidateCount',
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
  'responseLogprobs',
  'logprobs',
  'thinkingConfig',
  'mediaResolution',
  'speechConfig',
]);
const MIME_TYPES = ['text/plain', 'application/json', 'text/x.enum'];
function checkParts(raw: unknown, path: string): Record<string, unknown>[] {
  if (!Array.isArray(raw) || raw.length === 0)
    throw field(`${path}.parts`, 'contents.parts must not be empty.');
  return raw.map((p, i) => {
    const at = `${path}.parts[${i}]`;
    if (!isRecord(p)) throw field(at, 'part must be an object.');
    for (const key of Object.keys(p))
      if (!PART_DATA.includes(key) && !PART_META.has(key)) throw unknownName(key, at);
    const data = PART_DATA.filter((k) => p[k] !== undefined);
    if (data.length !== 1) throw field(at, `a part must hold exactly one of: ${PART_DATA.join(', ')}.`);
    if (p.text !== undefined && typeof p.text !== 'string') throw field(`${at}.text`, 'must be a string.');
    const inline = p.inlineData;
    if (
      inline !== undefined &&
      (!isRecord(inline) || typeof inline.mimeType !== 'string' || typeof inline.data !== 'string')
    )
      throw field(`${at}.inline_data`, 'mime_type and data are required.');
    const call = p.functionCall;
    if (
      call !== undefined &&
      (!isRecord(call) || typeof call.name !== 'string' || (call.args !== undefined && !isRecord(call.args)))
    )
      throw field(`${at}.function_call`, 'name is required and args must be an object.');
    const response = p.functionResponse;
    if (
      response !== undefined &&
      (!isRecord(response) || typeof response.name !== 'string' || !isRecord(response.response))
    )
      throw field(`${at}.function_response`, 'name and response (an object) are required.');
    return p;
  });
}

function checkConfig(raw: unknown): Record<string, unknown> {
  if (raw === undefined) return {};
  if (!isRecord(raw)) throw field('generation_config', 'must be an object.');
  checkKeys(raw, CONFIG, 'generation_config');
  if (raw.responseMimeType !== undefined && !MIME_TYPES.includes(String(raw.responseMimeType)))
    throw field('generation_config.response_mime_type', `allowed mimetypes are ${MIME_TYPES.join(', ')}.`);
  if (raw.responseSchema !== undefined) {
    if (raw.responseMimeType !== 'application/json' && raw.responseMimeType !== 'text/x.enum')
      throw field(
        'generation_config.response_mime_type',
        'response_mime_type must be application/json when response_schema is set.',
      );
    checkSchema(raw.responseSchema, 'generation_config.response_schema');
  }
  if (Array.isArray(raw.stopSequences) && raw.stopSequences.length > 5)
    throw field('generation_config.stop_sequences', 'the number of stop sequences must be at most 5.');
  for (const key of ['maxOutputTokens', 'candidateCount', 'topK'] as const)
    if (raw[key] !== undefined && (!Number.isInteger(raw[key]) || (raw[key] as number) < 1))
      throw field(`generation_config.${key}`, 'must be a positive integer.');
  return raw;
}

/** `model` is the id in the URL, which may carry controls (`echo;cut_after=2`, see controls.ts). */
export function parseGeminiRequest(body: Record<string, unknown>, model: string): GeminiParsed {
  try {
    checkKeys(body, TOP, '');
    const controls = parseRequestControls(body.mock, model);
    if (!controls.ok) throw new Invalid(`${controls.param}: ${controls.message}`);
    if (!Array.isArray(body.contents) || body.contents.length === 0)
      throw field('contents', 'contents is not specified');
    const messages = body.contents.map((c, i) => {
      if (!isRecord(c)) throw field(`contents[${i}]`, 'must be an object.');
      checkKeys(c, new Set(['role', 'parts']), `contents[${i}]`);
      if (c.role !== undefined && c.role !== 'user' && c.role !== 'model')
        throw new Invalid('Please use a valid role: user, model.');
      return {
        role: c.role === 'model' ? 'assistant' : 'user',
        content: checkParts(c.parts, `contents[${i}]`),
      };
    });
    let system: MessageLike | undefined;
    if (body.systemInstruction !== undefined) {
      if (!isRecord(body.systemInstruction)) throw field('system_instruction', 'must be an object.');
      system = { role: 'system', content: checkParts(body.systemInstruction.parts, 'system_instruction') };
    }
    const tools = checkTools(body.tools);
    const { mode, allowed } = checkToolConfig(
      body.toolConfig,
      tools.map((t) => t.name),
    );
    const config = checkConfig(body.generationConfig);
    return {
      ok: true,
      value: {
        messages,
        system,
        maxTokens: config.maxOutputTokens as number | undefined,
        tools,
        forcedTool: mode === 'ANY' ? (allowed[0] ?? tools[0]?.name) : undefined,
        thinking: parseThinking(config.thinkingConfig),
        format: parseFormat(config),
        signed: signedParts(messages),
        mode,
        candidateCount: (config.candidateCount as number | undefined) ?? 1,
        controls: controls.controls,
      },
    };
  } catch (err) {
    if (err instanceof Invalid) return { ok: false, message: err.message };
    throw err;
  }
}
