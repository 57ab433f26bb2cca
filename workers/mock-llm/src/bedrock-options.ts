/**
 * The Converse request's model options: Anthropic's `thinking` passed in
 * `additionalModelRequestFields` (only to `anthropic.*` / `<region>.anthropic.*`
 * models, checked as Anthropic checks it, errors relayed as "The model returned
 * the following errors: …"), `outputConfig` (`textFormat` json_schema with the
 * schema as a JSON string, and `effort`), and the reasoning blocks a request
 * carries back, to be checked. Pure.
 */
import type { OutputFormat } from './completion';
import { type Effort, type Thinking, THINKING_WORDS } from './messages-options';
import type { SignedItem } from './signature';
import { fail, isRecord, type Parsed } from './validate';

const ANTHROPIC_MODEL = /^(?:[a-z]{2,6}\.)?anthropic\./;
/** Fields an Anthropic model on Bedrock accepts in additionalModelRequestFields. */
const ANTHROPIC_FIELDS = new Set(['top_k', 'thinking', 'anthropic_beta']);
const MIN_BUDGET = 1024;

const modelError = (message: string) => fail(`The model returned the following errors: ${message}`);

export interface BedrockOptions {
  readonly thinking: Thinking | undefined;
  readonly format: OutputFormat | undefined;
}

function parseThinking(
  raw: unknown,
  maxTokens: number | undefined,
  effort: Effort,
): Parsed<Thinking | undefined> {
  if (raw === undefined) return { ok: true, value: undefined };
  if (!isRecord(raw) || !['enabled', 'adaptive', 'disabled'].includes(raw.type as string))
    return modelError(
      "thinking: Input tag found using 'type' does not match any of the expected tags: 'enabled', 'disabled', 'adaptive'",
    );
  if (raw.type === 'disabled') return { ok: true, value: undefined };
  if (raw.type === 'enabled') {
    const budget = raw.budget_tokens;
    if (!Number.isInteger(budget)) return modelError('thinking.enabled.budget_tokens: Field required');
    if ((budget as number) < MIN_BUDGET)
      return modelError(
        `thinking.enabled.budget_tokens: Input should be greater than or equal to ${MIN_BUDGET}`,
      );
    if (maxTokens !== undefined && maxTokens <= (budget as number))
      return modelError('`max_tokens` must be greater than `thinking.budget_tokens`.');
  }
  return { ok: true, value: { words: THINKING_WORDS[effort], omitted: raw.display === 'omitted' } };
}

function parseOutputConfig(raw: unknown): Parsed<{ format: OutputFormat | undefined; effort: Effort }> {
  if (raw === undefined) return { ok: true, value: { format: undefined, effort: 'high' } };
  if (!isRecord(raw)) return fail('Malformed input request: outputConfig must be an object.');
  const effort = raw.effort ?? 'high';
  if (typeof effort !== 'string' || !(effort in THINKING_WORDS))
    return fail(
      `1 validation error detected: Value '${JSON.stringify(effort)}' at 'outputConfig.effort' failed to satisfy constraint: Member must satisfy enum value set: [low, medium, high, max]`,
    );
  const format = raw.textFormat;
  if (format === undefined) return { ok: true, value: { format: undefined, effort: effort as Effort } };
  if (!isRecord(format) || format.type !== 'json_schema')
    return fail(
      "1 validation error detected: Value at 'outputConfig.textFormat.type' failed to satisfy constraint: Member must satisfy enum value set: [json_schema]",
    );
  const definition = isRecord(format.structure) ? format.structure.jsonSchema : undefined;
  const text = isRecord(definition) ? definition.schema : undefined;
  if (typeof text !== 'string')
    return fail(
      'Malformed input request: outputConfig.textFormat.structure.jsonSchema.schema must be a JSON string.',
    );
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch {
    schema = undefined;
  }
  if (!isRecord(schema))
    return fail('The provided JSON schema is invalid. Provide a valid JSON schema and try again.');
  return { ok: true, value: { format: { kind: 'json_schema', schema }, effort: effort as Effort } };
}

/** Checks additionalModelRequestFields for `model` and reads the options. */
export function parseBedrockOptions(
  body: Record<string, unknown>,
  model: string,
  maxTokens: number | undefined,
): Parsed<BedrockOptions> {
  const config = parseOutputConfig(body.outputConfig);
  if (!config.ok) return config;
  const extra = body.additionalModelRequestFields;
  if (extra === undefined) return { ok: true, value: { thinking: undefined, format: config.value.format } };
  if (!isRecord(extra))
    return fail('Malformed input request: additionalModelRequestFields must be an object.');
  const anthropic = ANTHROPIC_MODEL.test(model);
  const foreign = Object.keys(extra).find((k) => !(anthropic && ANTHROPIC_FIELDS.has(k)));
  if (foreign !== undefined)
    return modelError(
      `Malformed input request: extraneous key [${foreign}] is not permitted, please reformat your input and try again.`,
    );
  const thinking = parseThinking(extra.thinking, maxTokens, config.value.effort);
  if (!thinking.ok) return thinking;
  return { ok: true, value: { thinking: thinking.value, format: config.value.format } };
}

/** A reasoningContent block in an assistant message: what it vouches for, or a problem. */
export function reasoningItem(block: unknown, at: string): Parsed<SignedItem> {
  const reasoning = isRecord(block) ? block : {};
  if (isRecord(reasoning.reasoningText)) {
    const { text, signature } = reasoning.reasoningText;
    if (typeof text !== 'string')
      return fail(`Malformed input request: ${at}.reasoningContent.reasoningText needs text.`);
    return { ok: true, value: { at, kind: 'thinking', text, token: signature } };
  }
  if (typeof reasoning.redactedContent === 'string')
    return { ok: true, value: { at, kind: 'redacted', text: '', token: reasoning.redactedContent } };
  return fail(
    `Malformed input request: ${at}.reasoningContent must set exactly one of reasoningText, redactedContent.`,
  );
}
