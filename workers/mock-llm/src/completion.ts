/**
 * What the mock "says", independent of wire format: reasoning words (when the
 * request asks the model to think), then echo or generated text, a JSON
 * document for a structured-output request, or a tool call, all cut by the
 * token limit. Every route builds its answer from this. Pure.
 *
 * Tool calls, first match wins: a forced call (the provider's tool choice, or
 * `mock.tool_call` / `mock.tool_name`) with arguments made from the tool's
 * input schema; else a `TOOL <name> <json>` line in the last user turn (README
 * "Tool calls agents can complete"). A last turn carrying tool results is
 * answered with text (echo models: `Tool result: ` and the first result when
 * the turn has no text of its own, else the turn's text as usual).
 */
import type { Controls } from './controls';
import { canonicalJson, fnv1a } from './hash';
import { schemaValue, toolArguments } from './schema-value';
import { echoTokens, generatedTokens, lastUserText, type MessageLike } from './text';
import { directiveIn, lastTurn } from './turn';

/** Output tokens charged for a tool call, whatever its arguments. */
export const TOOL_CALL_TOKENS = 8;
/** A JSON answer is cut into pieces of this many characters, one token each (unless `mock.chunk_chars`). */
export const JSON_PIECE_CHARS = 8;
/** An echoed tool result is cut to this many characters. */
export const TOOL_RESULT_CHARS = 200;
/** Salt that keeps the reasoning words apart from the answer's. */
const REASONING_SALT = 0x7f4a7c15;

export type Completion =
  | {
      readonly kind: 'text';
      readonly tokens: readonly string[];
      /** True when the token limit cut the answer (or the reasoning) short. */
      readonly truncated: boolean;
      readonly reasoning: readonly string[];
    }
  | {
      readonly kind: 'tool';
      readonly name: string;
      readonly input: Readonly<Record<string, unknown>>;
      readonly reasoning: readonly string[];
    };

/** A tool the request offers: its name and input schema (JSON Schema, or Google's). */
export interface ToolSpec {
  readonly name: string;
  readonly schema: unknown;
}

/**
 * A structured-output request: a JSON document valid against `schema`, (json_object)
 * any object, or (enum, Gemini's `text/x.enum`) the schema's value as plain text.
 */
export type OutputFormat =
  | { readonly kind: 'enum'; readonly schema: unknown }
  | { readonly kind: 'json_schema'; readonly schema: unknown }
  | { readonly kind: 'json_object' };

export interface CompletionInput {
  readonly model: string;
  readonly messages: readonly MessageLike[];
  /** Seed from `contentSeed`. */
  readonly seed: number;
  /** The request's token limit, if any (reasoning counts against it). */
  readonly maxTokens: number | undefined;
  /** The tools the request offers, in order. */
  readonly tools: readonly ToolSpec[];
  /** A tool the provider's tool choice forces, if any. */
  readonly forcedTool?: string | undefined;
  readonly format?: OutputFormat | undefined;
  /** Reasoning words to produce before the answer (0: the model does not think). */
  readonly reasoningWords?: number;
  readonly controls: Controls;
}

/** Models whose id starts with "echo" repeat the last user message. */
export function isEchoModel(model: string): boolean {
  return model.startsWith('echo');
}

/** Seed for the text: depends on `model` and `messages` only, so controls never change the words. */
export function contentSeed(model: string, messages: unknown): number {
  return fnv1a(canonicalJson({ model, messages }));
}

/** Seed for ids: the rest of the body too, minus `mock` and the streaming switches. */
export function requestSeed(body: Readonly<Record<string, unknown>>, seed: number): number {
  const { messages: _messages, mock: _mock, stream: _stream, stream_options: _options, ...rest } = body;
  return fnv1a(canonicalJson(rest), seed);
}

function limited(all: string[], limit: number, reasoning: readonly string[], cut: boolean): Completion {
  return all.length > limit
    ? { kind: 'text', tokens: all.slice(0, limit), truncated: true, reasoning }
    : { kind: 'text', tokens: all, truncated: cut, reasoning };
}

/** The tool a forced call uses: the forced one, `mock.tool_name`, or (with `mock.tool_call`) the first. */
function forcedCall(input: CompletionInput): ToolSpec | undefined {
  const { tools, controls } = input;
  if (input.forcedTool !== undefined) return tools.find((t) => t.name === input.forcedTool);
  if (controls.tool_name !== undefined) return tools.find((t) => t.name === controls.tool_name);
  return controls.tool_call ? tools[0] : undefined;
}

/** `results`: the tool results of a last turn that has no text of its own (else empty). */
function answerText(input: CompletionInput, results: readonly string[]): string[] {
  const pieces = input.controls.chunk_chars;
  if (input.format !== undefined) {
    if (input.format.kind === 'enum') return [String(schemaValue(input.format.schema))];
    const value =
      input.format.kind === 'json_schema'
        ? schemaValue(input.format.schema)
        : {
            text: isEchoModel(input.model)
              ? lastUserText(input.messages)
              : generatedTokens(input.seed, input.controls.tokens).join(''),
          };
    return fixedPieces(JSON.stringify(value), pieces ?? JSON_PIECE_CHARS);
  }
  if (!isEchoModel(input.model)) return generatedTokens(input.seed, input.controls.tokens);
  const text =
    results.length > 0
      ? `Tool result: ${(results[0] as string).trim().slice(0, TOOL_RESULT_CHARS)}`
      : lastUserText(input.messages);
  return pieces === undefined ? echoTokens(text) : fixedPieces(text, pieces);
}

export function complete(input: CompletionInput): Completion {
  let limit = input.maxTokens ?? Number.POSITIVE_INFINITY;
  const wanted = input.reasoningWords ?? 0;
  const reasoning = wanted > 0 ? generatedTokens(input.seed ^ REASONING_SALT, Math.min(wanted, limit)) : [];
  limit -= reasoning.length;
  const forced = input.tools.length > 0 ? forcedCall(input) : undefined;
  if (forced) return { kind: 'tool', name: forced.name, input: toolArguments(forced.schema), reasoning };
  const turn = input.tools.length > 0 || isEchoModel(input.model) ? lastTurn(input.messages) : undefined;
  const directive = turn && input.tools.length > 0 ? directiveIn(turn.text) : undefined;
  if (directive && input.tools.some((t) => t.name === directive.name))
    return { kind: 'tool', name: directive.name, input: directive.input, reasoning };
  const onlyResults = turn && turn.text.trim() === '' ? turn.results : [];
  return limited(answerText(input, onlyResults), limit, reasoning, reasoning.length < wanted);
}

/** Output tokens of a completion, as reported in usage (reasoning included). */
export function outputTokens(completion: Completion): number {
  return (
    completion.reasoning.length + (completion.kind === 'tool' ? TOOL_CALL_TOKENS : completion.tokens.length)
  );
}

/** The answer's text tokens (none for a tool call). */
export function answerTokens(completion: Completion): readonly string[] {
  return completion.kind === 'tool' ? [] : completion.tokens;
}

/** `text` in pieces of `size` characters (the last may be shorter): values split mid-word across events. */
function fixedPieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}
