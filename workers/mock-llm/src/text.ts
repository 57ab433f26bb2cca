/**
 * The mock's "model": turns a request into a list of tokens, and counts prompt
 * tokens, by fixed and documented rules (README "Tokens and usage") that the
 * gateway's tests rely on. Pure; the word list is built once per isolate.
 */
import { prng } from './hash';

const WORD_LIST = (
  'the of and to in is it that for on with as was at by be this are from or have an not but which ' +
  'all were when we there can more one so what about out up time if will would into has like some ' +
  'them than other then its only new also any first well way over even most after make many down ' +
  'gateway edge worker stream token request budget cache route model answer quick brown fox jumps ' +
  'lazy dog river stone cloud light shadow signal window garden paper silver orange market engine ' +
  'bridge forest winter summer ocean planet rocket mirror castle pocket button ticket ladder harbor ' +
  'simple steady gentle bright quiet rapid clever honest modern ancient golden hidden narrow proper ' +
  'build carry share solve learn write check measure follow gather travel return compare'
).split(' ');

/** Words as generated tokens: the first token has no leading space, later ones do. */
const FIRST_WORDS: readonly string[] = WORD_LIST;
const LATER_WORDS: readonly string[] = WORD_LIST.map((w) => ` ${w}`);

/** A message as both APIs send it: content is a string, an array of parts/blocks, or null. */
export interface MessageLike {
  readonly role?: unknown;
  readonly content?: unknown;
}

/** `count` words chosen deterministically from `seed`. */
export function generatedTokens(seed: number, count: number): string[] {
  const next = prng(seed);
  const out = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const words = i === 0 ? FIRST_WORDS : LATER_WORDS;
    out[i] = words[next() % words.length] as string;
  }
  return out;
}

/**
 * Splits text at word boundaries, whitespace travelling with the following word
 * ("hello world" → ["hello", " world"]); trailing whitespace is a token of its own,
 * so the tokens always concatenate back to exactly `text`. Empty text → no tokens.
 */
export function echoTokens(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/** The text of a message's content: a string, or the concatenated `text` of its text parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    if (typeof part === 'object' && part !== null && 'text' in part) {
      const value = (part as { text: unknown }).text;
      if (typeof value === 'string') text += value;
    }
  }
  return text;
}

/** Text of the last message with role "user" ("" when there is none). */
export function lastUserText(messages: readonly MessageLike[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === 'user') return contentText(message.content);
  }
  return '';
}

/** Prompt tokens: Σ over messages of (4 + ⌈text length / 4⌉), plus 3 for priming the reply. */
export function promptTokens(messages: readonly MessageLike[]): number {
  let total = 3;
  for (const message of messages) total += 4 + Math.ceil(contentText(message.content).length / 4);
  return total;
}

/** Tokens charged for an input to embed: ⌈length / 4⌉ for text, the count for token ids. */
export function embeddingInputTokens(input: string | readonly number[]): number {
  return typeof input === 'string' ? Math.ceil(input.length / 4) : input.length;
}
