/**
 * Validation of an OpenAI chat completion request body, with OpenAI's own
 * error messages, params and codes. Pure: body in, typed request or problem out.
 */
import { type ChatOptions, parseChatOptions } from './chat-options';
import type { ToolSpec } from './completion';
import { parseRequestControls, type Controls } from './controls';
import type { MessageLike } from './text';
import { fail, isRecord, jsonType, type Parsed } from './validate';

export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly MessageLike[];
  /** The smaller of `max_tokens` and `max_completion_tokens`, if either is set. */
  readonly maxTokens: number | undefined;
  readonly stream: boolean;
  readonly includeUsage: boolean;
  /** The `type: "function"` tools offered (name and parameters schema). */
  readonly tools: readonly ToolSpec[];
  /** A function `tool_choice` forces, if any. */
  readonly forcedTool: string | undefined;
  readonly options: ChatOptions;
  readonly controls: Controls;
}

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];

/** Validates `messages` as OpenAI does (shared with nothing else: Anthropic's rules differ). */
function parseMessages(raw: unknown): Parsed<readonly MessageLike[]> {
  if (raw === undefined)
    return fail("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  if (!Array.isArray(raw)) {
    return fail(
      `Invalid type for 'messages': expected an array, but got ${jsonType(raw)} instead.`,
      'messages',
      'invalid_type',
    );
  }
  if (raw.length === 0) {
    return fail(
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      'messages',
      'empty_array',
    );
  }
  for (let i = 0; i < raw.length; i++) {
    const message: unknown = raw[i];
    const param = `messages[${i}]`;
    if (!isRecord(message)) {
      return fail(
        `Invalid type for '${param}': expected an object, but got ${jsonType(message)} instead.`,
        param,
        'invalid_type',
      );
    }
    if (message.role === undefined)
      return fail(
        `Missing required parameter: '${param}.role'.`,
        `${param}.role`,
        'missing_required_parameter',
      );
    if (typeof message.role !== 'string' || !ROLES.includes(message.role)) {
      return fail(
        `Invalid value: '${String(message.role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        `${param}.role`,
        'invalid_value',
      );
    }
  }
  return { ok: true, value: raw as MessageLike[] };
}

function parseLimit(body: Record<string, unknown>, name: string): Parsed<number | undefined> {
  const raw = body[name];
  if (raw === undefined || raw === null) return { ok: true, value: undefined };
  if (!Number.isInteger(raw))
    return fail(
      `Invalid type for '${name}': expected an integer, but got ${jsonType(raw)} instead.`,
      name,
      'invalid_type',
    );
  if ((raw as number) < 1) {
    return fail(
      `Invalid '${name}': integer below minimum value. Expected a value >= 1, but got ${String(raw)} instead.`,
      name,
      'integer_below_min_value',
    );
  }
  return { ok: true, value: raw as number };
}

function functionTools(tools: unknown): ToolSpec[] {
  if (!Array.isArray(tools)) return [];
  const out: ToolSpec[] = [];
  for (const tool of tools)
    if (
      isRecord(tool) &&
      tool.type === 'function' &&
      isRecord(tool.function) &&
      typeof tool.function.name === 'string'
    )
      out.push({ name: tool.function.name, schema: tool.function.parameters });
  return out;
}

/** `required` forces the first tool, `{type: "function", function: {name}}` that one. */
function forcedTool(choice: unknown, tools: readonly ToolSpec[]): string | undefined {
  if (choice === 'required') return tools[0]?.name;
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string')
    return choice.function.name;
  return undefined;
}

export function parseChatRequest(body: Record<string, unknown>): Parsed<ChatRequest> {
  const controls = parseRequestControls(body.mock, body.model);
  if (!controls.ok) return fail(controls.message, controls.param);
  if (typeof body.model !== 'string' || body.model === '') return fail('you must provide a model parameter');
  const messages = parseMessages(body.messages);
  if (!messages.ok) return messages;
  const maxTokens = parseLimit(body, 'max_tokens');
  if (!maxTokens.ok) return maxTokens;
  const maxCompletionTokens = parseLimit(body, 'max_completion_tokens');
  if (!maxCompletionTokens.ok) return maxCompletionTokens;

  const stream = body.stream ?? false;
  if (typeof stream !== 'boolean')
    return fail(
      `Invalid type for 'stream': expected a boolean, but got ${jsonType(stream)} instead.`,
      'stream',
      'invalid_type',
    );
  const options = body.stream_options ?? null;
  if (options !== null && !stream)
    return fail("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options');
  if (options !== null && !isRecord(options)) {
    return fail(
      `Invalid type for 'stream_options': expected an object, but got ${jsonType(options)} instead.`,
      'stream_options',
      'invalid_type',
    );
  }
  if (body.tools !== undefined && !Array.isArray(body.tools)) {
    return fail(
      `Invalid type for 'tools': expected an array, but got ${jsonType(body.tools)} instead.`,
      'tools',
      'invalid_type',
    );
  }

  const chatOptions = parseChatOptions(body, body.model);
  if (!chatOptions.ok) return chatOptions;
  const tools = functionTools(body.tools);

  const limits = [maxTokens.value, maxCompletionTokens.value].filter((n): n is number => n !== undefined);
  return {
    ok: true,
    value: {
      model: body.model,
      messages: messages.value,
      maxTokens: limits.length > 0 ? Math.min(...limits) : undefined,
      stream,
      includeUsage: options !== null && options.include_usage === true,
      tools,
      forcedTool: forcedTool(body.tool_choice, tools),
      options: chatOptions.value,
      controls: controls.controls,
    },
  };
}
