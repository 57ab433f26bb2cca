/**
 * The injection detector's indirect path: tool results (chat `tool` messages,
 * Anthropic `tool_result` blocks, Responses `function_call_output` items, MCP
 * tool results), each judged on its own, by its own model (tool-model.ts,
 * trained on tool results and prompts by scripts/guardrails/train-indirect.mjs)
 * and against its own threshold; user turns keep the direct model (index.ts).
 * A result is read as its prose (prose.ts: string values, not structure) and
 * scored sentence window by sentence window (tool-score.ts), so a turn carrying
 * many benign results is not judged by the worst of them as one text, and a
 * long or structured result is not suspicious for being long or structured.
 *
 * Budget: each result's prose is scanned over at most MAX_TOOL_SCAN units
 * (head and tail of a longer one), all of a request's results over at most
 * MAX_TOOL_RESULTS_SCAN units, newest first; `truncated` says when some result
 * was cut or skipped. The model is decoded on first use, once per isolate.
 */
import { decodeModel } from './model-codec';
import type { InjectionModel } from './score';
import { sigmoid } from './score';
import { proseOf } from './prose';
import { MAX_TOOL_SCAN, proseLogit } from './tool-score';
import { SERIALISED_MODEL } from './tool-model';

export const MAX_TOOL_RESULTS_SCAN = 8 * MAX_TOOL_SCAN;

let decoded: InjectionModel | null = null;
const model = (): InjectionModel => {
  decoded ??= decodeModel(SERIALISED_MODEL);
  return decoded;
};

/** The trained default threshold for tool results (user turns keep INJECTION_THRESHOLD). */
export const TOOL_RESULT_THRESHOLD: number = SERIALISED_MODEL.threshold;

/** How likely one tool result carries an injected instruction, in [0, 1], scanning at most `cap` units of its prose. */
export function toolResultScore(text: string, cap = MAX_TOOL_SCAN): number {
  return sigmoid(proseLogit(model(), proseOf(text), cap));
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
    const cap = Math.min(MAX_TOOL_SCAN, budget);
    if (cap === 0) {
      truncated = true;
      continue;
    }
    const prose = proseOf(text);
    if (prose.length > cap) truncated = true;
    scores[i] = sigmoid(proseLogit(model(), prose, cap));
    budget -= Math.min(prose.length, cap);
  }
  return { scores, truncated };
}
