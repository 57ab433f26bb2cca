/**
 * POST /v1/messages (and /v1/messages/count_tokens) in Anthropic's wire format:
 * the `message` object, or the event stream message_start → content_block_start
 * → ping → content_block_delta… → content_block_stop → message_delta → message_stop.
 */
import { hasAnthropicKey, missingAnthropicKey } from './auth';
import { complete, contentSeed, outputTokens, requestSeed, type Completion } from './completion';
import { invalidRequest } from './errors';
import { jsonAnswer, presentedKey } from './body-faults';
import { applyPreResponseFaults } from './faults';
import { idFrom } from './hash';
import { jsonResponse, newRequestId, readJsonObject } from './http';
import { parseMessagesRequest, type MessagesRequest } from './messages-request';
import type { StreamPlan } from './schedule';
import { sseResponse } from './sse';
import { promptTokens } from './text';

export const ANTHROPIC_BAD_JSON = 'There was an issue with your request body: it is not valid JSON.';

export interface MessageMeta {
  readonly id: string;
  /** Id of the tool_use block, when the completion is one. */
  readonly toolUseId: string;
}

/** Input tokens: the prompt-token rule applied to the messages, with `system` counted as one more message. */
export function inputTokens(request: Pick<MessagesRequest, 'messages' | 'system'>): number {
  const messages =
    request.system === undefined
      ? request.messages
      : [{ role: 'system', content: request.system }, ...request.messages];
  return promptTokens(messages);
}

function stopReason(completion: Completion): 'end_turn' | 'max_tokens' | 'tool_use' {
  if (completion.kind === 'tool') return 'tool_use';
  return completion.truncated ? 'max_tokens' : 'end_turn';
}

function usage(input: number, output: number): Record<string, number | string> {
  return {
    input_tokens: input,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: output,
    service_tier: 'standard',
  };
}

/** The non-streaming `message` object. */
export function messageBody(request: MessagesRequest, completion: Completion, meta: MessageMeta): unknown {
  const content =
    completion.kind === 'tool'
      ? [{ type: 'tool_use', id: meta.toolUseId, name: completion.name, input: {} }]
      : [{ type: 'text', text: completion.tokens.join('') }];
  return {
    id: meta.id,
    type: 'message',
    role: 'assistant',
    model: request.model,
    content,
    stop_reason: stopReason(completion),
    stop_sequence: null,
    usage: usage(inputTokens(request), outputTokens(completion)),
  };
}

function event(type: string, json: string): string {
  return `event: ${type}\ndata: ${json}\n\n`;
}

/** The Messages stream. message_start reports output_tokens 1, as the real API does; message_delta has the total. */
export function messageStreamPlan(
  request: MessagesRequest,
  completion: Completion,
  meta: MessageMeta,
): StreamPlan {
  const start = {
    type: 'message_start',
    message: {
      id: meta.id,
      type: 'message',
      role: 'assistant',
      model: request.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usage(inputTokens(request), 1),
    },
  };
  const block =
    completion.kind === 'tool'
      ? { type: 'tool_use', id: meta.toolUseId, name: completion.name, input: {} }
      : { type: 'text', text: '' };
  const head = [
    event('message_start', JSON.stringify(start)),
    event(
      'content_block_start',
      JSON.stringify({ type: 'content_block_start', index: 0, content_block: block }),
    ),
    event('ping', '{"type":"ping"}'),
  ];
  const delta = {
    type: 'message_delta',
    delta: { stop_reason: stopReason(completion), stop_sequence: null },
    usage: { output_tokens: outputTokens(completion) },
  };
  const tail = [
    event('content_block_stop', '{"type":"content_block_stop","index":0}'),
    event('message_delta', JSON.stringify(delta)),
    event('message_stop', '{"type":"message_stop"}'),
  ];
  const malformed = 'event: content_block_delta\ndata: {"type":"content_block_delta",\n\n';
  const deltaPrefix = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":';
  const content = { open: `${deltaPrefix}{"type":"text_delta","text":"`, close: '"}}\n\n' };

  if (completion.kind === 'tool') {
    return {
      head,
      tokenCount: 1,
      token: () => `${deltaPrefix}{"type":"input_json_delta","partial_json":"{}"}}\n\n`,
      tail,
      malformed,
      content,
    };
  }
  const tokens = completion.tokens;
  return {
    head,
    tokenCount: tokens.length,
    token: (i) => `${deltaPrefix}{"type":"text_delta","text":${JSON.stringify(tokens[i])}}}\n\n`,
    tail,
    malformed,
    content,
  };
}

interface ParsedBody {
  readonly body: Record<string, unknown>;
  readonly request: MessagesRequest;
}

async function parseBody(request: Request, requireMaxTokens: boolean): Promise<ParsedBody | Response> {
  if (!hasAnthropicKey(request)) return missingAnthropicKey();
  const body = await readJsonObject(request);
  if (!body) return invalidRequest('anthropic', ANTHROPIC_BAD_JSON);
  const parsed = parseMessagesRequest(body, requireMaxTokens);
  if (!parsed.ok) return invalidRequest('anthropic', parsed.message);
  return { body, request: parsed.value };
}

export async function handleMessages(request: Request): Promise<Response> {
  const parsed = await parseBody(request, true);
  if (parsed instanceof Response) return parsed;
  const { body, request: messages } = parsed;

  const fault = await applyPreResponseFaults('anthropic', messages.controls, presentedKey(request));
  if (fault) return fault;

  const seed = contentSeed(messages.model, messages.messages);
  const completion = complete({ ...messages, seed });
  const idSeed = requestSeed(body, seed);
  const meta: MessageMeta = {
    id: idFrom('msg_01', idSeed, 22),
    toolUseId: idFrom('toolu_01', idSeed ^ 0x5bd1e995, 22),
  };
  const headers = { 'request-id': newRequestId() };
  if (!messages.stream)
    return jsonAnswer(messageBody(messages, completion, meta), headers, messages.controls);
  return sseResponse(messageStreamPlan(messages, completion, meta), messages.controls, headers);
}

export async function handleCountTokens(request: Request): Promise<Response> {
  const parsed = await parseBody(request, false);
  if (parsed instanceof Response) return parsed;
  return jsonResponse({ input_tokens: inputTokens(parsed.request) }, 200, { 'request-id': newRequestId() });
}
