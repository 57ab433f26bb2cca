/**
 * Reasoning shared by every format (pure): an effort as a thinking budget and back, for formats
 * that speak one where the client spoke the other (the table is documented in docs/translation.md),
 * and the wrapping of a signature another format issued, for a client format that carries only its own.
 */
import type { ChatRequest, Reasoning, ReasoningEffort, ReasoningIssuer } from './ir';

/** Thinking budgets (tokens) an effort stands for where a format takes a budget (Anthropic, Gemini 2.5, Bedrock). */
const BUDGETS: Readonly<Record<ReasoningEffort, number>> = {
  none: 0,
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 32768,
  max: 32768,
};

/** The budget for a reasoning request: its own, else its effort's, else medium's. */
export function budgetOf(reasoning: Reasoning): number {
  return reasoning.budgetTokens ?? BUDGETS[reasoning.effort ?? 'medium'];
}

/** The effort for a reasoning request: its own, else the nearest to its budget, else medium. */
export function effortOf(reasoning: Reasoning): ReasoningEffort {
  if (reasoning.effort) return reasoning.effort;
  const budget = reasoning.budgetTokens;
  if (budget === null) return 'medium';
  if (budget <= BUDGETS.low) return 'low';
  if (budget <= BUDGETS.medium) return 'medium';
  return 'high';
}

const EFFORTS: ReadonlySet<string> = new Set(Object.keys(BUDGETS));
export const isEffort = (v: unknown): v is ReasoningEffort => typeof v === 'string' && EFFORTS.has(v);

/**
 * Whether the assistant turn a request continues lets Claude think (on Anthropic's API or Bedrock):
 * a turn that called tools must start with the thinking block its issuer signed, or Claude refuses
 * the request with thinking on (the history came from another provider, or from a turn without).
 */
export function continuesSignedTurn(request: ChatRequest, issuer: ReasoningIssuer): boolean {
  const last = [...request.messages].reverse().find((m) => m.role === 'assistant');
  if (!last?.content.some((p) => p.type === 'tool_call')) return true;
  const first = last.content[0];
  if (first?.type === 'redacted_reasoning') return first.issuer === issuer;
  return first?.type === 'reasoning' && first.issuer === issuer && first.signature !== null;
}

/** Claude takes top_p from 0.95 up only beside thinking, and no temperature other than 1 nor top_k. */
const THINKING_MIN_TOP_P = 0.95;

/**
 * The sampling settings Claude takes (on Anthropic's API or Bedrock): all of them without thinking;
 * beside thinking, those it refuses there are left out (null) and named in `dropped`, since they
 * tune the sampling while the client asked for the reasoning itself.
 */
export function claudeSampling(
  request: ChatRequest,
  thinking: boolean,
  dropped: string[],
): { temperature: number | null; topP: number | null; topK: number | null } {
  const keep = (field: string, value: number | null, allowed: (v: number) => boolean) => {
    if (value === null || !thinking || allowed(value)) return value;
    dropped.push(field);
    return null;
  };
  return {
    temperature: keep('temperature', request.temperature, (v) => v === 1),
    topP: keep('top_p', request.topP, (v) => v >= THINKING_MIN_TOP_P),
    topK: keep('top_k', request.topK, () => false),
  };
}

const WRAP = 'edgeway:';
const ISSUERS: ReadonlySet<string> = new Set<ReasoningIssuer>(['anthropic', 'gemini', 'bedrock', 'openai']);

/**
 * A signature (or redacted data) as a client of `own`'s format carries it: its own issuer's unchanged,
 * another's as `edgeway:<issuer>:<value>`, so it comes back to the gateway naming who can verify it.
 */
export function wrapForeign(value: string, issuer: ReasoningIssuer | null, own: ReasoningIssuer): string {
  return issuer === null || issuer === own ? value : `${WRAP}${issuer}:${value}`;
}

/** A signature as a client of `own`'s format sent it back: unwrapped, with who issued it (`own` when unwrapped). */
export function unwrapForeign(
  value: string,
  own: ReasoningIssuer,
): { value: string; issuer: ReasoningIssuer } {
  if (value.startsWith(WRAP)) {
    const colon = value.indexOf(':', WRAP.length);
    const issuer = value.slice(WRAP.length, colon);
    if (colon > 0 && issuer !== own && ISSUERS.has(issuer))
      return { value: value.slice(colon + 1), issuer: issuer as ReasoningIssuer };
  }
  return { value, issuer: own };
}
