/**
 * The Responses API's input items ⇄ canonical turns (pure). Decoding: leading system and developer
 * messages are the system prompt, later ones system turns; a run of assistant items (reasoning,
 * output messages, function and custom tool calls) is one assistant turn, in order; a run of tool
 * outputs one user turn; items of tools only OpenAI runs are dropped and named, item references
 * refused. Encoding writes the same items for a Responses provider, OpenAI-signed reasoning only.
 */
import { badRequest } from '../../core/errors';
import { fileFromDataUrl, fileKind, fileName, fileToDataUrl } from '../files';
import type { FilePart, ImagePart, Message, Part, TextPart, ToolResultPart } from '../ir';
import { arr, type Json, obj, str, unsupported } from '../json';
import { imageFromUrl, imageToUrl } from '../openai/images';
import { turnText } from '../system';
import { decodeReasoningItem, reasoningItemUpstream } from './reasoning';
import { canonicalToolName, customArguments } from './tools';

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

/** The conversation of `input`: leading instructions (system/developer messages) and the turns. */
export function decodeInput(input: unknown, dropped: string[]): { system: TextPart[]; messages: Message[] } {
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
          name: canonicalToolName(str(item.namespace), str(item.name) ?? ''),
          arguments: str(item.arguments) ?? '',
        });
        return;
      case 'custom_tool_call':
        assistant({
          type: 'tool_call',
          id: str(item.call_id) ?? '',
          name: canonicalToolName(str(item.namespace), str(item.name) ?? ''),
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

/** A message's content: a string, or input parts (images and files only where `images`: user turns). */
function contentParts(content: unknown, param: string, images: boolean): (TextPart | ImagePart | FilePart)[] {
  if (typeof content === 'string') return [text(content)];
  return arr(content).map((p, j) => {
    const part = obj(p) ?? {};
    if (part.type === 'input_text' || part.type === 'output_text')
      return { ...text(str(part.text) ?? ''), ...breakpoint(part) };
    if (part.type === 'input_image' && images) return imagePart(part, `${param}[${j}]`);
    if (part.type === 'input_file' && images) return filePart(part, `${param}[${j}]`);
    throw unsupported(`${param}[${j}]`, null, `of type '${String(part.type)}'`);
  });
}

/** An inline file (`file_data` as a data URL); one stored at OpenAI (`file_id`) or fetched (`file_url`) is refused. */
const filePart = (part: Json, param: string): FilePart => ({
  ...fileFromDataUrl(part.file_data, part.filename, param, part.file_id != null || part.file_url != null),
  ...breakpoint(part),
});

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

/** Canonical turns as input items for a Responses provider. */
export const encodeInput = (messages: readonly Message[]): Json[] =>
  messages.flatMap((m, i) => encodeMessage(m, i));

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
    else if (p.type === 'file') open('user').push(inputFile(p, `messages[${i}].content[${j}]`));
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

/** A file part as an `input_file` (ResponseInputFile): the bytes as a data URL, with a file name. */
function inputFile(p: FilePart, param: string): Json {
  const kind = fileKind(p, param, 'responses');
  return { type: 'input_file', file_data: fileToDataUrl(p), filename: fileName(p, kind) };
}
