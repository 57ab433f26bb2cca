/**
 * Responses API answers ⇄ the canonical response (pure). The answer is a `response` object: its
 * `output` items in the canonical order (a reasoning item per reasoning part, a message item per run
 * of text, a function or custom tool call item per call), usage, status, and the request's settings
 * echoed from the client's body (`AnswerContext`). Item ids are made from the response id and the
 * item's position, so a JSON answer and the stream of the same answer name the same items.
 */
import { GatewayError } from '../../core/errors';
import type { AnswerContext } from '../codec';
import type { AnswerPart, ChatResponse, FinishReason, TokenUsage } from '../ir';
import { arr, badUpstream, type Json, num, obj, str } from '../json';
import { decodeReasoningItem, reasoningItem } from './reasoning';
import { canonicalToolName, type ClientTool, clientTools, customArguments, customInput } from './tools';
import { fromResponsesUsage, toResponsesUsage } from './usage';

/** The id a Responses client knows the answer by: the gateway's, else one made from the provider's. */
export function responseIdOf(upstreamId: string, context: AnswerContext | undefined): string {
  if (context) return context.responseId;
  const clean = upstreamId.replace(/[^A-Za-z0-9_-]/g, '');
  if (clean === '') return 'resp_edgeway';
  return clean.startsWith('resp_') ? clean : `resp_${clean}`;
}

/** The id of the output item at `index`: its kind's prefix, the response id's base, its position. */
export function itemId(prefix: string, responseId: string, index: number): string {
  const base = responseId.startsWith('resp_') ? responseId.slice('resp_'.length) : responseId;
  return `${prefix}_${base}_${index}`;
}

export const outputText = (text: string): Json => ({
  type: 'output_text',
  text,
  annotations: [],
  logprobs: [],
});

export function messageItem(id: string, texts: readonly string[], status = 'completed'): Json {
  return { id, type: 'message', status, role: 'assistant', content: texts.map(outputText) };
}

/**
 * A tool call as the item a Responses client expects: a `custom_tool_call` for its custom tools, naming the
 * namespace and the member for a namespace's tool (`client`: how the client declared it; absent: a function).
 */
export function toolCallItem(
  id: string,
  call: { id: string; name: string; arguments: string },
  client: ClientTool | undefined,
): Json {
  const name = client?.name ?? call.name;
  const namespace = client?.namespace ? { namespace: client.namespace } : {};
  if (client?.custom)
    return {
      id,
      type: 'custom_tool_call',
      call_id: call.id,
      name,
      ...namespace,
      input: customInput(call.arguments),
    };
  return {
    id,
    type: 'function_call',
    status: 'completed',
    call_id: call.id,
    name,
    ...namespace,
    arguments: call.arguments,
  };
}

/** The output items of an answer, in order. */
export function outputItems(
  r: ChatResponse,
  responseId: string,
  tools: ReadonlyMap<string, ClientTool>,
): Json[] {
  const items: Json[] = [];
  /** The run of text parts the last message item holds, rewritten as the run grows. */
  let texts: string[] | null = null;
  for (const p of r.content) {
    if (p.type === 'text') {
      if (texts) texts.push(p.text);
      else texts = [p.text];
      const last = texts.length > 1 ? items.length - 1 : items.length;
      items[last] = messageItem(itemId('msg', responseId, last), texts);
      continue;
    }
    texts = null;
    if (p.type === 'tool_call') {
      const client = tools.get(p.name);
      items.push(toolCallItem(itemId(client?.custom ? 'ctc' : 'fc', responseId, items.length), p, client));
    } else {
      const item = reasoningItem(p, itemId('rs', responseId, items.length));
      if (item) items.push(item);
    }
  }
  return items;
}

/** Status and incomplete details of a finished answer. */
export function statusOf(finish: FinishReason | null): { status: string; incomplete_details: Json | null } {
  if (finish === 'length')
    return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finish === 'content_filter')
    return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

/** What a response object says of itself beyond the request's echo. */
export interface ResponseState {
  readonly id: string;
  readonly createdAt: number;
  readonly model: string;
  readonly status: string;
  readonly incompleteDetails: Json | null;
  readonly output: readonly Json[];
  readonly usage: TokenUsage | null;
}

