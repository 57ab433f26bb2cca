/**
 * OpenAI Chat Completions requests ⇄ the canonical request (pure). Decoding
 * refuses what has no canonical form; encoding refuses what the canonical form
 * holds and OpenAI cannot take (top_k). The rules are in docs/translation.md.
 * Longer than most files: both directions sit together so each rule and its
 * inverse can be read side by side (the round-trip tests hold them to it).
 */
import { badRequest } from '../../core/errors';
import type { EncodeContext } from '../codec';
import { imageFromUrl, imageToUrl } from './images';
import type {
  FilePart,
  ChatRequest,
  ImagePart,
  Message,
  Part,
  TextPart,
  Tool,
  ToolChoice,
  ToolResultPart,
} from '../ir';
import { arr, type Json, num, obj, str, unsupported } from '../json';
import { cacheOf, hasCacheMarkers, withCache } from '../cache';
import { fileFromDataUrl, fileKind, fileName, fileToDataUrl } from '../files';
import { systemText, turnText } from '../system';
import { decodeReasoningEffort, decodeReasoningFields, encodeReasoningEffort } from './reasoning';

/** Fields read into the canonical request, or knowingly dropped (documented); anything else is refused. */
const READ = new Set([
  'model',
  'messages',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'stop',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'n',
  'stream',
  'stream_options',
  'user',
  'reasoning_effort',
  'prompt_cache_key',
]);
/**
 * Dropped (named in x-edgeway-dropped): OpenAI-side storage and routing hints that change nothing
 * in the answer, a best-effort seed, and the verbosity hint.
 */
const DROPPED = new Set(['store', 'metadata', 'service_tier', 'seed', 'safety_identifier', 'verbosity']);
/** Accepted only at their no-op value. */
const NEUTRAL: Readonly<Record<string, (v: unknown) => boolean>> = {
  frequency_penalty: (v) => v === 0 || v === null,
  presence_penalty: (v) => v === 0 || v === null,
  logprobs: (v) => v === false || v === null,
  logit_bias: (v) => v === null || (obj(v) !== null && Object.keys(obj(v) as Json).length === 0),
  modalities: (v) => v === null || (Array.isArray(v) && v.length === 1 && v[0] === 'text'),
};

export function decodeOpenAiRequest(body: Json): ChatRequest {
  const dropped: string[] = [];
  for (const key of Object.keys(body)) {
    if (READ.has(key)) continue;
    if (DROPPED.has(key)) dropped.push(key);
    else if (!NEUTRAL[key]?.(body[key])) throw unsupported(key, null);
  }
  const { system, messages } = decodeMessages(arr(body.messages));
  const stop = body.stop;
  return {
    system,
    messages,
    maxTokens: num(body.max_completion_tokens) ?? num(body.max_tokens),
    temperature: num(body.temperature),
    topP: num(body.top_p),
    topK: null,
    stop: typeof stop === 'string' ? [stop] : arr(stop).filter((s): s is string => typeof s === 'string'),
    tools: arr(body.tools).map(decodeTool),
    toolChoice: decodeToolChoice(body.tool_choice),
    parallelToolCalls: body.parallel_tool_calls === false ? false : null,
    responseFormat: decodeResponseFormat(body.response_format),
    n: num(body.n) ?? 1,
    stream: body.stream === true,
    user: str(body.user) ?? str(body.safety_identifier),
    reasoning: decodeReasoningEffort(body.reasoning_effort),
    promptCacheKey: str(body.prompt_cache_key),
    dropped,
  };
}

function decodeMessages(raw: readonly unknown[]): { system: TextPart[]; messages: Message[] } {
  const system: TextPart[] = [];
  const messages: Message[] = [];
  raw.forEach((value, i) => {
    const m = obj(value) ?? {};
    const role = m.role;
    if (role === 'system' || role === 'developer') {
      const parts = textParts(m.content, `messages[${i}].content`);
      // Instructions before the first turn are the system prompt; later ones are a system turn.
      if (messages.length === 0) system.push(...parts);
      else messages.push({ role: 'system', content: parts });
    } else if (role === 'user') {
      messages.push({ role: 'user', content: userParts(m.content, `messages[${i}].content`) });
    } else if (role === 'assistant') {
      messages.push({ role: 'assistant', content: assistantParts(m, i) });
    } else if (role === 'tool') {
      const result: ToolResultPart = {
        type: 'tool_result',
        toolCallId: str(m.tool_call_id) ?? '',
        content: [{ type: 'text', text: textOf(m.content, `messages[${i}].content`) }],
        isError: false,
      };
      const last = messages.at(-1);
      // Consecutive tool messages answer one assistant turn: they travel as one user turn.
      if (last?.role === 'user' && last.content.every((p) => p.type === 'tool_result'))
        messages[messages.length - 1] = { role: 'user', content: [...last.content, result] };
      else messages.push({ role: 'user', content: [result] });
    } else {
      throw unsupported(`messages[${i}].role`, null, `'${String(role)}'`);
    }
  });
  return { system, messages };
}

