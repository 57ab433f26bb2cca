/**
 * Validation of an Anthropic Messages request body, with Anthropic's
 * "field: problem" error messages. Pure. Also used by count_tokens, which has
 * the same body minus the required `max_tokens`. Model options (thinking,
 * output_config, context_management, tool_choice) are in messages-options.ts,
 * cache breakpoints in messages-cache.ts.
 */
import type { ToolSpec } from './completion';
import { parseRequestControls, type Controls } from './controls';
import { cacheUnits, hasCacheControl } from './messages-cache';
import { type MessagesOptions, parseMessagesOptions } from './messages-options';
import type { CacheUnit } from './prompt-cache';
import type { SignedItem } from './signature';
import type { MessageLike } from './text';
import { fail, isRecord, type Parsed } from './validate';

export interface MessagesRequest {
  readonly model: string;
  readonly messages: readonly MessageLike[];
  /** The `system` prompt (string or text blocks), if any. */
  readonly system: unknown;
  readonly maxTokens: number | undefined;
  readonly stream: boolean;
  /** The custom tools offered (name and input schema). */
  readonly tools: readonly ToolSpec[];
  readonly options: MessagesOptions;
  /** Cache units when the request has `cache_control` breakpoints, else undefined. */
  readonly cache: readonly CacheUnit[] | undefined;
  /** Thinking signatures and redacted data the request carries back, to check. */
  readonly signed: readonly SignedItem[];
  readonly controls: Controls;
}

const ROLES = "'user', 'assistant' or 'system'";

/** Assistant thinking blocks in history: each must carry back what the mock issued. */
function signedBlocks(content: unknown, at: string, out: SignedItem[]): Parsed<undefined> {
  if (!Array.isArray(content)) return { ok: true, value: undefined };
  for (const [j, block] of content.entries()) {
    if (!isRecord(block)) continue;
    const where = `${at}.${j}`;
    if (block.type === 'thinking') {
      if (block.signature === undefined)
        return fail(`${where}.thinking.signature: Field required`, 'messages');
      out.push({ at: where, kind: 'thinking', text: String(block.thinking ?? ''), token: block.signature });
    } else if (block.type === 'redacted_thinking') {
      if (block.data === undefined)
        return fail(`${where}.redacted_thinking.data: Field required`, 'messages');
      out.push({ at: where, kind: 'redacted', text: '', token: block.data });
    }
  }
  return { ok: true, value: undefined };
}

function parseMessages(raw: unknown, signed: SignedItem[]): Parsed<readonly MessageLike[]> {
  if (raw === undefined) return fail('messages: Field required', 'messages');
  if (!Array.isArray(raw)) return fail('messages: Input should be a valid list', 'messages');
  if (raw.length === 0) return fail('messages: at least one message is required', 'messages');
  for (let i = 0; i < raw.length; i++) {
    const message: unknown = raw[i];
    if (!isRecord(message)) return fail(`messages.${i}: Input should be a valid dictionary`, 'messages');
    if (message.role !== 'user' && message.role !== 'assistant' && message.role !== 'system')
      return fail(`messages.${i}.role: Input should be ${ROLES}`, 'messages');
    if (message.content === undefined) return fail(`messages.${i}.content: Field required`, 'messages');
    if (typeof message.content !== 'string' && !Array.isArray(message.content)) {
      return fail(`messages.${i}.content: Input should be a valid string or list`, 'messages');
    }
    if (message.role === 'assistant') {
      const checked = signedBlocks(message.content, `messages.${i}.content`, signed);
      if (!checked.ok) return checked;
    }
  }
  return { ok: true, value: raw as MessageLike[] };
}

/** Custom tools (`name`, no `type` or `type: "custom"`); server tools are accepted and never called. */
function customTools(tools: unknown): ToolSpec[] {
  if (!Array.isArray(tools)) return [];
  const out: ToolSpec[] = [];
  for (const tool of tools)
    if (
      isRecord(tool) &&
      (tool.type === undefined || tool.type === 'custom') &&
      typeof tool.name === 'string'
    )
      out.push({ name: tool.name, schema: tool.input_schema });
  return out;
}

function parseMaxTokens(raw: unknown, required: boolean): Parsed<number | undefined> {
  if (raw === undefined)
    return required ? fail('max_tokens: Field required', 'max_tokens') : { ok: true, value: undefined };
  if (!Number.isInteger(raw)) return fail('max_tokens: Input should be a valid integer', 'max_tokens');
  if ((raw as number) < 1)
    return fail('max_tokens: Input should be greater than or equal to 1', 'max_tokens');
  return { ok: true, value: raw as number };
}

export function parseMessagesRequest(
  body: Record<string, unknown>,
  requireMaxTokens = true,
): Parsed<MessagesRequest> {
  const controls = parseRequestControls(body.mock, body.model);
  if (!controls.ok) return fail(controls.message, controls.param);
  if (body.model === undefined) return fail('model: Field required', 'model');
  if (typeof body.model !== 'string' || body.model === '')
    return fail('model: Input should be a valid string', 'model');
  const maxTokens = parseMaxTokens(body.max_tokens, requireMaxTokens);
  if (!maxTokens.ok) return maxTokens;

  const signed: SignedItem[] = [];
  const messages = parseMessages(body.messages, signed);
  if (!messages.ok) return messages;
  if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system)) {
    return fail('system: Input should be a valid string or list', 'system');
  }
  const stream = body.stream ?? false;
  if (typeof stream !== 'boolean') return fail('stream: Input should be a valid boolean', 'stream');
  if (body.tools !== undefined && !Array.isArray(body.tools))
    return fail('tools: Input should be a valid list', 'tools');
  const options = parseMessagesOptions(body, maxTokens.value);
  if (!options.ok) return options;
  let cache: CacheUnit[] | undefined;
  if (hasCacheControl(body.tools, body.system, messages.value)) {
    const units = cacheUnits(body.tools, body.system, messages.value);
    if (!units.ok) return units;
    cache = units.value.units;
  }

  return {
    ok: true,
    value: {
      model: body.model,
      messages: messages.value,
      system: body.system,
      maxTokens: maxTokens.value,
      stream,
      tools: customTools(body.tools),
      options: options.value,
      cache,
      signed,
      controls: controls.controls,
    },
  };
}
