/**
 * The canonical reasoning request → Gemini's `generationConfig.thinkingConfig` (pure), by model
 * generation, as Google's thinking guide (ai.google.dev/gemini-api/docs/thinking) and the
 * GenerationConfig reference document it: Gemini 3 takes a `thinkingLevel` ('low' | 'high'),
 * Gemini 2.5 a `thinkingBudget` within each model's range (Pro 128–32768 and cannot stop
 * thinking; Flash 0–24576; Flash-Lite 512–24576 or 0), and the two are never sent together.
 * Models before 2.5 do not think: a reasoning request to them is dropped and named.
 */
import type { EncodeContext } from '../codec';
import type { Reasoning } from '../ir';
import type { Json } from '../json';
import { budgetOf, effortOf } from '../reasoning';

/** How a model is told to think: by level, by budget within [min, max] (min 0: it may stop), or not at all. */
export type Thinking =
  | { readonly kind: 'level' }
  | { readonly kind: 'budget'; readonly min: number; readonly max: number; readonly canStop: boolean }
  | { readonly kind: 'none' };

const NONE: Thinking = { kind: 'none' };

/**
 * The model's thinking control, read from its id (`gemini-<major>.<minor>-<variant>`). Ids without
 * a version (aliases such as `gemini-flash-latest`, tuned models) are treated as not thinking:
 * sending a thinkingConfig to a model without it is a 400.
 */
export function thinkingOf(model: string): Thinking {
  const id = model.replace(/^models\//, '');
  const version = /^gemini-(\d+)(?:\.(\d+))?-(.*)$/.exec(id);
  if (!version) return NONE;
  const major = Number(version[1]);
  const minor = Number(version[2] ?? 0);
  const variant = version[3] ?? '';
  if (major >= 3) return { kind: 'level' };
  if (major < 2 || minor < 5) return NONE;
  if (variant.startsWith('pro')) return { kind: 'budget', min: 128, max: 32768, canStop: false };
  if (variant.startsWith('flash-lite')) return { kind: 'budget', min: 512, max: 24576, canStop: true };
  return { kind: 'budget', min: 1, max: 24576, canStop: true };
}

/** Whether the model thinks (and so answers with thought parts and signatures). */
export const modelThinks = (model: string): boolean => thinkingOf(model).kind !== 'none';

/**
 * `thinkingConfig` for the request, or null. On and 'default' (an effort alone) think with the
 * request's budget or effort; off stops thinking where the model can (budget 0), and is dropped
 * and named where it cannot (2.5 Pro, Gemini 3). Thought summaries come back unless the client
 * asked for the reasoning to be omitted.
 */
export function encodeThinkingConfig(reasoning: Reasoning | null, context: EncodeContext): Json | null {
  if (!reasoning) return null;
  const thinking = thinkingOf(context.model);
  if (thinking.kind === 'none') {
    if (reasoning.mode !== 'off') context.dropped.push('reasoning');
    return null;
  }
  const summaries = reasoning.display === 'omitted' ? {} : { includeThoughts: true };
  const budget = reasoning.mode === 'off' ? 0 : budgetOf(reasoning);
  if (budget === 0) {
    if (thinking.kind === 'budget' && thinking.canStop) return { thinkingBudget: 0 };
    context.dropped.push('reasoning');
    return null;
  }
  if (thinking.kind === 'level') {
    const effort = effortOf(reasoning);
    const level = effort === 'minimal' || effort === 'low' ? 'low' : 'high';
    return { thinkingLevel: level, ...summaries };
  }
  return { thinkingBudget: Math.min(Math.max(budget, thinking.min), thinking.max), ...summaries };
}
