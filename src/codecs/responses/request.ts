/**
 * Responses API requests ⇄ the canonical request (pure). Decoding reads a client's body: its
 * input items become turns (a run of assistant items, one assistant turn; a run of tool outputs,
 * one user turn), refuses what has no canonical form and names what it drops. Encoding writes the
 * body for an OpenAI Responses provider, always stateless (`store: false`, reasoning carried as
 * encrypted content). The rules are in docs/translation.md. Longer than most files: both directions
 * sit together so each rule and its inverse can be read side by side (the round-trip tests hold them to it).
 */
import { badRequest } from '../../core/errors';
import type { EncodeContext } from '../codec';
import { hasCacheMarkers } from '../cache';
import type {
  ChatRequest,
  ImagePart,
  Message,
  Part,
  Reasoning,
  ResponseFormat,
  TextPart,
  ToolResultPart,
} from '../ir';
import { arr, type Json, num, obj, str, unsupported } from '../json';
import { imageFromUrl, imageToUrl } from '../openai/images';
import { encodeReasoningEffort } from '../openai/reasoning';
import { isEffort } from '../reasoning';
import { systemText, turnText } from '../system';
import { decodeReasoningItem, reasoningItemUpstream } from './reasoning';
import { customArguments, decodeToolChoice, decodeTools, encodeToolChoice, encodeTools } from './tools';

/** Fields read into the canonical request. */
const READ = new Set([
  'model',
  'input',
  'instructions',
  'max_output_tokens',
  'temperature',
  'top_p',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'text',
  'reasoning',
  'user',
  'safety_identifier',
  'prompt_cache_key',
  'stream',
]);
/**
 * Read by the gateway itself, not carried in the canonical request: storage (`store`, `metadata`),
 * what the answer includes (`include`), and the stored conversation (`previous_response_id`, already
 * expanded into `input` when the body reaches the codec).
 */
const GATEWAY = new Set(['store', 'metadata', 'include', 'previous_response_id']);
/**
 * Dropped (named in x-edgeway-dropped): OpenAI-side caching, routing, truncation and compaction
 * hints, log probabilities, the tool-call budget, stream options, and Codex's `client_metadata`
 * (not in OpenAI's published API: its own telemetry).
 */
const DROPPED = new Set([
  'prompt_cache_retention',
  'prompt_cache_options',
  'service_tier',
  'truncation',
  'top_logprobs',
  'max_tool_calls',
  'stream_options',
  'context_management',
  'client_metadata',
]);
/** Refused unless at their no-op value: they need OpenAI's own state or services. */
const NEUTRAL: Readonly<Record<string, (v: unknown) => boolean>> = {
  background: (v) => v === false || v === null,
  conversation: (v) => v === null,
  prompt: (v) => v === null,
  moderation: (v) => v === null,
};

/** Input items of tools only OpenAI runs: history the canonical request cannot carry, dropped and named. */
const HOSTED_ITEMS = new Set([
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'code_interpreter_call',
  'image_generation_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'mcp_call',
  'tool_search_call',
  'tool_search_output',
  'additional_tools',
  'compaction',
  'compaction_trigger',
  'program',
  'program_output',
]);

export function decodeResponsesRequest(body: Json): ChatRequest {
  const dropped: string[] = [];
  for (const key of Object.keys(body)) {
    if (READ.has(key) || GATEWAY.has(key)) continue;
    if (DROPPED.has(key)) {
      if (body[key] !== null && body[key] !== undefined) dropped.push(key);
    } else if (!NEUTRAL[key]?.(body[key])) {
      if (key === 'background' || key === 'conversation')
        throw badRequest(
          `'${key}' needs OpenAI's own storage, which the gateway does not reach through this model; remove it or use previous_response_id.`,
          key,
          'unsupported_value',
        );
      throw unsupported(key, null);
    }
  }
  const instructions = str(body.instructions);
  const { system, messages } = decodeInput(body.input, dropped);
  const tools = decodeTools(body.tools, dropped);
  const text = obj(body.text);
  if (text?.verbosity !== undefined && text.verbosity !== null) dropped.push('text.verbosity');
  const user = str(body.user);
  if (user !== null && str(body.safety_identifier) !== null) dropped.push('safety_identifier');
  const choice = decodeToolChoice(body.tool_choice, dropped);
  // With no tool the model can call (every one was a hosted tool), there is no choice to make.
  const choiceless = tools.length === 0 && choice !== null && choice.type !== 'none';
  if (choiceless && choice.type !== 'auto') dropped.push('tool_choice');
  return {
    system: [...(instructions ? [{ type: 'text' as const, text: instructions }] : []), ...system],
    messages,
    maxTokens: num(body.max_output_tokens),
    temperature: num(body.temperature),
    topP: num(body.top_p),
    topK: null,
    stop: [],
    tools,
    toolChoice: choiceless ? null : choice,
    parallelToolCalls: body.parallel_tool_calls === false && tools.length > 0 ? false : null,
    responseFormat: decodeTextFormat(text?.format),
    n: 1,
    stream: body.stream === true,
    user: user ?? str(body.safety_identifier),
    reasoning: decodeReasoning(body.reasoning),
    promptCacheKey: str(body.prompt_cache_key),
    dropped,
  };
}

