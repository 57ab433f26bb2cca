/**
 * Token estimates for reservations (pure), cheap enough for every request.
 *
 * Prompt: OpenAI's documented chat accounting — 3 tokens to prime the reply,
 * 4 per message, plus the text — where text counts ¼ token per ASCII
 * character and 1 per other character (CJK and most non-Latin scripts are
 * about a token per character, so plain chars/4 would reserve a quarter of
 * what they use). Images and audio parts count IMAGE_TOKENS each (a 1024²
 * high-detail image), never their base64 length. Tools and response formats
 * count by their JSON text.
 *
 * Output: the request's max tokens × n, else the key's/tenant's max_tokens,
 * else the configured default cap. Providers enforce max_tokens, so the
 * output reserve is a true bound whenever the upstream request carries it.
 * Only the validated numbers of ProxyRequest are read (never the raw body's
 * `n` or caps), and the per-choice cap is at most MAX_OUTPUT_TOKENS whatever
 * a key's settings say, so a reserve is always a finite, non-negative integer.
 */
import type { ProxyRequest } from '../core/request';
import { MAX_OUTPUT_TOKENS } from '../core/request-schemas';
import type { StreamEnd } from '../core/limiter';
import { NO_USAGE, type Usage } from '../core/usage';
import type { Limits } from '../core/settings';

export const IMAGE_TOKENS = 765;
const PRIMING_TOKENS = 3;
const PER_MESSAGE_TOKENS = 4;

export function textTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 128) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 4) + other;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const jsonTokens = (v: unknown) => (v === undefined || v === null ? 0 : textTokens(JSON.stringify(v)));

/** Content as both APIs send it: a string, or parts/blocks (text, media, tool use and results). */
function contentTokens(content: unknown): number {
  if (typeof content === 'string') return textTokens(content);
  if (!Array.isArray(content)) return 0;
  let total = 0;
  for (const part of content) {
    if (!isObject(part)) continue;
    if (typeof part.text === 'string') total += textTokens(part.text);
    else if (part.type === 'tool_result') total += contentTokens(part.content);
    else if (part.type === 'tool_use') total += jsonTokens(part.input);
    else if (/image|audio|file|document/.test(String(part.type))) total += IMAGE_TOKENS;
    else total += jsonTokens(part);
  }
  return total;
}

function messageTokens(message: Json): number {
  let total = PER_MESSAGE_TOKENS + contentTokens(message.content);
  if (typeof message.name === 'string') total += 1;
  if (Array.isArray(message.tool_calls)) total += jsonTokens(message.tool_calls);
  if (message.function_call !== undefined) total += jsonTokens(message.function_call);
  return total;
}

export function estimatePromptTokens(request: ProxyRequest): number {
  const body = request.body;
  if (request.endpoint === 'embeddings') return embeddingTokens(body.input);
  let total = PRIMING_TOKENS;
  if (Array.isArray(body.messages)) for (const m of body.messages) if (isObject(m)) total += messageTokens(m);
  if (body.system !== undefined) total += PER_MESSAGE_TOKENS + contentTokens(body.system);
  if (request.endpoint === 'responses') total += responsesInputTokens(body);
  total += jsonTokens(body.tools) + jsonTokens(body.functions) + jsonTokens(body.response_format);
  return total;
}

/**
 * The Responses API's prompt: `instructions`, and `input` as a string or items: messages count as
 * chat messages; function calls, their outputs and reasoning items by their text (encrypted
 * reasoning by its length, as its tokens are billed again when it is sent back).
 */
function responsesInputTokens(body: Json): number {
  let total = typeof body.instructions === 'string' ? PER_MESSAGE_TOKENS + textTokens(body.instructions) : 0;
  const input = body.input;
  if (typeof input === 'string') return total + PER_MESSAGE_TOKENS + textTokens(input);
  if (!Array.isArray(input)) return total;
  for (const item of input) {
    if (!isObject(item)) continue;
    if (typeof item.role === 'string') total += messageTokens(item);
    else if (typeof item.output === 'string') total += PER_MESSAGE_TOKENS + textTokens(item.output);
    else total += PER_MESSAGE_TOKENS + jsonTokens(item);
  }
  return total + jsonTokens(obj(body.text)?.format);
}

const obj = (v: unknown): Json | null => (isObject(v) ? v : null);

/**
 * The longest prompt-cache TTL a request's breakpoints ask for (`cache_control` on the request, a
 * system block, a tool or a content block, in either API's body), or null when it sets none: only
 * a request with breakpoints can be billed for cache writes (providers that cache by themselves,
 * as OpenAI does, do not charge for writing).
 */
export function cacheWriteTtl(body: Json): '1h' | '5m' | null {
  let ttl: '1h' | '5m' | null = null;
  const see = (holder: unknown) => {
    if (!isObject(holder) || !isObject(holder.cache_control)) return;
    ttl = holder.cache_control.ttl === '1h' ? '1h' : (ttl ?? '5m');
  };
  const each = (list: unknown, visit: (item: unknown) => void) => {
    if (Array.isArray(list)) for (const item of list) visit(item);
  };
  see(body);
  each(body.system, see);
  each(body.tools, see);
  each(body.messages, (m) => {
    if (isObject(m)) each(m.content, see);
  });
  return ttl;
}

function embeddingTokens(input: unknown): number {
  if (typeof input === 'string') return textTokens(input);
  if (!Array.isArray(input)) return 0;
  let total = 0;
  for (const item of input) {
    if (typeof item === 'string') total += textTokens(item);
    else if (typeof item === 'number') total += 1;
    else if (Array.isArray(item)) total += item.length;
  }
  return total;
}

/** The smaller of the key's and the tenant's max_tokens; null when neither sets one. */
export function maxTokensLimit(
  key: Limits,
  tenant: Limits,
): { limit: number; scope: 'key' | 'tenant' } | null {
  if (
    key.max_tokens !== undefined &&
    (tenant.max_tokens === undefined || key.max_tokens <= tenant.max_tokens)
  ) {
    return { limit: key.max_tokens, scope: 'key' };
  }
  return tenant.max_tokens !== undefined ? { limit: tenant.max_tokens, scope: 'tenant' } : null;
}

/** Output tokens one choice may use: the request's cap, else the key's/tenant's, else the default. */
export function perChoiceCap(request: ProxyRequest, limit: number | null, defaultCap: number): number {
  return Math.min(request.maxOutputTokens ?? limit ?? defaultCap, MAX_OUTPUT_TOKENS);
}

/** Output tokens to reserve: per-choice cap × the number of choices; 0 for embeddings. */
export function outputReserve(request: ProxyRequest, limit: number | null, defaultCap: number): number {
  if (request.endpoint === 'embeddings') return 0;
  return perChoiceCap(request, limit, defaultCap) * request.choices;
}

/**
 * What a finished request is charged. Without a stream: the usage as reported
 * (null releases the reservation). A stream that completed with usage: that
 * usage. Otherwise — cut, aborted, or no usage chunk — the prompt estimate (or
 * the input the stream did report) plus the delivered characters / 4, never
 * less output than the stream itself reported.
 */
export function settledUsage(promptEstimate: number, usage: Usage | null, stream?: StreamEnd): Usage | null {
  if (!stream) return usage;
  if (stream.completed && usage) return usage;
  return {
    ...(usage ?? NO_USAGE),
    inputTokens: usage && usage.inputTokens > 0 ? usage.inputTokens : promptEstimate,
    outputTokens: Math.max(usage?.outputTokens ?? 0, Math.ceil(stream.deliveredChars / 4)),
  };
}
