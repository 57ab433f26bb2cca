/**
 * Bedrock Converse answers and errors → the canonical response (pure). Converse
 * returns no id and no model name: the id is generated, the model left empty
 * for the caller to fill from the route. `reasoningContent` blocks are reasoning
 * issued by 'bedrock' (./reasoning.ts); a call of the forced structured-output
 * tool (./output-format.ts) is the answer's text.
 */
import type { AnswerPart, ChatResponse, FinishReason, ProviderFault } from '../ir';
import { arr, badUpstream, jsonText, obj, str } from '../json';
import { JSON_ANSWER_TOOL } from '../json-answer';
import { reasoningPart } from './reasoning';
import { fromBedrockUsage } from './usage';

const STOP_REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: 'end',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  stop_sequence: 'stop_sequence',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
  model_context_window_exceeded: 'length',
};

/** A Converse stopReason; an unknown one is a natural end. */
export const finishFromBedrock = (v: unknown): FinishReason | null =>
  typeof v === 'string' ? (STOP_REASONS[v] ?? 'end') : null;

/** An id for an answer Converse did not name (the provider's request id is relayed in a header). */
export const newAnswerId = (): string => `bedrock-${crypto.randomUUID()}`;

export function decodeBedrockResponse(body: unknown): ChatResponse {
  const b = obj(body);
  const message = obj(obj(b?.output)?.message);
  if (!b || !message) throw badUpstream('a Converse answer without output.message');
  const content: AnswerPart[] = [];
  let forced = false;
  for (const raw of arr(message.content)) {
    const block = obj(raw) ?? {};
    const text = str(block.text);
    const toolUse = obj(block.toolUse);
    const reasoning = obj(block.reasoningContent);
    if (text !== null) content.push({ type: 'text', text });
    else if (reasoning) {
      const part = reasoningPart(reasoning);
      if (part) content.push(part);
    } else if (toolUse?.name === JSON_ANSWER_TOOL) {
      forced = true;
      content.push({ type: 'text', text: jsonText(toolUse.input) });
    } else if (toolUse)
      content.push({
        type: 'tool_call',
        id: str(toolUse.toolUseId) ?? '',
        name: str(toolUse.name) ?? '',
        arguments: jsonText(toolUse.input),
      });
    // Citations and other blocks have no canonical form: dropped (docs/providers/bedrock.md).
  }
  const usage = obj(b.usage);
  return {
    id: newAnswerId(),
    model: '',
    created: Math.floor(Date.now() / 1000),
    content,
    finish: forced && b.stopReason === 'tool_use' ? 'end' : finishFromBedrock(b.stopReason),
    stopSequence: null,
    usage: usage ? fromBedrockUsage(usage) : null,
  };
}

/**
 * AWS errors: `{"message": …}` (some services `Message`) with the type in the
 * `x-amzn-errortype` header (`ValidationException:http://…`) or a `__type` field.
 */
export function decodeBedrockError(body: unknown, headers: Headers): ProviderFault {
  const b = obj(body);
  const header = headers.get('x-amzn-errortype');
  const rawType = header ?? str(b?.__type);
  const type = rawType ? (rawType.split(':')[0]?.split('#').at(-1) ?? null) : null;
  return { message: str(b?.message) ?? str(b?.Message), type: type || null };
}
