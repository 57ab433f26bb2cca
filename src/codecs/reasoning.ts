/**
 * Reasoning shared by every format (pure): an effort as a thinking budget and back, for formats
 * that speak one where the client spoke the other. The table is documented in docs/translation.md.
 */
import type { Reasoning, ReasoningEffort } from './ir';

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

/** Reasoning text in a part or a run of parts: what a format without signatures can still show. */
export const joinReasoning = (parts: readonly { type: string; text?: string }[]): string =>
  parts.map((p) => (p.type === 'reasoning' ? (p.text ?? '') : '')).join('');
