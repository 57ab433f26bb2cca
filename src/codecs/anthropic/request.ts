/**
 * Anthropic Messages requests ⇄ the canonical request (pure). Thinking, effort,
 * structured output (`output_config`), cache breakpoints and mid-conversation
 * system messages are carried; fields that only tune the provider
 * (`context_management`, `service_tier`, deferred tools) are dropped and named;
 * documents are carried when inline (base64 PDF, plain text), server tools
 * have no canonical form and are refused. The
 * rules are in docs/translation.md. Longer than most files: both directions
 * sit together so each rule and its inverse can be read side by side.
 */
import type { EncodeContext } from '../codec';
import { base64ToText, fileKind, textToBase64 } from '../files';
import type {
  ChatRequest,
  FilePart,
  ImagePart,
  ImageSource,
  Message,
  Part,
  TextPart,
  Tool,
  ToolChoice,
} from '../ir';
import { arr, type Json, jsonText, num, obj, parseArguments, str, unsupported } from '../json';
import { cacheControl, cacheOf, withCache } from '../cache';
import { claudeSampling } from '../reasoning';
import { turnText } from '../system';
import { decodeOutputFormat, encodeOutputFormat } from './output-format';
import {
  decodeReasoning,
  decodeRedactedBlock,
  decodeThinkingBlock,
  encodeThinking,
  thinkingBlockUpstream,
} from './reasoning';

const READ = new Set([
  'model',
  'messages',
  'max_tokens',
  'system',
  'stop_sequences',
  'temperature',
  'top_p',
  'top_k',
  'tools',
  'tool_choice',
  'stream',
  'metadata',
  'thinking',
  'output_config',
]);
/** Dropped (named in x-edgeway-dropped): they tune the provider's behaviour, not the answer's meaning. */
const DROPPED = new Set(['service_tier', 'context_management', 'inference_geo']);

export function decodeAnthropicRequest(body: Json): ChatRequest {
  const dropped: string[] = [];
  for (const key of Object.keys(body)) {
    if (DROPPED.has(key)) dropped.push(key);
    else if (!READ.has(key)) throw unsupported(key, null);
  }
  const outputConfig = obj(body.output_config);
  for (const key of Object.keys(outputConfig ?? {}))
    if (key !== 'effort' && key !== 'format') throw unsupported(`output_config.${key}`, null);
  const choice = obj(body.tool_choice);
  return {
    system: decodeSystem(body.system),
    messages: arr(body.messages).map(decodeMessage),
    maxTokens: num(body.max_tokens),
    temperature: num(body.temperature),
    topP: num(body.top_p),
    topK: num(body.top_k),
    stop: arr(body.stop_sequences).filter((s): s is string => typeof s === 'string'),
    tools: decodeTools(body.tools, dropped),
    toolChoice: decodeToolChoice(choice),
    parallelToolCalls: choice?.disable_parallel_tool_use === true ? false : null,
    responseFormat: decodeOutputFormat(outputConfig),
    n: 1,
    stream: body.stream === true,
    user: str(obj(body.metadata)?.user_id),
    reasoning: decodeReasoning(body.thinking, outputConfig),
    promptCacheKey: null,
    dropped,
  };
}

function decodeSystem(v: unknown): TextPart[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return v === '' ? [] : [{ type: 'text', text: v }];
  return arr(v).map((b, i) => {
    const block = obj(b) ?? {};
    if (block.type !== 'text') throw unsupported(`system[${i}].type`, null, `'${String(block.type)}'`);
    return { type: 'text', text: str(block.text) ?? '', ...withCache(cacheOf(block)) };
  });
}

function decodeMessage(value: unknown, i: number): Message {
  const m = obj(value) ?? {};
  if (m.role === 'system') return { role: 'system', content: decodeSystem(m.content) };
  if (m.role !== 'user' && m.role !== 'assistant')
    throw unsupported(`messages[${i}].role`, null, `'${String(m.role)}'`);
  const content: Part[] =
    typeof m.content === 'string'
      ? [{ type: 'text', text: m.content }]
      : arr(m.content).map((b, j) => decodeBlock(obj(b) ?? {}, `messages[${i}].content[${j}]`));
  return { role: m.role, content };
}

