/**
 * The injection guardrail on a request's tool results (pure): each result (a
 * chat `tool` message, an Anthropic `tool_result` block, a Responses
 * `function_call_output` or `custom_tool_call_output`) is judged as one text,
 * its text parts joined with '\n', by the tool-result detector against its own
 * threshold, so one poisoned result among many benign ones is found and
 * named. By the policy's `toolResults` action, the results that fire are
 * recorded (`log`, `flag`), withheld whole (`quarantine`: the result's content
 * becomes TOOL_RESULT_NOTICE and the turn goes on), or refused (`block`). The
 * verdict (side `tool`) lists the results by index, id and score, never their
 * text.
 */
import type { TextSlot, ToolResultRef } from '../codecs/slots';
import type { EffectivePolicy } from '../core/guardrail-policy';
import { LOG_MAX_TOOL_RESULTS, type LogGuardrail, type LogToolResult } from '../core/log-event';
import { judgeToolResults, TOOL_RESULT_THRESHOLD } from './injection/tool-results';
import { tally } from './verdicts';

/** What the model gets instead of a quarantined tool result. */
export const TOOL_RESULT_NOTICE = '[tool result withheld by policy: possible prompt injection]';

export interface ToolResultsGuard {
  /** The results withheld (their slots hold text the model no longer sees). */
  readonly quarantined: ReadonlySet<ToolResultRef>;
  /** The results that refuse the request (policy `block`), in document order; empty when none. */
  readonly blocked: readonly LogToolResult[];
}

const NONE: ToolResultsGuard = { quarantined: new Set(), blocked: [] };

/** Each tool result that holds text, with its text parts joined by '\n', in document order. */
export function toolResultTexts(slots: readonly TextSlot[]): { ref: ToolResultRef; text: string }[] {
  const texts = new Map<ToolResultRef, string[]>();
  for (const s of slots) {
    if (!s.result) continue;
    const parts = texts.get(s.result);
    if (parts) parts.push(s.text);
    else texts.set(s.result, [s.text]);
  }
  return [...texts].map(([ref, parts]) => ({ ref, text: parts.join('\n') }));
}

/** Judges the request's tool results and acts on those that fire, recording the verdict in `verdicts`. */
export function guardToolResults(
  policy: EffectivePolicy,
  slots: readonly TextSlot[],
  verdicts: LogGuardrail[],
): ToolResultsGuard {
  const action = policy.toolResults;
  if (action === 'off') return NONE;
  const results = toolResultTexts(slots);
  if (results.length === 0) return NONE;
  const threshold = policy.toolThreshold ?? TOOL_RESULT_THRESHOLD;
  const { scores } = judgeToolResults(results.map((r) => r.text));
  const fired = results
    .map(({ ref }, i) => ({ ref, score: Math.round(scores[i]! * 1e4) / 1e4, raw: scores[i]! }))
    .filter((r) => r.raw >= threshold);
  if (fired.length === 0) return NONE;

  const listed = fired.map(({ ref, score }) => ({ index: ref.index, id: ref.id, score }));
  const verdict = tally(verdicts, 'injection', 'tool', action, 'tool_result', fired.length);
  verdict.score = Math.max(...listed.map((r) => r.score));
  verdict.results = listed.slice(0, LOG_MAX_TOOL_RESULTS);

  if (action === 'block') return { quarantined: new Set(), blocked: listed };
  if (action !== 'quarantine') return NONE;
  for (const { ref } of fired) ref.quarantine(TOOL_RESULT_NOTICE);
  return { quarantined: new Set(fired.map((r) => r.ref)), blocked: [] };
}
