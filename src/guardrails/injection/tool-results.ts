/**
 * The injection detector's indirect path: tool results (chat `tool` messages,
 * Anthropic `tool_result` blocks, Responses `function_call_output` items, MCP
 * tool results), judged one result at a time, each by its own score against
 * its own threshold, so a turn carrying many benign results is not judged by
 * the worst of them as one text.
 *
 * Budget: each result is scanned over at most MAX_TEXT_SCAN units, all of a
 * request's results over at most MAX_TOOL_RESULTS_SCAN, newest first;
 * `truncated` says when some result was cut or skipped.
 */
import { INJECTION_THRESHOLD, MAX_TEXT_SCAN, injectionScore } from './index';

export const MAX_TOOL_RESULTS_SCAN = 16 * MAX_TEXT_SCAN;

/** The default threshold for tool results. */
export const TOOL_RESULT_THRESHOLD: number = INJECTION_THRESHOLD;

/** How likely one tool result carries an injected instruction, in [0, 1]. */
export function toolResultScore(text: string): number {
  return injectionScore(text);
}

export interface ToolResultJudgement {
  /** One score per result, in the order given (0 for a result that was not scanned). */
  readonly scores: readonly number[];
  /** Some result was longer than its scan budget, or skipped when the request's budget ran out. */
  readonly truncated: boolean;
}

/** Scores every tool result of a request, newest first within the request's scan budget. */
export function judgeToolResults(texts: readonly string[]): ToolResultJudgement {
  const scores = new Array<number>(texts.length).fill(0);
  let budget = MAX_TOOL_RESULTS_SCAN;
  let truncated = false;
  for (let i = texts.length - 1; i >= 0; i--) {
    const text = texts[i]!;
    const cap = Math.min(MAX_TEXT_SCAN, budget);
    if (text.length > cap) truncated = true;
    if (cap === 0) continue;
    scores[i] = toolResultScore(cap < text.length ? text.slice(0, cap) : text);
    budget -= Math.min(text.length, cap);
  }
  return { scores, truncated };
}
