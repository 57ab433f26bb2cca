/**
 * The last user turn of a conversation, read the same way in every wire
 * format, for the answers agents can complete: its text (every text block or
 * part), the tool results it carries, and a scripted `TOOL <name> <json>`
 * directive. A turn is the messages after the last assistant message (system
 * and developer messages between them are skipped). Tool results are Anthropic
 * `tool_result` blocks, OpenAI `tool`/`function` messages, Gemini
 * `functionResponse` parts and Bedrock `toolResult` blocks. Pure.
 */
import { canonicalJson } from './hash';
import { contentText, type MessageLike } from './text';

export interface LastTurn {
  /** The turn's text: its text blocks/parts, joined with newlines. */
  readonly text: string;
  /** The text of each tool result, in order. */
  readonly results: readonly string[];
}

/** A tool call the turn scripts: `TOOL <name> <json-object>` on a line of its own. */
export interface Directive {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Text of a tool result's payload, whatever the format put in it. */
function resultText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value
      .map((part) => (isRecord(part) && 'json' in part ? canonicalJson(part.json) : contentText([part])))
      .join('');
  if (isRecord(value)) {
    for (const key of ['result', 'output', 'content'])
      if (typeof value[key] === 'string') return value[key] as string;
    return canonicalJson(value);
  }
  return '';
}

/** The tool result a block carries, or undefined when it is not one. */
function blockResult(block: Record<string, unknown>): string | undefined {
  if (block.type === 'tool_result') return resultText(block.content);
  if (isRecord(block.functionResponse)) return resultText(block.functionResponse.response);
  if (isRecord(block.toolResult)) return resultText(block.toolResult.content);
  return undefined;
}

export function lastTurn(messages: readonly MessageLike[]): LastTurn {
  let start = messages.length;
  while (start > 0 && messages[start - 1]?.role !== 'assistant') start--;
  const texts: string[] = [];
  const results: string[] = [];
  for (let i = start; i < messages.length; i++) {
    const { role, content } = messages[i] as MessageLike;
    if (role === 'tool' || role === 'function') {
      results.push(contentText(content));
      continue;
    }
    if (role !== 'user') continue;
    if (!Array.isArray(content)) {
      texts.push(contentText(content));
      continue;
    }
    for (const block of content) {
      if (!isRecord(block)) continue;
      const result = blockResult(block);
      if (result !== undefined) results.push(result);
      else if (typeof block.text === 'string') texts.push(block.text);
    }
  }
  return { text: texts.join('\n'), results };
}

const DIRECTIVE = /^[ \t]*TOOL[ \t]+(\S+)[ \t]+(\{.*\})[ \t]*$/m;

/** The turn's `TOOL <name> <json-object>` line, when it has one whose JSON is an object. */
export function directiveIn(text: string): Directive | undefined {
  if (!text.includes('TOOL')) return undefined;
  const match = DIRECTIVE.exec(text);
  if (!match) return undefined;
  try {
    const input: unknown = JSON.parse(match[2] as string);
    return isRecord(input) ? { name: match[1] as string, input } : undefined;
  } catch {
    return undefined;
  }
}