function decodeReasoning(v: unknown): Reasoning | null {
  const r = obj(v);
  if (!r) return null;
  const effort = r.effort ?? null;
  if (effort !== null && !isEffort(effort))
    throw unsupported('reasoning.effort', null, `'${String(effort)}'`);
  const summary = r.summary ?? r.generate_summary ?? null;
  const display = summary === null ? null : 'summarized';
  if (effort === null)
    return display === null ? null : { mode: 'default', effort: null, budgetTokens: null, display };
  // An effort is a request to reason (or, at 'none', not to), as Chat Completions' reasoning_effort is.
  return { mode: effort === 'none' ? 'off' : 'on', effort, budgetTokens: null, display };
}

function decodeTextFormat(v: unknown): ResponseFormat | null {
  const f = obj(v);
  if (!f || f.type === 'text') return null;
  if (f.type === 'json_object') return { type: 'json_object' };
  if (f.type === 'json_schema')
    return {
      type: 'json_schema',
      name: str(f.name) ?? 'response',
      schema: obj(f.schema) ?? {},
      strict: f.strict === true,
    };
  throw unsupported('text.format.type', null, `'${String(f.type)}'`);
}

/** The conversation of `input`: leading instructions (system/developer messages) and the turns. */
function decodeInput(input: unknown, dropped: string[]): { system: TextPart[]; messages: Message[] } {
  const system: TextPart[] = [];
  const messages: Message[] = [];
  if (typeof input === 'string') return { system, messages: [{ role: 'user', content: [text(input)] }] };
  const assistant = (part: Part) => {
    const last = messages.at(-1);
    if (last?.role === 'assistant')
      messages[messages.length - 1] = { role: 'assistant', content: [...last.content, part] };
    else messages.push({ role: 'assistant', content: [part] });
  };
  const result = (part: ToolResultPart) => {
    const last = messages.at(-1);
    // Consecutive tool outputs answer one assistant turn: they travel as one user turn.
    if (last?.role === 'user' && last.content.every((p) => p.type === 'tool_result'))
      messages[messages.length - 1] = { role: 'user', content: [...last.content, part] };
    else messages.push({ role: 'user', content: [part] });
  };
  arr(input).forEach((value, i) => {
    const item = obj(value) ?? {};
    const param = `input[${i}]`;
    const type = item.type ?? (item.role === undefined ? 'item_reference' : 'message');
    switch (type) {
      case 'message': {
        const role = item.role;
        if (role === 'system' || role === 'developer') {
          const parts = contentParts(item.content, `${param}.content`, false);
          // Instructions before the first turn are the system prompt; later ones are a system turn.
          if (messages.length === 0) system.push(...(parts as TextPart[]));
          else messages.push({ role: 'system', content: parts });
        } else if (role === 'user') {
          messages.push({ role: 'user', content: contentParts(item.content, `${param}.content`, true) });
        } else if (role === 'assistant') {
          for (const part of assistantText(item.content, `${param}.content`)) assistant(part);
        } else throw unsupported(`${param}.role`, null, `'${String(role)}'`);
        return;
      }
      case 'function_call':
        assistant({
          type: 'tool_call',
          id: str(item.call_id) ?? '',
          name: str(item.name) ?? '',
          arguments: str(item.arguments) ?? '',
        });
        return;
      case 'custom_tool_call':
        assistant({
          type: 'tool_call',
          id: str(item.call_id) ?? '',
          name: str(item.name) ?? '',
          arguments: customArguments(str(item.input) ?? ''),
        });
        return;
      case 'function_call_output':
      case 'custom_tool_call_output':
        result({
          type: 'tool_result',
          toolCallId: str(item.call_id) ?? '',
          content: outputParts(item.output, `${param}.output`),
          isError: false,
        });
        return;
      case 'reasoning':
        assistant(decodeReasoningItem(item));
        return;
      case 'item_reference':
        throw badRequest(
          `'${param}' is a reference to an item OpenAI stored, which the gateway cannot resolve; send the item itself.`,
          param,
          'unsupported_value',
        );
      default: {
        const key = `input[].${String(type)}`;
        if (!HOSTED_ITEMS.has(String(type))) throw unsupported(`${param}.type`, null, `'${String(type)}'`);
        if (!dropped.includes(key)) dropped.push(key);
      }
    }
  });
  return { system, messages };
}