/** A complete `response` object: its state, and the request's settings echoed as OpenAI types them (defaults when unsaid). */
export function responseObject(s: ResponseState, context: AnswerContext | undefined): Json {
  const body = context?.body ?? {};
  const text = obj(body.text);
  const reasoning = obj(body.reasoning);
  return {
    id: s.id,
    object: 'response',
    created_at: s.createdAt,
    status: s.status,
    background: false,
    error: null,
    incomplete_details: s.incompleteDetails,
    instructions: body.instructions ?? null,
    max_output_tokens: num(body.max_output_tokens),
    model: s.model,
    output: s.output,
    parallel_tool_calls: body.parallel_tool_calls !== false,
    previous_response_id: str(body.previous_response_id),
    prompt_cache_key: str(body.prompt_cache_key),
    reasoning: {
      effort: str(reasoning?.effort),
      summary: str(reasoning?.summary) ?? str(reasoning?.generate_summary),
    },
    safety_identifier: str(body.safety_identifier),
    store: body.store !== false,
    temperature: num(body.temperature) ?? 1,
    text: { format: obj(text?.format) ?? { type: 'text' }, verbosity: str(text?.verbosity) ?? 'medium' },
    tool_choice: body.tool_choice ?? 'auto',
    tools: arr(body.tools),
    top_p: num(body.top_p) ?? 1,
    truncation: str(body.truncation) ?? 'disabled',
    usage: s.usage ? toResponsesUsage(s.usage) : null,
    user: str(body.user),
    metadata: obj(body.metadata) ?? {},
  };
}

export function encodeResponsesResponse(r: ChatResponse, context?: AnswerContext): Json {
  const id = responseIdOf(r.id, context);
  const { status, incomplete_details } = statusOf(r.finish);
  return responseObject(
    {
      id,
      createdAt: r.created,
      model: r.model,
      status,
      incompleteDetails: incomplete_details,
      output: outputItems(r, id, clientTools(context?.body)),
      usage: r.usage,
    },
    context,
  );
}

/** A failed response: the provider's own error, relayed as a 502 (it generated nothing to translate). */
export function failedResponse(error: Json | null): GatewayError {
  return new GatewayError(502, str(error?.message) ?? 'The provider failed to generate a response.', {
    code: str(error?.code) ?? 'upstream_error',
    source: 'provider',
  });
}

/** The finish reason of a response object with the given status (tool calls finish as such). */
export function finishOf(response: Json, calledTools: boolean): FinishReason | null {
  if (response.status === 'incomplete') {
    const reason = obj(response.incomplete_details)?.reason;
    return reason === 'content_filter' ? 'content_filter' : 'length';
  }
  if (response.status === 'completed') return calledTools ? 'tool_calls' : 'end';
  return null;
}

/** One output item's canonical parts (items of tools only OpenAI runs carry none). */
export function itemParts(item: Json): AnswerPart[] {
  switch (item.type) {
    case 'message':
      return arr(item.content).flatMap((c): AnswerPart[] => {
        const part = obj(c) ?? {};
        const text =
          part.type === 'output_text' ? str(part.text) : part.type === 'refusal' ? str(part.refusal) : null;
        return text === null ? [] : [{ type: 'text', text }];
      });
    case 'reasoning':
      return [decodeReasoningItem(item)];
    case 'function_call':
      return [
        {
          type: 'tool_call',
          id: str(item.call_id) ?? '',
          name: canonicalToolName(str(item.namespace), str(item.name) ?? ''),
          arguments: str(item.arguments) ?? '',
        },
      ];
    case 'custom_tool_call':
      return [
        {
          type: 'tool_call',
          id: str(item.call_id) ?? '',
          name: canonicalToolName(str(item.namespace), str(item.name) ?? ''),
          arguments: customArguments(str(item.input) ?? ''),
        },
      ];
    default:
      return [];
  }
}

export function decodeResponsesResponse(body: unknown): ChatResponse {
  const b = obj(body) ?? {};
  if (b.object !== 'response' || !Array.isArray(b.output)) throw badUpstream('a response without output');
  if (b.status === 'failed') throw failedResponse(obj(b.error));
  const content = b.output.flatMap((item) => itemParts(obj(item) ?? {}));
  const usage = obj(b.usage);
  return {
    id: str(b.id) ?? '',
    model: str(b.model) ?? '',
    created: num(b.created_at) ?? Math.floor(Date.now() / 1000),
    content,
    finish: finishOf(
      b,
      content.some((p) => p.type === 'tool_call'),
    ),
    stopSequence: null,
    usage: usage ? fromResponsesUsage(usage) : null,
  };
}
