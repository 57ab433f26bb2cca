/**
 * What the mock "says", independent of wire format: echo or generated text,
 * truncated by the token limit, or a tool call. Both the OpenAI and the
 * Anthropic routes build their answer from this. Pure.
 */
import type { Controls } from './controls';
import { canonicalJson, fnv1a } from './hash';
import { echoTokens, generatedTokens, lastUserText, type MessageLike } from './text';

/** Output tokens charged for a tool call, whatever its arguments. */
export const TOOL_CALL_TOKENS = 8;

export type Completion =
  | {
      readonly kind: 'text';
      readonly tokens: readonly string[];
      /** True when the token limit cut the answer short. */
      readonly truncated: boolean;
    }
  | { readonly kind: 'tool'; readonly name: string };

export interface CompletionInput {
  readonly model: string;
  readonly messages: readonly MessageLike[];
  /** Seed from `contentSeed`. */
  readonly seed: number;
  /** The request's token limit, if any. */
  readonly maxTokens: number | undefined;
  /** Name of the first tool the request offers, if any. */
  readonly firstTool: string | undefined;
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

export function complete(input: CompletionInput): Completion {
  if (input.controls.tool_call && input.firstTool !== undefined)
    return { kind: 'tool', name: input.firstTool };
  const limit = input.maxTokens ?? Number.POSITIVE_INFINITY;
  if (isEchoModel(input.model)) {
    const text = lastUserText(input.messages);
    const size = input.controls.chunk_chars;
    const all = size === undefined ? echoTokens(text) : fixedPieces(text, size);
    return all.length > limit
      ? { kind: 'text', tokens: all.slice(0, limit), truncated: true }
      : { kind: 'text', tokens: all, truncated: false };
  }
  const wanted = input.controls.tokens;
  return wanted > limit
    ? { kind: 'text', tokens: generatedTokens(input.seed, limit), truncated: true }
    : { kind: 'text', tokens: generatedTokens(input.seed, wanted), truncated: false };
}

/** Output tokens of a completion, as reported in usage. */
export function outputTokens(completion: Completion): number {
  return completion.kind === 'tool' ? TOOL_CALL_TOKENS : completion.tokens.length;
}

/** `text` in pieces of `size` characters (the last may be shorter): values split mid-word across events. */
function fixedPieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}
