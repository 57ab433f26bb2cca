/**
 * Anthropic's extended thinking ⇄ the canonical reasoning (pure): the request's `thinking` and
 * `output_config.effort`, and `thinking` / `redacted_thinking` blocks. Anthropic's own signatures
 * travel unchanged; a signature another format issued (a Gemini model's, reached through the
 * gateway) is carried to Anthropic-format clients as `edgeway:<issuer>:<signature>`, so it comes
 * back to the gateway naming who can verify it, and is unwrapped there, byte for byte.
 */
import type { EncodeContext } from '../codec';
import type { ChatRequest, Reasoning, ReasoningIssuer, ReasoningPart, RedactedReasoningPart } from '../ir';
import { type Json, num, obj, str, unsupported } from '../json';
import { budgetOf, continuesSignedTurn, isEffort, unwrapForeign, wrapForeign } from '../reasoning';

/** Anthropic's smallest thinking budget. */
export const MIN_BUDGET = 1024;

/** The request's reasoning, from `thinking` and `output_config.effort`; null when neither is there. */
export function decodeReasoning(thinking: unknown, outputConfig: Json | null): Reasoning | null {
  const t = obj(thinking);
  const effort = outputConfig?.effort;
  if (effort !== undefined && !isEffort(effort))
    throw unsupported('output_config.effort', null, `'${String(effort)}'`);
  if (!t) return effort === undefined ? null : { mode: 'default', effort, budgetTokens: null, display: null };
  const display: Reasoning['display'] =
    t.display === 'omitted' || t.display === 'summarized' ? t.display : null;
  const base = { effort: effort ?? null, display };
  switch (t.type) {
    case 'enabled':
      return { mode: 'on', budgetTokens: num(t.budget_tokens), ...base };
    case 'adaptive':
      return { mode: 'on', budgetTokens: null, ...base };
    case 'disabled':
      return { mode: 'off', budgetTokens: null, ...base };
    default:
      throw unsupported('thinking.type', null, `'${String(t.type)}'`);
  }
}

/**
 * `thinking` for an Anthropic body: on → enabled with a budget below `max_tokens` (its own, or
 * the effort's); off and 'default' → nothing (disabled is the default; an effort alone is
 * dropped: `output_config.effort` exists only on some models). A budget that cannot fit under
 * `max_tokens` is dropped, and named.
 */
export function encodeThinking(request: ChatRequest, maxTokens: number, context: EncodeContext): Json | null {
  const r = request.reasoning;
  if (!r) return null;
  if (r.mode !== 'on') {
    if (r.mode === 'default') context.dropped.push('reasoning');
    return null;
  }
  const budget = Math.min(budgetOf(r), maxTokens - 1);
  if (budget < MIN_BUDGET || !thinkingFits(request)) {
    context.dropped.push('reasoning');
    return null;
  }
  return {
    type: 'enabled',
    budget_tokens: budget,
    ...(r.display === 'omitted' ? { display: 'omitted' } : {}),
  };
}

/** Anthropic refuses thinking beside a tool choice that forces a call, and continuing a tool turn it did not sign. */
function thinkingFits(request: ChatRequest): boolean {
  const choice = request.toolChoice?.type;
  return choice !== 'required' && choice !== 'tool' && continuesSignedTurn(request, 'anthropic');
}

/** A signature or redacted data as an Anthropic client carries it. */
export const wrapSignature = (value: string, issuer: ReasoningIssuer | null): string =>
  wrapForeign(value, issuer, 'anthropic');

/** A signature as an Anthropic client sent it back: unwrapped, with who issued it. */
export const unwrapSignature = (value: string): { value: string; issuer: ReasoningIssuer } =>
  unwrapForeign(value, 'anthropic');

/** A `thinking` block a client sent (signature '' means none: a gateway-made block from an unsigned provider). */
export function decodeThinkingBlock(block: Json): ReasoningPart {
  const signature = str(block.signature) ?? '';
  if (signature === '')
    return { type: 'reasoning', text: str(block.thinking) ?? '', signature: null, issuer: null };
  const { value, issuer } = unwrapSignature(signature);
  return { type: 'reasoning', text: str(block.thinking) ?? '', signature: value, issuer };
}

export function decodeRedactedBlock(block: Json): RedactedReasoningPart {
  const { value, issuer } = unwrapSignature(str(block.data) ?? '');
  return { type: 'redacted_reasoning', data: value, issuer };
}

/** A thinking block to send to an Anthropic-format provider: only what Anthropic issued (it verifies it). */
export function thinkingBlockUpstream(p: ReasoningPart | RedactedReasoningPart): Json[] {
  if (p.issuer !== 'anthropic') return [];
  if (p.type === 'redacted_reasoning') return [{ type: 'redacted_thinking', data: p.data }];
  return p.signature === null ? [] : [{ type: 'thinking', thinking: p.text, signature: p.signature }];
}

/** A thinking block for an Anthropic-format client, carrying whoever's signature there is. */
export function thinkingBlockToClient(p: ReasoningPart | RedactedReasoningPart): Json {
  if (p.type === 'redacted_reasoning')
    return { type: 'redacted_thinking', data: wrapSignature(p.data, p.issuer) };
  return {
    type: 'thinking',
    thinking: p.text,
    signature: p.signature === null ? '' : wrapSignature(p.signature, p.issuer),
  };
}
