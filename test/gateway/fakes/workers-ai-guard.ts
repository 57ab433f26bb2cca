/**
 * A faithful fake of Llama Guard 3 on Workers AI (`@cf/meta/llama-guard-3-8b`),
 * built from its published schema
 * (developers.cloudflare.com/workers-ai/models/llama-guard-3-8b): `messages`
 * required, each `{role: 'user'|'assistant', content: string}` with content at
 * most 131,072 characters; `max_tokens` an integer (default 256),
 * `temperature` 0–5, `response_format` an object with a string `type`. A
 * breach throws as the binding does (`5006: Error: oneOf at '/' not met …`);
 * prompt plus `max_tokens` over the 131,072-token window throws `5021`.
 * Assumed, since the service does not publish its wording: turns that do not
 * alternate user/assistant starting with the user, and an empty list, are
 * refused with `5006` and the model's template message.
 *
 * Like the model, it judges the user turns when the conversation ends with
 * one, else the last assistant turn. Verdicts are deterministic: unsafe when
 * the judged text holds a marker `[unsafe:S1]` (or `[unsafe:S1,S10]`) or one
 * of a few clearly harmful phrases, safe otherwise; `{safe, categories}` in
 * JSON mode, else "safe" / "unsafe\nS1,S10". Markers in the judged text also
 * drive faults: `[guard:error]` throws 3040 (out of capacity), `[guard:slow=N]`
 * answers after N ms (aborted by the signal), `[guard:garbled]` answers text
 * that is no verdict. Not modelled: LoRA, custom category lists.
 */
import { isObject, type Json, schemaError } from './workers-ai-schema';

export const LLAMA_GUARD = '@cf/meta/llama-guard-3-8b';

const CONTEXT_WINDOW = 131072;
const MAX_CONTENT = 131072;
const DEFAULT_MAX_TOKENS = 256;
/** Tokens of the safety prompt (task, category list, instructions) the model wraps around the turns. */
const TEMPLATE_TOKENS = 700;

/** Clearly harmful requests and their hazard codes, so tests need no markers for the obvious cases. */
const HARMFUL: readonly [RegExp, string][] = [
  [/\b(build|make) a (pipe )?bomb\b/i, 'S9'],
  [/\bsynthesi[sz]e (sarin|nerve agent)\b/i, 'S9'],
  [/\bkill (my|the) neighbou?r\b/i, 'S1'],
  [/\bcook meth\b/i, 'S2'],
  [/\bhow (can|do) i kill myself\b/i, 'S11'],
];

function validate(inputs: unknown): { messages: { role: string; content: string }[]; maxTokens: number } {
  if (!isObject(inputs)) throw schemaError("type at '/' not met: expected object");
  const { messages, max_tokens = DEFAULT_MAX_TOKENS, temperature, response_format } = inputs;
  if (!Number.isInteger(max_tokens)) throw schemaError("type at '/max_tokens' not met: expected integer");
  if (temperature !== undefined) {
    if (typeof temperature !== 'number') throw schemaError("type at '/temperature' not met: expected number");
    if (temperature < 0) throw schemaError(`minimum at '/temperature' not met: ${temperature} < 0`);
    if (temperature > 5) throw schemaError(`maximum at '/temperature' not met: ${temperature} > 5`);
  }
  if (response_format !== undefined) {
    if (!isObject(response_format)) throw schemaError("type at '/response_format' not met: expected object");
    if (response_format.type !== undefined && typeof response_format.type !== 'string')
      throw schemaError("type at '/response_format/type' not met: expected string");
  }
  if (!Array.isArray(messages)) throw schemaError("required properties at '/' not met: messages");
  const checked = messages.map((m: unknown, i) => {
    const at = `/messages/${i}`;
    if (!isObject(m)) throw schemaError(`type at '${at}' not met: expected object`);
    if (m.role === undefined || m.content === undefined)
      throw schemaError(`required properties at '${at}' not met: role, content`);
    if (m.role !== 'user' && m.role !== 'assistant')
      throw schemaError(`enum at '${at}/role' not met: ${String(m.role)}`);
    if (typeof m.content !== 'string') throw schemaError(`type at '${at}/content' not met: expected string`);
    if (m.content.length > MAX_CONTENT) throw schemaError(`maxLength at '${at}/content' not met`);
    if (m.role !== (i % 2 === 0 ? 'user' : 'assistant'))
      throw new Error('5006: Error: Conversation roles must alternate user/assistant/user/assistant/...');
    return { role: m.role, content: m.content };
  });
  if (checked.length === 0)
    throw new Error('5006: Error: Conversation roles must alternate user/assistant/user/assistant/...');
  return { messages: checked, maxTokens: max_tokens as number };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** The fake's answer to one call; `fail` (a binding-wide fault) is thrown after validation. */
export async function runGuard(inputs: unknown, fail?: string, signal?: AbortSignal): Promise<Json> {
  const { messages, maxTokens } = validate(inputs);
  const prompt = messages.reduce((sum, m) => sum + 4 + Math.ceil(m.content.length / 4), TEMPLATE_TOKENS);
  if (prompt + maxTokens > CONTEXT_WINDOW)
    throw new Error(
      `5021: The estimated number of input and maximum output tokens (${prompt + maxTokens}) exceeded this model context window limit (${CONTEXT_WINDOW}).`,
    );
  if (fail) throw new Error(fail);
  const judged =
    messages.length % 2 === 1
      ? messages.filter((m) => m.role === 'user').map((m) => m.content)
      : [(messages.at(-1) as { content: string }).content];
  const text = judged.join('\n');
  if (text.includes('[guard:error]')) throw new Error('3040: No more data centers to forward the request to');
  const slow = /\[guard:slow=(\d+)\]/.exec(text);
  if (slow) await sleep(Number(slow[1]), signal);
  const usage = (completion: number) => ({
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  });
  if (text.includes('[guard:garbled]')) return { response: 'I cannot classify that.', usage: usage(6) };
  const categories = new Set<string>();
  for (const m of text.matchAll(/\[unsafe:(S\d{1,2}(?:,S\d{1,2})*)\]/g))
    for (const code of (m[1] as string).split(',')) categories.add(code);
  for (const [pattern, code] of HARMFUL) if (pattern.test(text)) categories.add(code);
  const safe = categories.size === 0;
  const format = isObject((inputs as Json).response_format) ? (inputs as Json).response_format : null;
  if ((format as Json | null)?.type === 'json_object')
    return { response: safe ? { safe } : { safe, categories: [...categories] }, usage: usage(12) };
  return { response: safe ? 'safe' : `unsafe\n${[...categories].join(',')}`, usage: usage(4) };
}
