/** Anthropic Messages answers ⇄ the canonical response (pure). */
import type { AnswerPart, ChatResponse, FinishReason } from '../ir';
import { arr, badUpstream, type Json, jsonText, obj, str } from '../json';
import { merge, ZERO } from '../usage';
import { JSON_ANSWER_TOOL } from '../json-answer';
import { thinkingBlockToClient } from './reasoning';
import { fromAnthropicUsage, toAnthropicUsage } from './usage';

const STOP_IN: Readonly<Record<string, FinishReason>> = {
  end_turn: 'end',
  pause_turn: 'end',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  stop_sequence: 'stop_sequence',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

const STOP_OUT: Readonly<Record<FinishReason, string>> = {
  end: 'end_turn',
  length: 'max_tokens',
  stop_sequence: 'stop_sequence',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
};

export const finishFromAnthropic = (v: unknown): FinishReason | null =>
  typeof v === 'string' ? (STOP_IN[v] ?? 'end') : null;
export const finishToAnthropic = (r: FinishReason): string => STOP_OUT[r];

export function decodeAnthropicResponse(body: unknown): ChatResponse {
  const b = obj(body);
  if (!b || !Array.isArray(b.content)) throw badUpstream('a message without content');
  const content: AnswerPart[] = [];
  let forced = false;
  for (const raw of arr(b.content)) {
    const block = obj(raw) ?? {};
    if (block.type === 'text') content.push({ type: 'text', text: str(block.text) ?? '' });
    else if (block.type === 'thinking')
      content.push({
        type: 'reasoning',
        text: str(block.thinking) ?? '',
        signature: str(block.signature),
        issuer: 'anthropic',
      });
    else if (block.type === 'redacted_thinking')
      content.push({ type: 'redacted_reasoning', data: str(block.data) ?? '', issuer: 'anthropic' });
    else if (block.type === 'tool_use' && block.name === JSON_ANSWER_TOOL) {
      // The forced tool of a structured answer (./output-format.ts): its input is the answer.
      forced = true;
      content.push({ type: 'text', text: jsonText(block.input) });
    } else if (block.type === 'tool_use')
      content.push({
        type: 'tool_call',
        id: str(block.id) ?? '',
        name: str(block.name) ?? '',
        arguments: jsonText(block.input),
      });
  }
  const usage = obj(b.usage);
  return {
    id: str(b.id) ?? '',
    model: str(b.model) ?? '',
    created: Math.floor(Date.now() / 1000),
    content,
    finish: forced ? 'end' : finishFromAnthropic(b.stop_reason),
    stopSequence: str(b.stop_sequence),
    usage: usage ? merge(ZERO, fromAnthropicUsage(usage)) : null,
  };
}

/** Who called a tool: the model itself (Anthropic's answers always say; code execution is the other caller). */
export const DIRECT = { type: 'direct' } as const;

export function encodeAnthropicResponse(r: ChatResponse): Json {
  const content = r.content.map((p) => {
    if (p.type === 'text') return { type: 'text', text: p.text };
    if (p.type === 'tool_call')
      return { type: 'tool_use', id: p.id, name: p.name, input: inputOf(p.arguments), caller: DIRECT };
    return thinkingBlockToClient(p);
  });
  return {
    id: r.id,
    type: 'message',
    role: 'assistant',
    model: r.model,
    content,
    stop_reason: r.finish ? finishToAnthropic(r.finish) : null,
    stop_sequence: r.stopSequence,
    usage: toAnthropicUsage(r.usage ?? ZERO),
  };
}

/** A provider's tool arguments as Anthropic's `input` object; text that is not a JSON object is kept under `_raw`. */
export function inputOf(args: string): Json {
  if (args.trim() === '') return {};
  try {
    const value = obj(JSON.parse(args));
    if (value) return value;
  } catch {
    // fall through
  }
  return { _raw: args };
}