/** A system or tool message's text parts (each with its cache marker, a convention some clients use on OpenAI's format). */
function textParts(content: unknown, param: string): TextPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return arr(content).map((p, j) => {
    const part = obj(p);
    if (part?.type === 'text' && typeof part.text === 'string')
      return { type: 'text', text: part.text, ...withCache(cacheOf(part)) };
    throw unsupported(`${param}[${j}].type`, null, 'in this message');
  });
}

function textOf(content: unknown, param: string): string {
  return textParts(content, param)
    .map((p) => p.text)
    .join('');
}

function userParts(content: unknown, param: string): (TextPart | ImagePart | FilePart)[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return arr(content).map((p, j) => {
    const part = obj(p) ?? {};
    const cache = withCache(cacheOf(part));
    if (part.type === 'text') return { type: 'text', text: str(part.text) ?? '', ...cache };
    const url = str(obj(part.image_url)?.url);
    if (part.type === 'image_url' && url) return { type: 'image', source: imageFromUrl(url), ...cache };
    if (part.type === 'file') {
      const file = obj(part.file) ?? {};
      // A file_id names a file stored at OpenAI, which no other provider can read.
      return {
        ...fileFromDataUrl(file.file_data, file.filename, `${param}[${j}]`, file.file_id != null),
        ...cache,
      };
    }
    throw unsupported(`${param}[${j}].type`, null, `'${String(part.type)}'`);
  });
}

function assistantParts(m: Json, i: number): Part[] {
  if (m.function_call != null) throw unsupported(`messages[${i}].function_call`, null);
  const parts: Part[] = decodeReasoningFields(m);
  if (typeof m.content === 'string') {
    if (m.content !== '') parts.push({ type: 'text', text: m.content });
  } else if (Array.isArray(m.content)) {
    m.content.forEach((p, j) => {
      const part = obj(p) ?? {};
      const text = part.type === 'text' ? str(part.text) : part.type === 'refusal' ? str(part.refusal) : null;
      if (text === null)
        throw unsupported(`messages[${i}].content[${j}].type`, null, `'${String(part.type)}'`);
      if (text !== '') parts.push({ type: 'text', text });
    });
  }
  arr(m.tool_calls).forEach((c, j) => {
    const call = obj(c) ?? {};
    const fn = obj(call.function) ?? {};
    if (call.type !== undefined && call.type !== 'function')
      throw unsupported(`messages[${i}].tool_calls[${j}].type`, null, `'${String(call.type)}'`);
    parts.push({
      type: 'tool_call',
      id: str(call.id) ?? '',
      name: str(fn.name) ?? '',
      arguments: str(fn.arguments) ?? '',
    });
  });
  return parts;
}

function decodeTool(value: unknown, i: number): Tool {
  const tool = obj(value) ?? {};
  const fn = obj(tool.function);
  if (tool.type !== 'function' || !fn || typeof fn.name !== 'string')
    throw unsupported(`tools[${i}].type`, null, `'${String(tool.type)}'`);
  return {
    name: fn.name,
    description: str(fn.description),
    parameters: obj(fn.parameters) ?? {},
    ...withCache(cacheOf(tool)),
  };
}

function decodeToolChoice(v: unknown): ToolChoice | null {
  if (v === undefined || v === null) return null;
  if (v === 'auto' || v === 'none' || v === 'required') return { type: v };
  const name = str(obj(obj(v)?.function)?.name);
  if (obj(v)?.type === 'function' && name) return { type: 'tool', name };
  throw unsupported('tool_choice', null, 'of this kind');
}

function decodeResponseFormat(v: unknown): ChatRequest['responseFormat'] {
  const f = obj(v);
  if (!f || f.type === 'text') return null;
  if (f.type === 'json_object') return { type: 'json_object' };
  const schema = obj(f.json_schema);
  if (f.type === 'json_schema' && schema)
    return {
      type: 'json_schema',
      name: str(schema.name) ?? 'response',
      schema: obj(schema.schema) ?? {},
      strict: schema.strict === true,
    };
  throw unsupported('response_format.type', null, `'${String(f.type)}'`);
}

