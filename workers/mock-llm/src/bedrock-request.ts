/**
 * Validation of a Converse body, with Bedrock's ValidationException messages
 * (Coral's "1 validation error detected: …" for shape constraints, the
 * service's own sentences for conversation rules). Pure. Stricter than the
 * real service in one way, on purpose: an unknown top-level field is refused,
 * so a codec that sends one is caught here rather than silently ignored.
 * Content blocks include `cachePoint` and (in assistant turns) `reasoningContent`,
 * whose signatures are collected for the handler to check; model options live in
 * bedrock-options.ts, cache units in bedrock-cache.ts. Longer than most modules:
 * one check per Converse part, kept together so the messages stay in one style.
 */
import { cachePointUnits, hasCachePoint } from './bedrock-cache';
import { type BedrockOptions, parseBedrockOptions, reasoningItem } from './bedrock-options';
import type { ToolSpec } from './completion';
import { type Controls, parseRequestControls } from './controls';
import type { CacheUnit } from './prompt-cache';
import type { SignedItem } from './signature';
import type { MessageLike } from './text';
import { fail, isRecord, type Parsed } from './validate';

export interface ConverseRequest {
  readonly messages: readonly MessageLike[];
  /** The system blocks as one more message for the token rule, or undefined. */
  readonly system: MessageLike | undefined;
  readonly maxTokens: number | undefined;
  /** The tools offered (name and input schema). */
  readonly tools: readonly ToolSpec[];
  /** The tool the tool choice forces (`any`: the first; `tool`: that one), if any. */
  readonly forcedTool: string | undefined;
  readonly options: BedrockOptions;
  /** Cache units when the body has cache points, else undefined. */
  readonly cache: readonly CacheUnit[] | undefined;
  /** Reasoning blocks carried back in assistant messages, to check. */
  readonly signed: readonly SignedItem[];
  readonly controls: Controls;
}

const FIELDS = new Set([
  'messages',
  'system',
  'inferenceConfig',
  'toolConfig',
  'additionalModelRequestFields',
  'additionalModelResponseFieldPaths',
  'guardrailConfig',
  'performanceConfig',
  'promptVariables',
  'requestMetadata',
  'outputConfig',
  'serviceTier',
  'mock',
]);
const IMAGE_FORMATS = new Set(['png', 'jpeg', 'gif', 'webp']);
/** Converse's DocumentFormat values. */
const DOCUMENT_FORMATS = new Set(['pdf', 'csv', 'doc', 'docx', 'xls', 'xlsx', 'html', 'txt', 'md']);
/** DocumentBlock.name: alphanumerics, single whitespace, hyphens, parentheses, square brackets. */
const DOCUMENT_NAME = /^(?! )(?!.* {2})[A-Za-z0-9\-()[\] ]+(?<! )$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const coral = (value: unknown, at: string, constraint: string) =>
  fail(
    `1 validation error detected: Value ${value === undefined ? 'null' : `'${JSON.stringify(value)}'`} at '${at}' failed to satisfy constraint: ${constraint}`,
  );
const one = (v: Record<string, unknown>): string | null => {
  const keys = Object.keys(v);
  return keys.length === 1 ? (keys[0] as string) : null;
};

