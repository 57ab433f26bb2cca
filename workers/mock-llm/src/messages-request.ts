/**
 * Validation of an Anthropic Messages request body, with Anthropic's
 * "field: problem" error messages. Pure. Also used by count_tokens, which has
 * the same body minus the required `max_tokens`.
 */
import { parseRequestControls, type Controls } from './controls';
import type { MessageLike } from './text';
import { fail, isRecord, type Parsed } from './validate';

export interface MessagesRequest {
  readonly model: string;
  readonly messages: readonly MessageLike[];
  /** The `system` prompt (string or text blocks), if any. */
  readonly system: unknown;
  readonly maxTokens: number | undefined;
  readonly stream: boolean;
  /** Name of the first custom tool, if any. */
  readonly firstTool: string | undefined;
  readonly controls: Controls;
}

function parseMessages(raw: unknown): Parsed<readonly MessageLike[]> {
  if (raw === undefined) return fail('messages: Field required', 'messages');
  if (!Array.isArray(raw)) return fail('messages: Input should be a valid list', 'messages');
  if (raw.length === 0) return fail('messages: at least one message is required', 'messages');
  for (let i = 0; i < raw.length; i++) {
    const message: unknown = raw[i];
    if (!isRecord(message)) return fail(`messages.${i}: Input should be a valid dictionary`, 'messages');
    if (message.role !== 'user' && message.role !== 'assistant') {
      return fail(`messages.${i}.role: Input should be 'user' or 'assistant'`, 'messages');
    }
    if (message.content === undefined) return fail(`messages.${i}.content: Field required`, 'messages');
    if (typeof message.content !== 'string' && !Array.isArray(message.content)) {
      return fail(`messages.${i}.content: Input should be a valid string or list`, 'messages');
    }
  }
  return { ok: true, value: raw as MessageLike[] };
}

function firstCustomTool(tools: unknown): string | undefined {
  if (!Array.isArray(tools)) return undefined;
  for (const tool of tools) {
    if (
      isRecord(tool) &&
      (tool.type === undefined || tool.type === 'custom') &&
      typeof tool.name === 'string'
    )
      return tool.name;
  }
  return undefined;
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

  let maxTokens: number | undefined;
  if (body.max_tokens === undefined) {
    if (requireMaxTokens) return fail('max_tokens: Field required', 'max_tokens');
  } else if (!Number.isInteger(body.max_tokens)) {
    return fail('max_tokens: Input should be a valid integer', 'max_tokens');
  } else if ((body.max_tokens as number) < 1) {
    return fail('max_tokens: Input should be greater than or equal to 1', 'max_tokens');
  } else {
    maxTokens = body.max_tokens as number;
  }

  const messages = parseMessages(body.messages);
  if (!messages.ok) return messages;
  if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system)) {
    return fail('system: Input should be a valid string or list', 'system');
  }
  const stream = body.stream ?? false;
  if (typeof stream !== 'boolean') return fail('stream: Input should be a valid boolean', 'stream');
  if (body.tools !== undefined && !Array.isArray(body.tools))
    return fail('tools: Input should be a valid list', 'tools');

  return {
    ok: true,
    value: {
      model: body.model,
      messages: messages.value,
      system: body.system,
      maxTokens,
      stream,
      firstTool: firstCustomTool(body.tools),
      controls: controls.controls,
    },
  };
}
