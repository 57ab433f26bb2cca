/**
 * The Messages request's model options, validated with Anthropic's messages:
 * `thinking` (enabled with a budget of at least 1024 and below max_tokens,
 * adaptive, or disabled; `display` summarized or omitted), `output_config`
 * (`effort`, and `format` json_schema for structured outputs),
 * `context_management` (its `edits`, shape only) and `tool_choice`. Pure.
 */
import type { OutputFormat } from './completion';
import { fail, isRecord, type Parsed } from './validate';

export type Effort = 'low' | 'medium' | 'high' | 'max';

export interface Thinking {
  /** Reasoning words before the answer (README: by effort). */
  readonly words: number;
  /** `display: "omitted"`: the thinking text is returned empty, the signature still present. */
  readonly omitted: boolean;
}

export interface MessagesOptions {
  readonly thinking: Thinking | undefined;
  readonly format: OutputFormat | undefined;
  /** A tool `tool_choice` forces (`tool` by name, `any` the first), if any. */
  readonly forcedTool: string | 'any' | undefined;
}

/** Reasoning words per effort; thinking without an effort thinks as `high`, the API's default. */
export const THINKING_WORDS: Readonly<Record<Effort, number>> = { low: 8, medium: 16, high: 24, max: 32 };
const MIN_BUDGET = 1024;

function parseThinking(
  raw: unknown,
  maxTokens: number | undefined,
  effort: Effort,
): Parsed<Thinking | undefined> {
  if (raw === undefined || raw === null) return { ok: true, value: undefined };
  if (!isRecord(raw)) return fail('thinking: Input should be a valid dictionary', 'thinking');
  const type = raw.type;
  if (type !== 'enabled' && type !== 'disabled' && type !== 'adaptive')
    return fail(
      `thinking: Input tag '${String(type)}' found using 'type' does not match any of the expected tags: 'enabled', 'disabled', 'adaptive'`,
      'thinking',
    );
  if (type === 'disabled') return { ok: true, value: undefined };
  if (raw.display !== undefined && raw.display !== 'summarized' && raw.display !== 'omitted')
    return fail(`thinking.${type}.display: Input should be 'summarized' or 'omitted'`, 'thinking');
  if (type === 'enabled') {
    const budget = raw.budget_tokens;
    if (budget === undefined) return fail('thinking.enabled.budget_tokens: Field required', 'thinking');
    if (!Number.isInteger(budget))
      return fail('thinking.enabled.budget_tokens: Input should be a valid integer', 'thinking');
    if ((budget as number) < MIN_BUDGET)
      return fail(
        `thinking.enabled.budget_tokens: Input should be greater than or equal to ${MIN_BUDGET}`,
        'thinking',
      );
    if (maxTokens !== undefined && maxTokens <= (budget as number))
      return fail(
        '`max_tokens` must be greater than `thinking.budget_tokens`. Please ensure that `max_tokens` is greater than `thinking.budget_tokens`. See https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size for details.',
        'thinking',
      );
  }
  return { ok: true, value: { words: THINKING_WORDS[effort], omitted: raw.display === 'omitted' } };
}

function parseOutputConfig(raw: unknown): Parsed<{ effort: Effort; format: OutputFormat | undefined }> {
  if (raw === undefined || raw === null) return { ok: true, value: { effort: 'high', format: undefined } };
  if (!isRecord(raw)) return fail('output_config: Input should be a valid dictionary', 'output_config');
  const effort = raw.effort ?? 'high';
  if (typeof effort !== 'string' || !(effort in THINKING_WORDS))
    return fail("output_config.effort: Input should be 'low', 'medium', 'high' or 'max'", 'output_config');
  const format = raw.format;
  if (format === undefined || format === null)
    return { ok: true, value: { effort: effort as Effort, format: undefined } };
  if (!isRecord(format))
    return fail('output_config.format: Input should be a valid dictionary', 'output_config');
  if (format.type !== 'json_schema')
    return fail("output_config.format.type: Input should be 'json_schema'", 'output_config');
  if (format.schema === undefined)
    return fail('output_config.format.schema: Field required', 'output_config');
  if (!isRecord(format.schema))
    return fail('output_config.format.schema: Input should be a valid dictionary', 'output_config');
  return {
    ok: true,
    value: { effort: effort as Effort, format: { kind: 'json_schema', schema: format.schema } },
  };
}

function checkContextManagement(raw: unknown): Parsed<undefined> {
  if (raw === undefined || raw === null) return { ok: true, value: undefined };
  if (!isRecord(raw))
    return fail('context_management: Input should be a valid dictionary', 'context_management');
  if (raw.edits === undefined) return { ok: true, value: undefined };
  if (!Array.isArray(raw.edits))
    return fail('context_management.edits: Input should be a valid list', 'context_management');
  for (const [i, edit] of raw.edits.entries()) {
    if (!isRecord(edit))
      return fail(`context_management.edits.${i}: Input should be a valid dictionary`, 'context_management');
    if (typeof edit.type !== 'string')
      return fail(`context_management.edits.${i}.type: Field required`, 'context_management');
  }
  return { ok: true, value: undefined };
}

function parseToolChoice(raw: unknown): Parsed<string | 'any' | undefined> {
  if (raw === undefined || raw === null) return { ok: true, value: undefined };
  if (!isRecord(raw) || !['auto', 'any', 'tool', 'none'].includes(raw.type as string))
    return fail(
      "tool_choice: Input tag found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none'",
      'tool_choice',
    );
  if (raw.type === 'any') return { ok: true, value: 'any' };
  if (raw.type !== 'tool') return { ok: true, value: undefined };
  if (typeof raw.name !== 'string') return fail('tool_choice.tool.name: Field required', 'tool_choice');
  return { ok: true, value: raw.name };
}

export function parseMessagesOptions(
  body: Record<string, unknown>,
  maxTokens: number | undefined,
): Parsed<MessagesOptions> {
  const config = parseOutputConfig(body.output_config);
  if (!config.ok) return config;
  const thinking = parseThinking(body.thinking, maxTokens, config.value.effort);
  if (!thinking.ok) return thinking;
  const context = checkContextManagement(body.context_management);
  if (!context.ok) return context;
  const choice = parseToolChoice(body.tool_choice);
  if (!choice.ok) return choice;
  return {
    ok: true,
    value: { thinking: thinking.value, format: config.value.format, forcedTool: choice.value },
  };
}