function checkBlock(block: unknown, at: string, signed: SignedItem[] | null): Parsed<'tool' | 'plain'> {
  if (!isRecord(block) || one(block) === null)
    return fail(`Malformed input request: the ContentBlock at ${at} must set exactly one member.`);
  if ('cachePoint' in block) return checkCachePoint(block.cachePoint, at);
  if ('reasoningContent' in block) {
    if (signed === null)
      return fail(`Malformed input request: ${at}.reasoningContent is only allowed in assistant messages.`);
    const item = reasoningItem(block.reasoningContent, at);
    if (!item.ok) return item;
    signed.push(item.value);
    return { ok: true, value: 'plain' };
  }
  if ('text' in block) {
    if (typeof block.text !== 'string')
      return coral(block.text, `${at}.member.text`, 'Member must be a string');
    if (block.text.trim() === '')
      return fail(
        `The text field in the ContentBlock object at ${at} is blank. Add text to the text field, and try again.`,
      );
    return { ok: true, value: 'plain' };
  }
  if ('image' in block) {
    const image = isRecord(block.image) ? block.image : {};
    if (!IMAGE_FORMATS.has(image.format as string))
      return coral(
        image.format,
        `${at}.member.image.format`,
        'Member must satisfy enum value set: [png, jpeg, gif, webp]',
      );
    if (!isRecord(image.source) || typeof image.source.bytes !== 'string' || !BASE64.test(image.source.bytes))
      return fail(`Malformed input request: ${at}.image.source.bytes must be base64-encoded image bytes.`);
    return { ok: true, value: 'plain' };
  }
  if ('document' in block) {
    const doc = isRecord(block.document) ? block.document : {};
    if (!DOCUMENT_FORMATS.has(doc.format as string))
      return coral(
        doc.format,
        `${at}.member.document.format`,
        `Member must satisfy enum value set: [${[...DOCUMENT_FORMATS].join(', ')}]`,
      );
    if (typeof doc.name !== 'string' || !DOCUMENT_NAME.test(doc.name))
      return coral(
        doc.name,
        `${at}.member.document.name`,
        'Member must contain only alphanumerics, single spaces, hyphens, parentheses and square brackets',
      );
    if (!isRecord(doc.source) || typeof doc.source.bytes !== 'string' || !BASE64.test(doc.source.bytes))
      return fail(
        `Malformed input request: ${at}.document.source.bytes must be base64-encoded document bytes.`,
      );
    return { ok: true, value: 'plain' };
  }
  if ('toolUse' in block) {
    const use = isRecord(block.toolUse) ? block.toolUse : {};
    if (typeof use.toolUseId !== 'string' || typeof use.name !== 'string' || !isRecord(use.input))
      return fail(`Malformed input request: ${at}.toolUse needs toolUseId, name and an input object.`);
    return { ok: true, value: 'tool' };
  }
  if ('toolResult' in block) {
    const result = isRecord(block.toolResult) ? block.toolResult : {};
    if (typeof result.toolUseId !== 'string' || !Array.isArray(result.content))
      return fail(`Malformed input request: ${at}.toolResult needs toolUseId and a content list.`);
    if (result.status !== undefined && result.status !== 'success' && result.status !== 'error')
      return coral(
        result.status,
        `${at}.member.toolResult.status`,
        'Member must satisfy enum value set: [success, error]',
      );
    for (const part of result.content)
      if (!isRecord(part) || !['text', 'json', 'image', 'document'].includes(one(part) ?? ''))
        return fail(
          `Malformed input request: ${at}.toolResult.content holds a block that is not text, json, image or document.`,
        );
    return { ok: true, value: 'tool' };
  }
  return fail(`Malformed input request: the ContentBlock at ${at} has an unsupported member.`);
}

function checkCachePoint(point: unknown, at: string): Parsed<'plain'> {
  const value = isRecord(point) ? point : {};
  if (value.type !== 'default')
    return coral(value.type, `${at}.member.cachePoint.type`, 'Member must satisfy enum value set: [default]');
  if (value.ttl !== undefined && value.ttl !== '5m' && value.ttl !== '1h')
    return coral(value.ttl, `${at}.member.cachePoint.ttl`, 'Member must satisfy enum value set: [5m, 1h]');
  return { ok: true, value: 'plain' };
}

function checkMessages(
  raw: unknown,
  signed: SignedItem[],
): Parsed<{ messages: MessageLike[]; tools: boolean }> {
  if (raw === undefined) return coral(undefined, 'messages', 'Member must not be null');
  if (!Array.isArray(raw)) return fail('Malformed input request: messages must be a list.');
  let tools = false;
  for (let i = 0; i < raw.length; i++) {
    const m: unknown = raw[i];
    if (!isRecord(m)) return fail(`Malformed input request: messages.${i} must be an object.`);
    if (m.role !== 'user' && m.role !== 'assistant')
      return coral(
        m.role,
        `messages.${i + 1}.member.role`,
        'Member must satisfy enum value set: [user, assistant]',
      );
    if (i === 0 && m.role !== 'user')
      return fail(
        'A conversation must start with a user message. Try again with a conversation that starts with a user message.',
      );
    if (i > 0 && (raw[i - 1] as Record<string, unknown>).role === m.role)
      return fail(
        'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.',
      );
    if (!Array.isArray(m.content) || m.content.length === 0)
      return fail(
        `The content field in the Message object at messages.${i} is empty. Add a ContentBlock object to the content field and try again.`,
      );
    for (let j = 0; j < m.content.length; j++) {
      const block = checkBlock(
        m.content[j],
        `messages.${i}.content.${j}`,
        m.role === 'assistant' ? signed : null,
      );
      if (!block.ok) return block;
      tools ||= block.value === 'tool';
    }
  }
  if (raw.length === 0)
    return fail(
      'A conversation must start with a user message. Try again with a conversation that starts with a user message.',
    );
  return { ok: true, value: { messages: raw as MessageLike[], tools } };
}

function checkInference(raw: unknown): Parsed<number | undefined> {
  if (raw === undefined) return { ok: true, value: undefined };
  if (!isRecord(raw)) return fail('Malformed input request: inferenceConfig must be an object.');
  const { maxTokens, temperature, topP, stopSequences } = raw;
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || (maxTokens as number) < 1))
    return coral(maxTokens, 'inferenceConfig.maxTokens', 'Member must have value greater than or equal to 1');
  for (const [name, v] of [
    ['temperature', temperature],
    ['topP', topP],
  ] as const)
    if (v !== undefined && (typeof v !== 'number' || v < 0 || v > 1))
      return coral(v, `inferenceConfig.${name}`, 'Member must have value less than or equal to 1');
  if (
    stopSequences !== undefined &&
    (!Array.isArray(stopSequences) || stopSequences.some((s) => typeof s !== 'string'))
  )
    return fail('Malformed input request: inferenceConfig.stopSequences must be a list of strings.');
  return { ok: true, value: maxTokens as number | undefined };
}

