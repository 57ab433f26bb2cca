/**
 * Conversations of POST /v1/responses, pure: a request naming `previous_response_id` continues a stored
 * response, and every upstream is called statelessly, so the gateway rebuilds the whole conversation as the
 * request's `input` (OpenAI's rule: the stored context, input and output come first, then the new input;
 * `instructions` are not carried over). And the record a finished answer is stored as.
 *
 * Replayed items lose their `id`: upstreams are called with `store: false`, and OpenAI refuses an input item
 * whose id it did not store ("Items are not persisted when `store` is set to false"); every item is valid
 * without one (reasoning is replayed by its `encrypted_content`). Output items are otherwise valid input items
 * as they are (OpenAI's ResponseInputItem includes ResponseOutputMessage, function and custom tool calls,
 * reasoning), `status` included.
 */
import { badRequest } from './errors';
import type { ResponseItem, StoredResponse } from './stored-response';

export type ResponsesBody = Record<string, unknown>;

/** The request's `input` as items: a string is one user message; absent is none. */
export function inputItemsOf(input: unknown): ResponseItem[] {
  if (input === undefined || input === null) return [];
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  if (Array.isArray(input) && input.every(isItem)) return input;
  throw badRequest("'input' must be a string or an array of input items.", 'input', 'invalid_type');
}

function isItem(value: unknown): value is ResponseItem {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The conversation a stored response closes: its context, its input, then its output, as input items. */
export function conversationOf(record: StoredResponse): ResponseItem[] {
  return [...record.context, ...record.input, ...record.response.output].map(withoutId);
}

function withoutId(item: ResponseItem): ResponseItem {
  if (item.id === undefined) return item;
  const { id: _id, ...rest } = item;
  return rest;
}

/**
 * The body that continues `record`: its conversation, then the body's own input, as `input`;
 * `previous_response_id` removed. `context` is how many leading items the conversation holds, so the new
 * record can tell them from this request's own input after the stages have redacted the body in place.
 */
export function continueConversation(
  record: StoredResponse,
  body: ResponsesBody,
): { body: ResponsesBody; context: number } {
  const history = conversationOf(record);
  const { previous_response_id: _previous, ...rest } = body;
  return { body: { ...rest, input: [...history, ...inputItemsOf(body.input)] }, context: history.length };
}

export interface RecordInit {
  /** The response id the client was given (resp_…). */
  readonly id: string;
  readonly tenantId: string;
  readonly keyId: string;
  readonly model: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** The body as it was sent on: its `input` holds `context` items of the previous conversation first. */
  readonly body: ResponsesBody;
  readonly context: number;
  /** The Responses object the client was answered with. */
  readonly response: StoredResponse['response'];
}

/** The record a finished answer is stored as, its own input items named and given ids (from the response id). */
export function recordOf(init: RecordInit): StoredResponse {
  const items = inputItemsOf(init.body.input);
  const base = init.id.startsWith('resp_') ? init.id.slice('resp_'.length) : init.id;
  const own = items.slice(init.context).map((item, n) => asListedItem(item, `${base}_i${n}`));
  return {
    v: 1,
    id: init.id,
    tenant_id: init.tenantId,
    key_id: init.keyId,
    created_at: init.createdAt,
    expires_at: init.expiresAt,
    model: init.model,
    context: items.slice(0, init.context),
    input: own,
    response: init.response,
  };
}

/** Id prefixes of the item types OpenAI names; any other item is an `item_`. */
const PREFIX: Record<string, string> = {
  message: 'msg',
  function_call: 'fc',
  function_call_output: 'fco',
  custom_tool_call: 'ctc',
  custom_tool_call_output: 'ctco',
  reasoning: 'rs',
};

/**
 * An input item as GET /v1/responses/{id}/input_items lists it (OpenAI's ResponseItem): with an id and a
 * type, a message's string content as its one text part (`input_text`, or `output_text` for the assistant).
 */
function asListedItem(item: ResponseItem, suffix: string): ResponseItem {
  const type = item.type ?? 'message';
  const named: ResponseItem = { id: item.id ?? `${PREFIX[type] ?? 'item'}_${suffix}`, ...item, type };
  if (type !== 'message' || typeof named.content !== 'string') return named;
  const text = named.content;
  named.content =
    named.role === 'assistant'
      ? [{ type: 'output_text', text, annotations: [] }]
      : [{ type: 'input_text', text }];
  return named;
}