/** The canonical request as an OpenAI Chat Completions body. */
export function encodeOpenAiRequest(request: ChatRequest, context: EncodeContext): Json {
  if (request.topK !== null) throw unsupported('top_k', 'openai');
  const text = systemText(request);
  const system: Json[] = text === null ? [] : [{ role: 'system', content: text }];
  const messages = [...system, ...request.messages.flatMap((m, i) => encodeMessage(m, i))];
  // OpenAI caches prompt prefixes by itself: breakpoints have nowhere to go.
  if (hasCacheMarkers(request)) context.dropped.push('cache_control');
  const body: Json = { model: context.model, messages };
  const cap = request.maxTokens ?? (context.enforceCap ? context.outputCap : null);
  // OpenAI's own API deprecates max_tokens (reasoning models refuse it); compatible providers still expect it.
  if (cap !== null) body[context.providerId === 'openai' ? 'max_completion_tokens' : 'max_tokens'] = cap;
  if (request.temperature !== null) body.temperature = request.temperature;
  if (request.topP !== null) body.top_p = request.topP;
  if (request.stop.length > 0) body.stop = request.stop;
  if (request.n !== 1) body.n = request.n;
  if (request.tools.length > 0)
    body.tools = request.tools.map((t) => ({
      type: 'function',
      function: {
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
        parameters: t.parameters,
      },
    }));
  // 'auto' is OpenAI's default whenever tools are given: it is left implicit.
  if (request.toolChoice && request.toolChoice.type !== 'auto')
    body.tool_choice =
      request.toolChoice.type === 'tool'
        ? { type: 'function', function: { name: request.toolChoice.name } }
        : request.toolChoice.type;
  if (request.parallelToolCalls === false && request.tools.length > 0) body.parallel_tool_calls = false;
  const format = request.responseFormat;
  if (format?.type === 'json_object') body.response_format = { type: 'json_object' };
  if (format?.type === 'json_schema')
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: format.name, schema: format.schema, strict: format.strict },
    };
  if (request.user !== null) body.user = request.user;
  const effort = encodeReasoningEffort(request, context.model, context.dropped);
  if (effort !== null) body.reasoning_effort = effort;
  if (request.promptCacheKey !== null) {
    // Only OpenAI's own API is known to take it; compatible providers may refuse an unknown field.
    if (context.providerId === 'openai') body.prompt_cache_key = request.promptCacheKey;
    else context.dropped.push('prompt_cache_key');
  }
  if (request.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}

function encodeMessage(m: Message, i: number): Json[] {
  if (m.role === 'system') return [{ role: 'system', content: turnText(m.content) }];
  if (m.role === 'assistant') {
    const text = m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
    const calls = m.content.flatMap((p) =>
      p.type === 'tool_call'
        ? [{ id: p.id, type: 'function', function: { name: p.name, arguments: p.arguments } }]
        : [],
    );
    return [
      {
        role: 'assistant',
        content: text === '' && calls.length ? null : text,
        ...(calls.length ? { tool_calls: calls } : {}),
      },
    ];
  }
  const out: Json[] = [];
  const rest: Json[] = [];
  m.content.forEach((p, j) => {
    if (p.type === 'tool_result') {
      if (p.content.some((c) => c.type === 'image'))
        throw unsupported(`messages[${i}].content[${j}].content`, 'openai', 'with an image in a tool result');
      const text = p.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      out.push({ role: 'tool', tool_call_id: p.toolCallId, content: p.isError ? `Error: ${text}` : text });
    } else if (p.type === 'text') rest.push({ type: 'text', text: p.text });
    else if (p.type === 'image') rest.push({ type: 'image_url', image_url: { url: imageToUrl(p.source) } });
    else if (p.type === 'file') {
      const kind = fileKind(p, `messages[${i}].content[${j}]`, 'openai');
      rest.push({ type: 'file', file: { file_data: fileToDataUrl(p), filename: fileName(p, kind) } });
    } else if (p.type === 'reasoning' || p.type === 'redacted_reasoning') return;
    else
      throw badRequest(
        `messages[${i}].content[${j}]: a tool call in a user message.`,
        `messages[${i}].content`,
      );
  });
  if (rest.length > 0)
    out.push({ role: 'user', content: rest.length === 1 && rest[0]?.type === 'text' ? rest[0].text : rest });
  return out;
}