const text = (t: string): TextPart => ({ type: 'text', text: t });

/** An explicit prompt-cache breakpoint after a part (OpenAI's `prompt_cache_breakpoint`) as the canonical marker. */
const breakpoint = (part: Json) =>
  obj(part.prompt_cache_breakpoint) ? { cache: { ttl: '5m' as const } } : {};

/** A message's content: a string, or input parts (images only where `images`: user turns). */
function contentParts(content: unknown, param: string, images: boolean): (TextPart | ImagePart)[] {
  if (typeof content === 'string') return [text(content)];
  return arr(content).map((p, j) => {
    const part = obj(p) ?? {};
    if (part.type === 'input_text' || part.type === 'output_text')
      return { ...text(str(part.text) ?? ''), ...breakpoint(part) };
    if (part.type === 'input_image' && images) return imagePart(part, `${param}[${j}]`);
    throw unsupported(`${param}[${j}]`, null, `of type '${String(part.type)}'`);
  });
}

function imagePart(part: Json, param: string): ImagePart {
  const url = str(part.image_url);
  // A file_id names a file stored at OpenAI, which no other provider can read.
  if (url === null) throw unsupported(param, null, part.file_id ? 'with a file_id' : 'without an image_url');
  return { type: 'image', source: imageFromUrl(url), ...breakpoint(part) };
}

/** An assistant message's text parts (output text, a refusal, or plain text); empty texts carry nothing. */
function assistantText(content: unknown, param: string): TextPart[] {
  if (typeof content === 'string') return content === '' ? [] : [text(content)];
  return arr(content).flatMap((p, j) => {
    const part = obj(p) ?? {};
    const t =
      part.type === 'output_text' || part.type === 'input_text'
        ? str(part.text)
        : part.type === 'refusal'
          ? str(part.refusal)
          : null;
    if (t === null) throw unsupported(`${param}[${j}]`, null, `of type '${String(part.type)}'`);
    return t === '' ? [] : [text(t)];
  });
}

/** A tool output: a string, or text and image parts. */
function outputParts(output: unknown, param: string): (TextPart | ImagePart)[] {
  if (typeof output === 'string') return [text(output)];
  return arr(output).map((p, j) => {
    const part = obj(p) ?? {};
    if (part.type === 'input_text') return text(str(part.text) ?? '');
    if (part.type === 'input_image') return imagePart(part, `${param}[${j}]`);
    throw unsupported(`${param}[${j}]`, null, `of type '${String(part.type)}'`);
  });
}

/** OpenAI refuses an output cap under 16 tokens. */
const MIN_OUTPUT_CAP = 16;

