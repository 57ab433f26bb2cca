/**
 * Workers AI answers → the canonical response (pure): `{response, tool_calls,
 * usage}` from the binding, and the error body the adapter writes when the
 * binding throws. The binding gives no id, model, time or finish reason, so
 * the adapter (src/providers/workers-ai.ts) stamps each answer with the
 * first three and the cap it sent, and the finish is inferred: tool calls, the
 * cap reached (`length`), or a natural end. Newer models answer in OpenAI's
 * chat.completion shape instead, whose `reasoning_content` is the reasoning:
 * unsigned, before the text.
 */
import type { AnswerPart, ChatResponse, FinishReason, ProviderFault, ToolCallPart } from '../ir';
import { arr, badUpstream, type Json, jsonText, num, obj, str } from '../json';
import { fromOpenAiUsage } from '../openai/usage';

/** The key (JSON answers) and SSE event name (streams) of the adapter's stamp. */
export const STAMP = 'edgeway';

export interface Stamp {
  readonly id: string;
  readonly model: string;
  /** Epoch seconds. */
  readonly created: number;
  /** The `max_tokens` sent, to tell a capped answer from a finished one. */
  readonly max_tokens: number | null;
}

export function readStamp(v: unknown): Stamp {
  const s = obj(v) ?? {};
  return {
    id: str(s.id) ?? '',
    model: str(s.model) ?? '',
    created: num(s.created) ?? Math.floor(Date.now() / 1000),
    max_tokens: num(s.max_tokens),
  };
}

/** A call id for calls the model gave none (the binding's older flat shape), unique within the answer. */
export function callId(stamp: Stamp, ordinal: number): string {
  return `call_${stamp.id.replace(/[^A-Za-z0-9]/g, '').slice(-24) || 'workersai'}_${ordinal}`;
}

const FINISH_IN: Readonly<Record<string, FinishReason>> = {
  stop: 'end',
  length: 'length',
  tool_calls: 'tool_calls',
  content_filter: 'content_filter',
};

export function inferFinish(
  explicit: unknown,
  calledTools: boolean,
  outputTokens: number | null,
  stamp: Stamp,
): FinishReason {
  const said = typeof explicit === 'string' ? FINISH_IN[explicit] : undefined;
  if (said) return said;
  if (calledTools) return 'tool_calls';
  if (outputTokens !== null && stamp.max_tokens !== null && outputTokens >= stamp.max_tokens) return 'length';
  return 'end';
}

/** A tool call in either shape the binding uses: flat `{name, arguments: object}` or OpenAI's `{id, function}`. */
export function readToolCall(raw: unknown, stamp: Stamp, ordinal: number): ToolCallPart | null {
  const c = obj(raw);
  if (!c) return null;
  const fn = obj(c.function);
  const name = str(fn?.name) ?? str(c.name);
  if (!name) return null;
  return {
    type: 'tool_call',
    id: str(c.id) ?? callId(stamp, ordinal),
    name,
    arguments: jsonText(fn ? fn.arguments : c.arguments),
  };
}

/** JSON mode answers an object in `response`; everything else is text. */
export function responseText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (obj(v) || Array.isArray(v)) return JSON.stringify(v);
  return null;
}

/**
 * The answer's fields, from either shape the binding answers in: the classic `{response,
 * tool_calls, reasoning_content}`, or OpenAI's chat.completion that newer models use (its first
 * choice's message and finish reason; @cloudflare/workers-types ChatCompletionsOutput, where
 * `message.reasoning_content` carries the reasoning).
 */
function answerFields(
  b: Json,
): { response: unknown; reasoning: unknown; calls: unknown; finish: unknown } | null {
  const choice = obj(arr(b.choices)[0]);
  const message = obj(choice?.message);
  if (message)
    return {
      response: message.content,
      reasoning: message.reasoning_content,
      calls: message.tool_calls,
      finish: choice?.finish_reason,
    };
  if (!('response' in b || 'tool_calls' in b)) return null;
  return {
    response: b.response,
    reasoning: b.reasoning_content,
    calls: b.tool_calls,
    finish: b.finish_reason,
  };
}

export function decodeWorkersAiResponse(body: unknown): ChatResponse {
  const b = obj(body);
  const fields = b ? answerFields(b) : null;
  if (!b || !fields) throw badUpstream('an answer without response or tool_calls');
  const stamp = readStamp(b[STAMP]);
  const content: AnswerPart[] = [];
  const reasoning = str(fields.reasoning);
  if (reasoning) content.push({ type: 'reasoning', text: reasoning, signature: null, issuer: null });
  const text = responseText(fields.response);
  if (text) content.push({ type: 'text', text });
  arr(fields.calls).forEach((raw, ordinal) => {
    const call = readToolCall(raw, stamp, ordinal);
    if (!call) throw badUpstream('a tool call without a name');
    content.push(call);
  });
  const usage = obj(b.usage);
  const decoded = usage ? fromOpenAiUsage(usage) : null;
  return {
    id: stamp.id,
    model: stamp.model,
    created: stamp.created,
    content,
    finish: inferFinish(
      fields.finish,
      content.some((p) => p.type === 'tool_call'),
      decoded?.output ?? null,
      stamp,
    ),
    stopSequence: null,
    usage: decoded,
  };
}

/** The adapter's error body: Cloudflare's API envelope, `{success: false, errors: [{code, message}]}`. */
export function decodeWorkersAiError(body: unknown): ProviderFault {
  const error = obj(arr(obj(body)?.errors)[0]);
  const code = num(error?.code);
  return { message: str(error?.message), type: code !== null ? String(code) : null };
}
