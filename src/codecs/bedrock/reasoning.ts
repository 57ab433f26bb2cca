/**
 * Reasoning on Bedrock Converse ⇄ the canonical reasoning (pure). Requests: Claude's extended
 * thinking as `additionalModelRequestFields.thinking` (Anthropic's own shape, which Bedrock
 * passes to the model), Nova 2's `reasoningConfig` and gpt-oss's `reasoning_effort`; other
 * models take no reasoning request through Converse, so it is dropped and named. Answers and history: `reasoningContent` blocks
 * (botocore bedrock-runtime service-2.json, ReasoningContentBlock: `reasoningText {text,
 * signature}` or `redactedContent`, bytes that travel as base64 in JSON), issued by 'bedrock' and
 * sent back to Bedrock alone, byte for byte.
 */
import type { EncodeContext } from '../codec';
import type { ChatRequest, ReasoningEffort, ReasoningPart, RedactedReasoningPart } from '../ir';
import { type Json, obj, str } from '../json';
import { budgetOf, continuesSignedTurn, effortOf } from '../reasoning';
import { claudeThinks, gptOssReasons, novaReasons } from './models';

/** Claude's smallest thinking budget (Anthropic's extended-thinking guide). */
const MIN_BUDGET = 1024;

/**
 * The fields to add to `additionalModelRequestFields` for the request's reasoning (empty when
 * none). Claude: on → `thinking` enabled with a budget below `maxTokens` (Bedrock refuses one at
 * or above it); off is Claude's default; 'default' (an effort alone) is dropped, as the Anthropic
 * codec drops it. `forced`: a tool is forced, which Claude refuses with thinking, so it is dropped;
 * so is thinking that would continue a tool turn Bedrock did not sign (Claude refuses that too).
 * Nova 2 and gpt-oss: on and 'default' → `reasoningConfig` (Nova) or `reasoning_effort` (gpt-oss)
 * with the effort as low, medium or high; gpt-oss cannot stop reasoning, so off is dropped there.
 */
export function encodeReasoningFields(
  request: ChatRequest,
  maxTokens: number,
  forced: boolean,
  context: EncodeContext,
): Json {
  const r = request.reasoning;
  if (!r) return {};
  if (r.mode === 'off') {
    // gpt-oss always reasons (its lowest effort is low); every other model's default is not to.
    if (gptOssReasons(context.model)) context.dropped.push('reasoning');
    return {};
  }
  if (novaReasons(context.model) || gptOssReasons(context.model)) {
    const level = levelOf(effortOf(r));
    if (level === null) return {};
    return novaReasons(context.model)
      ? { reasoningConfig: { type: 'enabled', maxReasoningEffort: level } }
      : { reasoning_effort: level };
  }
  if (
    !claudeThinks(context.model) ||
    r.mode === 'default' ||
    forced ||
    !continuesSignedTurn(request, 'bedrock')
  ) {
    context.dropped.push('reasoning');
    return {};
  }
  const budget = Math.min(budgetOf(r), maxTokens - 1);
  if (budget < MIN_BUDGET) {
    context.dropped.push('reasoning');
    return {};
  }
  return { thinking: { type: 'enabled', budget_tokens: budget } };
}

/** An effort on the low / medium / high scale Nova 2 and gpt-oss take; null for none. */
function levelOf(effort: ReasoningEffort): 'low' | 'medium' | 'high' | null {
  if (effort === 'none') return null;
  if (effort === 'minimal' || effort === 'low') return 'low';
  return effort === 'medium' ? 'medium' : 'high';
}

/**
 * A reasoning part of the history as a Converse block: only what Bedrock issued and signed (or
 * redacted), unchanged. Unsigned reasoning (a model that signs nothing, such as DeepSeek R1 or
 * Nova 2) is not sent back: nothing needs it, and Claude refuses reasoning without its signature.
 */
export function reasoningBlock(p: ReasoningPart | RedactedReasoningPart): Json[] {
  if (p.issuer !== 'bedrock') return [];
  if (p.type === 'redacted_reasoning') return [{ reasoningContent: { redactedContent: p.data } }];
  if (p.signature === null) return [];
  return [{ reasoningContent: { reasoningText: { text: p.text, signature: p.signature } } }];
}

/** A `reasoningContent` block of an answer as a canonical part, or null when it holds neither form. */
export function reasoningPart(block: Json): ReasoningPart | RedactedReasoningPart | null {
  const redacted = str(block.redactedContent);
  if (redacted !== null) return { type: 'redacted_reasoning', data: redacted, issuer: 'bedrock' };
  const text = obj(block.reasoningText);
  if (!text) return null;
  return { type: 'reasoning', text: str(text.text) ?? '', signature: str(text.signature), issuer: 'bedrock' };
}
