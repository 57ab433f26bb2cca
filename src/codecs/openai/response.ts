/** OpenAI Chat Completions answers ⇄ the canonical response (pure). */
import type { AnswerPart, ChatResponse, FinishReason, ReasoningPart, RedactedReasoningPart } from '../ir';
import { arr, badUpstream, type Json, num, obj, str } from '../json';
import { decodeReasoningFields, reasoningFields } from './reasoning';
import { fromOpenAiUsage, toOpenAiUsage } from './usage';

const FINISH_IN: Readonly<Record<string, FinishReason>> = {
  stop: 'end',
  length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
};

export const finishFromOpenAi = (v: unknown): FinishReason | null =>
  typeof v === 'string' ? (FINISH_IN[v] ?? 'end') : null;

/** A stop sequence is OpenAI's `stop` too: OpenAI does not say which one ended the answer. */
export function finishToOpenAi(reason: FinishReason): string {
  if (reason === 'end' || reason === 'stop_sequence') return 'stop';
  return reason;
}

export function decodeOpenAiResponse(body: unknown): ChatResponse {
  const b = obj(body);
  const choices = arr(b?.choices);
  if (!b || choices.length === 0) throw badUpstream('a chat completion without choices');
  if (choices.length > 1) throw badUpstream('more than one choice to a request for one');
  const choice = obj(choices[0]) ?? {};
  const message = obj(choice.message) ?? {};
  const content: AnswerPart[] = decodeReasoningFields(message);
  const text = str(message.content) ?? str(message.refusal);
  if (text) content.push({ type: 'text', text });
  for (const c of arr(message.tool_calls)) {
    const call = obj(c) ?? {};
    const fn = obj(call.function) ?? {};
    content.push({
      type: 'tool_call',
      id: str(call.id) ?? '',
      name: str(fn.name) ?? '',
      arguments: str(fn.arguments) ?? '',
    });
  }
  const usage = obj(b.usage);
  return {
    id: str(b.id) ?? '',
    model: str(b.model) ?? '',
    created: num(b.created) ?? Math.floor(Date.now() / 1000),
    content,
    finish: finishFromOpenAi(choice.finish_reason),
    stopSequence: null,
    usage: usage ? fromOpenAiUsage(usage) : null,
  };
}

export function encodeOpenAiResponse(r: ChatResponse): Json {
  const text = r.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
  const calls = r.content.flatMap((p) =>
    p.type === 'tool_call'
      ? [{ id: p.id, type: 'function', function: { name: p.name, arguments: p.arguments } }]
      : [],
  );
  const reasoning = r.content.filter(
    (p): p is ReasoningPart | RedactedReasoningPart =>
      p.type === 'reasoning' || p.type === 'redacted_reasoning',
  );
  return {
    id: r.id,
    object: 'chat.completion',
    created: r.created,
    model: r.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text === '' && calls.length > 0 ? null : text,
          refusal: null,
          ...reasoningFields(reasoning),
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
        logprobs: null,
        finish_reason: r.finish ? finishToOpenAi(r.finish) : null,
      },
    ],
    ...(r.usage ? { usage: toOpenAiUsage(r.usage) } : {}),
  };
}
