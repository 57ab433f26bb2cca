/**
 * Guardrails on the tool path (pure; docs/mcp.md, "Guardrails"), by the key's effective policy
 * (src/core/guardrail-policy.ts):
 * - a call's arguments are scanned for credentials (the `secrets` guardrail's request action: `log`,
 *   `flag`, `redact` the values before the call, or `block` it);
 * - a call's result is what an agent reads next, the indirect-injection path: its texts are judged by the
 *   tool-result injection detector (`injection.tool_results`: `quarantine` replaces the result with a
 *   notice, `block` refuses it) and scanned for PII, credentials and deny-list terms (each guardrail's
 *   response action; `redact` rewrites the result's texts).
 * Verdicts are recorded as on /v1 (counts and kinds, never values).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { EffectivePolicy } from '../core/guardrail-policy';
import type { LogGuardrail } from '../core/log-event';
import { type Finding, type FindingKind, SECRET_KINDS, type SpanFinder } from '../guardrails/finding';
import { judgeToolResults, TOOL_RESULT_THRESHOLD } from '../guardrails/injection/tool-results';
import { sensitiveFinder } from '../guardrails/pii/finder';
import { Placeholders } from '../guardrails/pii/placeholders';
import { redactText } from '../guardrails/pii/redact';
import { guardrailOf, spanFinder } from '../guardrails/scanners';
import { TOOL_RESULT_NOTICE } from '../guardrails/tool-result-guard';
import { tally } from '../guardrails/verdicts';

export interface Guarded<T> {
  readonly value: T;
  /** The guardrail that refuses the call (its action is `block`); null when none does. */
  readonly blocked: string | null;
}

let secretsFinder: SpanFinder | null = null;
const secrets = () => {
  secretsFinder ??= sensitiveFinder(new Set<FindingKind>(SECRET_KINDS));
  return secretsFinder;
};

/** Rewrites every string in a JSON value (arguments, structured content) with `edit`. */
function mapStrings(value: unknown, edit: (text: string) => string): unknown {
  if (typeof value === 'string') return edit(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, edit));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, edit)]));
  return value;
}

/** The call's arguments after the secrets guardrail. */
export function guardArguments(
  policy: EffectivePolicy,
  args: Record<string, unknown> | undefined,
  verdicts: LogGuardrail[],
): Guarded<Record<string, unknown> | undefined> {
  const action = policy.request.secrets;
  if (action === 'off' || args === undefined) return { value: args, blocked: null };
  const placeholders = new Placeholders();
  let blocked: string | null = null;
  const value = mapStrings(args, (text) => {
    const found = secrets().find(text);
    if (found.length === 0) return text;
    for (const f of found) tally(verdicts, 'secrets', 'request', action, f.kind);
    if (action === 'block') blocked = 'secrets';
    return action === 'redact' ? redactText(text, found, placeholders) : text;
  }) as Record<string, unknown>;
  return { value, blocked };
}

/** Every text of a result an agent reads: its text blocks, embedded text resources and structured content. */
function resultTexts(result: CallToolResult): string[] {
  const texts: string[] = [];
  for (const block of result.content ?? []) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'resource' && 'text' in block.resource) texts.push(String(block.resource.text));
  }
  if (result.structuredContent !== undefined) texts.push(JSON.stringify(result.structuredContent));
  return texts;
}

/** The call's result after the injection detector and the span guardrails. */
export function guardResult(
  policy: EffectivePolicy,
  result: CallToolResult,
  verdicts: LogGuardrail[],
): Guarded<CallToolResult> {
  const texts = resultTexts(result);
  if (texts.length === 0) return { value: result, blocked: null };

  const injection = policy.toolResults;
  if (injection !== 'off') {
    const threshold = policy.toolThreshold ?? TOOL_RESULT_THRESHOLD;
    const score = judgeToolResults([texts.join('\n')]).scores[0] ?? 0;
    if (score >= threshold) {
      const verdict = tally(verdicts, 'injection', 'tool', injection, 'tool_result');
      verdict.score = Math.round(score * 1e4) / 1e4;
      verdict.results = [{ index: 0, id: null, score: verdict.score }];
      if (injection === 'block') return { value: result, blocked: 'injection' };
      if (injection === 'quarantine')
        return {
          value: { content: [{ type: 'text', text: TOOL_RESULT_NOTICE }], isError: true },
          blocked: null,
        };
    }
  }

  const finder = spanFinder(policy, 'response');
  if (!finder) return { value: result, blocked: null };
  const placeholders = new Placeholders();
  let blocked: string | null = null;
  const edit = (text: string): string => {
    const found = finder.find(text);
    const redact: Finding[] = [];
    for (const f of found) {
      const guardrail = guardrailOf(f.kind);
      const action = policy.response[guardrail];
      if (action === 'off') continue;
      tally(verdicts, guardrail, 'response', action, f.kind);
      if (action === 'block') blocked ??= guardrail;
      else if (action === 'redact') redact.push(f);
    }
    return redact.length > 0 ? redactText(text, redact, placeholders) : text;
  };
  const content = (result.content ?? []).map((block) => {
    if (block.type === 'text') return { ...block, text: edit(block.text) };
    if (block.type === 'resource' && 'text' in block.resource)
      return { ...block, resource: { ...block.resource, text: edit(String(block.resource.text)) } };
    return block;
  });
  const value: CallToolResult = { ...result, content };
  if (result.structuredContent !== undefined)
    value.structuredContent = mapStrings(result.structuredContent, edit) as Record<string, unknown>;
  return { value, blocked };
}