/** The canonical request as a body for an OpenAI Responses provider, called statelessly. */
export function encodeResponsesRequest(request: ChatRequest, context: EncodeContext): Json {
  if (request.topK !== null) throw unsupported('top_k', 'responses');
  if (request.stop.length > 0) throw unsupported('stop', 'responses');
  if (request.n !== 1) throw unsupported('n', 'responses');
  // OpenAI caches prompt prefixes by itself; explicit breakpoints exist only on its newest models.
  if (hasCacheMarkers(request)) context.dropped.push('cache_control');
  const body: Json = { model: context.model };
  const instructions = systemText(request);
  if (instructions !== null) body.instructions = instructions;
  body.input = request.messages.flatMap((m, i) => encodeMessage(m, i));
  const cap = request.maxTokens ?? (context.enforceCap ? Math.max(MIN_OUTPUT_CAP, context.outputCap) : null);
  if (cap !== null) body.max_output_tokens = cap;
  if (request.temperature !== null) body.temperature = request.temperature;
  if (request.topP !== null) body.top_p = request.topP;
  if (request.tools.length > 0) body.tools = encodeTools(request.tools);
  const choice = encodeToolChoice(request.toolChoice);
  if (choice !== null) body.tool_choice = choice;
  if (request.parallelToolCalls === false && request.tools.length > 0) body.parallel_tool_calls = false;
  const format = request.responseFormat;
  if (format?.type === 'json_object') body.text = { format: { type: 'json_object' } };
  if (format?.type === 'json_schema')
    body.text = {
      format: { type: 'json_schema', name: format.name, schema: format.schema, strict: format.strict },
    };
  const effort = encodeReasoningEffort(request, context.model, context.dropped);
  if (effort !== null) {
    const summary = request.reasoning?.display === 'summarized' ? { summary: 'auto' } : {};
    body.reasoning = { effort, ...summary };
    // Called statelessly, the provider gives back its reasoning only encrypted, to be sent back next turn.
    body.include = ['reasoning.encrypted_content'];
  }
  // `user` is deprecated on the Responses API; its abuse-monitoring role is `safety_identifier`'s.
  if (request.user !== null) body.safety_identifier = request.user;
  if (request.promptCacheKey !== null) {
    if (context.providerId === 'openai') body.prompt_cache_key = request.promptCacheKey;
    else context.dropped.push('prompt_cache_key');
  }
  body.store = false;
  if (request.stream) body.stream = true;
  return body;
}

const inputText = (t: string): Json => ({ type: 'input_text', text: t });

function encodeMessage(m: Message, i: number): Json[] {
  if (m.role === 'system')
    return [{ type: 'message', role: 'developer', content: [inputText(turnText(m.content))] }];
  const out: Json[] = [];
  /** The message item the current run of text (and image) parts goes into. */
  let run: Json[] | null = null;
  const open = (role: 'user' | 'assistant'): Json[] => {
    if (run) return run;
    const content: Json[] = [];
    out.push({ type: 'message', role, content });
    run = content;
    return content;
  };
  m.content.forEach((p, j) => {
    if (m.role === 'assistant') {
      if (p.type === 'text') open('assistant').push({ type: 'output_text', text: p.text, annotations: [] });
      else {
        run = null;
        if (p.type === 'tool_call')
          out.push({ type: 'function_call', call_id: p.id, name: p.name, arguments: p.arguments });
        else if (p.type === 'reasoning' || p.type === 'redacted_reasoning')
          out.push(...reasoningItemUpstream(p));
        else
          throw badRequest(
            `messages[${i}].content[${j}]: a ${p.type} part in an assistant message.`,
            `messages[${i}].content`,
          );
      }
      return;
    }
    if (p.type === 'text') open('user').push(inputText(p.text));
    else if (p.type === 'image')
      open('user').push({ type: 'input_image', image_url: imageToUrl(p.source), detail: 'auto' });
    else if (p.type === 'tool_result') {
      run = null;
      out.push({ type: 'function_call_output', call_id: p.toolCallId, output: toolOutput(p) });
    } else if (p.type === 'reasoning' || p.type === 'redacted_reasoning') return;
    else
      throw badRequest(
        `messages[${i}].content[${j}]: a tool call in a user message.`,
        `messages[${i}].content`,
      );
  });
  return out;
}

/** A tool result as a function call's output: its text, or parts when it holds images; an error says so. */
function toolOutput(p: ToolResultPart): string | Json[] {
  const prefix = p.isError ? 'Error: ' : '';
  if (!p.content.some((c) => c.type === 'image'))
    return prefix + p.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  const parts = p.content.map((c) =>
    c.type === 'text'
      ? inputText(c.text)
      : { type: 'input_image', image_url: imageToUrl(c.source), detail: 'auto' },
  );
  return p.isError ? [inputText('Error:'), ...parts] : parts;
}