function decodeBlock(block: Json, param: string): Part {
  const cache = withCache(cacheOf(block));
  switch (block.type) {
    case 'text':
      return { type: 'text', text: str(block.text) ?? '', ...cache };
    case 'image':
      return { type: 'image', source: decodeImage(obj(block.source), param), ...cache };
    case 'document':
      return { ...decodeDocument(block, param), ...cache };
    case 'thinking':
      return decodeThinkingBlock(block);
    case 'redacted_thinking':
      return decodeRedactedBlock(block);
    case 'tool_use':
      return {
        type: 'tool_call',
        id: str(block.id) ?? '',
        name: str(block.name) ?? '',
        arguments: jsonText(block.input),
        ...cache,
      };
    case 'tool_result': {
      const content: (TextPart | ImagePart)[] =
        typeof block.content === 'string'
          ? [{ type: 'text', text: block.content }]
          : arr(block.content).map((c, k) => {
              const inner = obj(c) ?? {};
              if (inner.type === 'text') return { type: 'text', text: str(inner.text) ?? '' };
              if (inner.type === 'image')
                return { type: 'image', source: decodeImage(obj(inner.source), param) };
              throw unsupported(`${param}.content[${k}].type`, null, `'${String(inner.type)}'`);
            });
      return {
        type: 'tool_result',
        toolCallId: str(block.tool_use_id) ?? '',
        content,
        isError: block.is_error === true,
        ...cache,
      };
    }
    default:
      throw unsupported(`${param}.type`, null, `'${String(block.type)}'`);
  }
}

function decodeImage(source: Json | null, param: string): ImageSource {
  if (source?.type === 'base64' && typeof source.data === 'string')
    return { kind: 'base64', mediaType: str(source.media_type) ?? 'image/png', data: source.data };
  if (source?.type === 'url' && typeof source.url === 'string') return { kind: 'url', url: source.url };
  throw unsupported(`${param}.source.type`, null, `'${String(source?.type)}'`);
}

/**
 * An inline document (DocumentBlockParam): a base64 source (Base64PDFSource) or plain text
 * (PlainTextSource, carried as base64 of its UTF-8 bytes); its title is the file name. Sources
 * stored or fetched elsewhere (`file`, `url`, `content`), citations and context have no canonical form.
 */
function decodeDocument(block: Json, param: string): FilePart {
  if (obj(block.citations)?.enabled === true) throw unsupported(`${param}.citations`, null);
  if (block.context != null) throw unsupported(`${param}.context`, null);
  const source = obj(block.source);
  const filename = str(block.title);
  if (source?.type === 'base64' && typeof source.data === 'string')
    return {
      type: 'file',
      mediaType: str(source.media_type) ?? 'application/pdf',
      data: source.data,
      filename,
    };
  if (source?.type === 'text' && typeof source.data === 'string')
    return { type: 'file', mediaType: 'text/plain', data: textToBase64(source.data), filename };
  throw unsupported(`${param}.source.type`, null, `'${String(source?.type)}'`);
}

/** Tool fields that only tune how the provider handles the tool; dropped across formats. */
const TOOL_TUNING = ['strict', 'input_examples', 'eager_input_streaming'];

/**
 * Client tools. A tool with `defer_loading` is kept from the model until a tool search finds it
 * (Anthropic's tool search); formats without that search never show it, so it is dropped.
 */
function decodeTools(value: unknown, dropped: string[]): Tool[] {
  const out: Tool[] = [];
  arr(value).forEach((v, i) => {
    const tool = obj(v) ?? {};
    if ((tool.type !== undefined && tool.type !== 'custom') || typeof tool.name !== 'string')
      throw unsupported(`tools[${i}].type`, null, `'${String(tool.type)}'`);
    if (tool.defer_loading === true) {
      note(dropped, 'tools.defer_loading');
      return;
    }
    for (const key of TOOL_TUNING) if (key in tool) note(dropped, `tools.${key}`);
    out.push({
      name: tool.name,
      description: str(tool.description),
      parameters: obj(tool.input_schema) ?? {},
      ...withCache(cacheOf(tool)),
    });
  });
  return out;
}

const note = (dropped: string[], field: string) => {
  if (!dropped.includes(field)) dropped.push(field);
};

function decodeToolChoice(choice: Json | null): ToolChoice | null {
  if (!choice) return null;
  if (choice.type === 'auto' || choice.type === 'none') return { type: choice.type };
  if (choice.type === 'any') return { type: 'required' };
  if (choice.type === 'tool' && typeof choice.name === 'string') return { type: 'tool', name: choice.name };
  throw unsupported('tool_choice.type', null, `'${String(choice.type)}'`);
}

/** Anthropic's sampling temperature ends at 1 (OpenAI's at 2); a higher one is refused, never rescaled. */
const MAX_TEMPERATURE = 1;