/** The tools offered and the tool the tool choice forces, if any. */
function checkTools(raw: unknown): Parsed<{ specs: ToolSpec[]; forced: string | undefined } | undefined> {
  if (raw === undefined) return { ok: true, value: undefined };
  if (!isRecord(raw) || !Array.isArray(raw.tools) || raw.tools.length === 0)
    return coral(undefined, 'toolConfig.tools', 'Member must have length greater than or equal to 1');
  const specs: ToolSpec[] = [];
  const names: string[] = [];
  for (let i = 0; i < raw.tools.length; i++) {
    const entry = raw.tools[i];
    if (isRecord(entry) && 'cachePoint' in entry) {
      const point = checkCachePoint(entry.cachePoint, `toolConfig.tools.${i}`);
      if (!point.ok) return point;
      continue;
    }
    const spec = isRecord(entry) ? entry.toolSpec : undefined;
    if (
      !isRecord(spec) ||
      typeof spec.name !== 'string' ||
      !isRecord(spec.inputSchema) ||
      !isRecord(spec.inputSchema.json)
    )
      return fail(
        `Malformed input request: toolConfig.tools.${i} needs a toolSpec with a name and inputSchema.json.`,
      );
    if (!TOOL_NAME.test(spec.name))
      return coral(
        spec.name,
        `toolConfig.tools.${i + 1}.member.toolSpec.name`,
        'Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+',
      );
    names.push(spec.name);
    specs.push({ name: spec.name, schema: spec.inputSchema.json });
  }
  const choice = raw.toolChoice;
  if (choice === undefined) return { ok: true, value: { specs, forced: undefined } };
  const kind = isRecord(choice) ? one(choice) : null;
  if (kind === 'auto') return { ok: true, value: { specs, forced: undefined } };
  if (kind === 'any') return { ok: true, value: { specs, forced: names[0] } };
  const wanted =
    kind === 'tool' && isRecord((choice as Record<string, unknown>).tool)
      ? ((choice as Record<string, Record<string, unknown>>).tool?.name as unknown)
      : undefined;
  if (typeof wanted !== 'string')
    return fail('Malformed input request: toolConfig.toolChoice must set exactly one of auto, any, tool.');
  if (!names.includes(wanted))
    return fail(
      `The tool ${wanted} in toolConfig.toolChoice isn't defined in toolConfig.tools. Define the tool and try again.`,
    );
  return { ok: true, value: { specs, forced: wanted } };
}

/**
 * `model` is the decoded model id from the path: it may carry mock controls
 * (`echo;cut_after=3`, src/controls.ts) and decides whether top_k is accepted.
 */
export function parseConverseRequest(body: Record<string, unknown>, model: string): Parsed<ConverseRequest> {
  for (const key of Object.keys(body))
    if (!FIELDS.has(key))
      return fail(
        `Malformed input request: extraneous key [${key}] is not permitted, please reformat your input and try again.`,
      );
  const controls = parseRequestControls(body.mock, model);
  if (!controls.ok) return fail(controls.message, controls.param);
  const signed: SignedItem[] = [];
  const messages = checkMessages(body.messages, signed);
  if (!messages.ok) return messages;
  if (
    body.system !== undefined &&
    (!Array.isArray(body.system) ||
      body.system.some((b) => !isRecord(b) || (typeof b.text !== 'string' && !isRecord(b.cachePoint))))
  )
    return fail('Malformed input request: system must be a list of {text} or {cachePoint} blocks.');
  const maxTokens = checkInference(body.inferenceConfig);
  if (!maxTokens.ok) return maxTokens;
  const tools = checkTools(body.toolConfig);
  if (!tools.ok) return tools;
  if (messages.value.tools && tools.value === undefined)
    return fail('The toolConfig field must be defined when using toolUse and toolResult content blocks.');
  const options = parseBedrockOptions(body, model, maxTokens.value);
  if (!options.ok) return options;
  const toolList = isRecord(body.toolConfig) ? body.toolConfig.tools : undefined;
  const cache = hasCachePoint(toolList, body.system, messages.value.messages)
    ? cachePointUnits(toolList, body.system, messages.value.messages)
    : undefined;
  return {
    ok: true,
    value: {
      messages: messages.value.messages,
      system: body.system === undefined ? undefined : { role: 'system', content: body.system },
      maxTokens: maxTokens.value,
      tools: tools.value?.specs ?? [],
      forcedTool: tools.value?.forced,
      options: options.value,
      cache,
      signed,
      controls: controls.controls,
    },
  };
}