/** The canonical request as an Anthropic Messages body; max_tokens is required, so one is always sent. */
export function encodeAnthropicRequest(request: ChatRequest, context: EncodeContext): Json {
  if (request.n !== 1) throw unsupported('n', 'anthropic', 'above 1');
  if (request.temperature !== null && request.temperature > MAX_TEMPERATURE)
    throw unsupported('temperature', 'anthropic', `above ${MAX_TEMPERATURE}`);
  const maxTokens = request.maxTokens ?? context.outputCap;
  const body: Json = {
    model: context.model,
    max_tokens: maxTokens,
    messages: encodeMessages(request.messages),
  };
  if (request.system.length > 0)
    body.system = request.system.map((p) => ({ type: 'text', text: p.text, ...cacheControl(p.cache) }));
  if (request.stop.length > 0) body.stop_sequences = request.stop;
  if (request.tools.length > 0)
    body.tools = request.tools.map((t) => ({
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      input_schema: { type: 'object', ...t.parameters },
      ...cacheControl(t.cache),
    }));
  const choice = encodeToolChoice(request);
  if (choice) body.tool_choice = choice;
  const format = encodeOutputFormat(request, context.model);
  Object.assign(body, format);
  // Anthropic refuses thinking with a forced tool choice: the forced JSON tool wins, the reasoning is dropped.
  const thinking = format.tool_choice ? null : encodeThinking(request, maxTokens, context);
  if (format.tool_choice && request.reasoning?.mode === 'on') context.dropped.push('reasoning');
  if (thinking) body.thinking = thinking;
  const { temperature, topP, topK } = claudeSampling(request, thinking !== null, context.dropped);
  if (temperature !== null) body.temperature = temperature;
  if (topP !== null) body.top_p = topP;
  if (topK !== null) body.top_k = topK;
  if (request.user !== null) body.metadata = { user_id: request.user };
  if (request.promptCacheKey !== null) context.dropped.push('prompt_cache_key');
  if (request.stream) body.stream = true;
  return body;
}

function encodeToolChoice(request: ChatRequest): Json | null {
  const c = request.toolChoice;
  if (request.tools.length === 0) return null;
  const disable = request.parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  if (!c) return request.parallelToolCalls === false ? { type: 'auto', ...disable } : null;
  if (c.type === 'none') return { type: 'none' };
  if (c.type === 'required') return { type: 'any', ...disable };
  if (c.type === 'tool') return { type: 'tool', name: c.name, ...disable };
  // 'auto' is Anthropic's default whenever tools are given: it is written only to carry the parallel flag.
  return request.parallelToolCalls === false ? { type: 'auto', ...disable } : null;
}

/** Consecutive turns of one role are joined (Anthropic merges them anyway); tool results lead a user turn. */
function encodeMessages(messages: readonly Message[]): Json[] {
  const out: { role: string; content: Json[] | string }[] = [];
  messages.forEach((m, i) => {
    if (m.role === 'system') {
      // Anthropic takes instructions mid-conversation as a `system` message of their own.
      out.push({
        role: 'system',
        content: turnText(m.content),
      });
      return;
    }
    const blocks = m.content.flatMap((p, j) => encodeBlock(p, `messages[${i}].content[${j}]`));
    const last = out.at(-1);
    if (last && last.role === m.role && Array.isArray(last.content)) last.content.push(...blocks);
    else out.push({ role: m.role, content: blocks });
  });
  for (const m of out) {
    if (m.role === 'user' && Array.isArray(m.content))
      m.content.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
  }
  return out;
}

function encodeBlock(p: Part, param: string): Json[] {
  switch (p.type) {
    case 'text':
      // Anthropic refuses empty text blocks; an empty string says nothing.
      return p.text === '' ? [] : [{ type: 'text', text: p.text, ...cacheControl(p.cache) }];
    case 'image':
      return [{ type: 'image', source: encodeImage(p.source), ...cacheControl(p.cache) }];
    case 'file':
      return [{ ...encodeDocument(p, param), ...cacheControl(p.cache) }];
    case 'reasoning':
    case 'redacted_reasoning':
      return thinkingBlockUpstream(p);
    case 'tool_call':
      return [
        {
          type: 'tool_use',
          id: p.id,
          name: p.name,
          input: parseArguments(p.arguments, `${param}.arguments`),
          ...cacheControl(p.cache),
        },
      ];
    case 'tool_result':
      return [
        {
          type: 'tool_result',
          tool_use_id: p.toolCallId,
          content: p.content
            .map((c) =>
              c.type === 'text'
                ? { type: 'text', text: c.text }
                : { type: 'image', source: encodeImage(c.source) },
            )
            .filter((c) => c.type !== 'text' || c.text !== ''),
          ...(p.isError ? { is_error: true } : {}),
          ...cacheControl(p.cache),
        },
      ];
  }
}

function encodeImage(source: ImageSource): Json {
  return source.kind === 'url'
    ? { type: 'url', url: source.url }
    : { type: 'base64', media_type: source.mediaType, data: source.data };
}

/** A file part as a document block: a PDF as a base64 source, plain text as a text source. */
function encodeDocument(p: FilePart, param: string): Json {
  const source =
    fileKind(p, param, 'anthropic') === 'pdf'
      ? { type: 'base64', media_type: 'application/pdf', data: p.data }
      : { type: 'text', media_type: 'text/plain', data: base64ToText(p.data, param) };
  return { type: 'document', source, ...(p.filename ? { title: p.filename } : {}) };
}
