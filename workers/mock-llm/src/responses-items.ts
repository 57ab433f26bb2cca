/**
 * The input items of a Responses API request, checked as OpenAI checks them:
 * a string or a list of items of the types OpenAI's published types list;
 * messages with a valid role and content parts allowed for that role; function
 * and custom tool calls and their outputs (an output whose call_id has no call
 * before it is a 400); item references resolved from the key's stored items.
 * Then the conversation as the shared completion rules read it (`toMessages`):
 * instructions as a system message, tool outputs as tool messages, and calls
 * as assistant turns. Pure (the store lookup is passed in).
 */
import type { MessageLike } from './text';
import { fail, isRecord, jsonType, type Parsed, type Problem } from './validate';

export type Item = Readonly<Record<string, unknown>>;

/** Every input item type OpenAI's published types list (`ResponseInputItem`). */
export const ITEM_TYPES = [
  'message',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'web_search_call',
  'function_call',
  'function_call_output',
  'tool_search_call',
  'tool_search_output',
  'additional_tools',
  'reasoning',
  'compaction',
  'image_generation_call',
  'code_interpreter_call',
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
  'custom_tool_call_output',
  'custom_tool_call',
  'compaction_trigger',
  'item_reference',
  'program',
  'program_output',
] as const;

const ROLES = ['user', 'assistant', 'system', 'developer'];
const INPUT_PARTS = ['input_text', 'input_image', 'input_file', 'input_audio'];
const OUTPUT_PARTS = ['output_text', 'refusal'];

const quoted = (values: readonly string[]): string => {
  const all = values.map((v) => `'${v}'`);
  return all.length > 1 ? `${all.slice(0, -1).join(', ')}, and ${all.at(-1)}` : (all[0] ?? '');
};

const missing = (param: string): Problem =>
  fail(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');

function mustBeString(item: Item, field: string, param: string): Problem | null {
  if (item[field] === undefined) return missing(`${param}.${field}`);
  if (typeof item[field] !== 'string')
    return fail(
      `Invalid type for '${param}.${field}': expected a string, but got ${jsonType(item[field])} instead.`,
      `${param}.${field}`,
      'invalid_type',
    );
  return null;
}

function checkMessage(item: Item, param: string): Problem | null {
  if (item.role === undefined) return missing(`${param}.role`);
  if (typeof item.role !== 'string' || !ROLES.includes(item.role))
    return fail(
      `Invalid value: '${String(item.role)}'. Supported values are: ${quoted(ROLES)}.`,
      `${param}.role`,
      'invalid_value',
    );
  if (item.content === undefined) return missing(`${param}.content`);
  if (typeof item.content === 'string') return null;
  if (!Array.isArray(item.content))
    return fail(
      `Invalid type for '${param}.content': expected one of a string or array of input items, but got ${jsonType(item.content)} instead.`,
      `${param}.content`,
      'invalid_type',
    );
  const allowed = item.role === 'assistant' ? OUTPUT_PARTS : INPUT_PARTS;
  for (const [j, part] of item.content.entries()) {
    const at = `${param}.content[${j}]`;
    if (!isRecord(part))
      return fail(
        `Invalid type for '${at}': expected an object, but got ${jsonType(part)} instead.`,
        at,
        'invalid_type',
      );
    if (typeof part.type !== 'string' || !allowed.includes(part.type))
      return fail(
        `Invalid value: '${String(part.type)}'. Supported values are: ${quoted(allowed)}.`,
        `${at}.type`,
        'invalid_value',
      );
    if ((part.type === 'input_text' || part.type === 'output_text') && typeof part.text !== 'string')
      return missing(`${at}.text`);
  }
  return null;
}

function checkItem(item: Item, param: string): Problem | null {
  switch (item.type) {
    case 'message':
      return checkMessage(item, param);
    case 'function_call':
    case 'custom_tool_call':
      return (
        mustBeString(item, 'call_id', param) ??
        mustBeString(item, 'name', param) ??
        mustBeString(item, item.type === 'function_call' ? 'arguments' : 'input', param)
      );
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const bad = mustBeString(item, 'call_id', param);
      if (bad) return bad;
      if (item.output === undefined) return missing(`${param}.output`);
      if (typeof item.output !== 'string' && !Array.isArray(item.output))
        return fail(
          `Invalid type for '${param}.output': expected one of a string or array of content items, but got ${jsonType(item.output)} instead.`,
          `${param}.output`,
          'invalid_type',
        );
      return null;
    }
    case 'reasoning':
      if (!Array.isArray(item.summary)) return missing(`${param}.summary`);
      return null;
    default:
      return null;
  }
}

/**
 * The request's own input items: a string is one user message; each item is
 * checked, a type-less item is a message, and an `item_reference` is replaced
 * by the stored item it names (`lookup`; unknown → 404-style 400 as OpenAI).
 */
export function parseInput(raw: unknown, lookup: (id: string) => Item | undefined): Parsed<Item[]> {
  if (raw === undefined || raw === null) return { ok: true, value: [] };
  if (typeof raw === 'string') return { ok: true, value: [{ type: 'message', role: 'user', content: raw }] };
  if (!Array.isArray(raw))
    return fail(
      `Invalid type for 'input': expected one of a string or array of input items, but got ${jsonType(raw)} instead.`,
      'input',
      'invalid_type',
    );
  const out: Item[] = [];
  for (const [i, entry] of raw.entries()) {
    const param = `input[${i}]`;
    if (!isRecord(entry))
      return fail(
        `Invalid type for '${param}': expected an input item, but got ${jsonType(entry)} instead.`,
        param,
        'invalid_type',
      );
    const item: Item =
      entry.type === undefined || entry.type === null ? { ...entry, type: 'message' } : entry;
    if (!(ITEM_TYPES as readonly unknown[]).includes(item.type))
      return fail(
        `Invalid value: '${String(item.type)}'. Supported values are: ${quoted(ITEM_TYPES)}.`,
        `${param}.type`,
        'invalid_value',
      );
    if (item.type === 'item_reference') {
      const found = typeof item.id === 'string' ? lookup(item.id) : undefined;
      if (!found) return fail(`Item with id '${String(item.id)}' not found.`, `${param}.id`);
      out.push(found);
      continue;
    }
    const bad = checkItem(item, param);
    if (bad) return bad;
    out.push(item);
  }
  return { ok: true, value: out };
}

/** OpenAI's 400 for a tool output whose call_id names no earlier call of its kind, or null when all pair up. */
export function unpairedOutput(items: readonly Item[]): Problem | null {
  const calls = new Set<string>();
  for (const item of items) {
    if (item.type === 'function_call' || item.type === 'custom_tool_call')
      calls.add(`${item.type}\n${item.call_id}`);
    const callType =
      item.type === 'function_call_output'
        ? 'function_call'
        : item.type === 'custom_tool_call_output'
          ? 'custom_tool_call'
          : undefined;
    if (callType && !calls.has(`${callType}\n${item.call_id}`))
      return fail(
        callType === 'function_call'
          ? `No tool call found for function call output with call_id ${String(item.call_id)}.`
          : `No tool call found for custom tool call output with call_id ${String(item.call_id)}.`,
        'input',
      );
  }
  return null;
}

/** Reasoning items that carry `encrypted_content` back: what the mock must unseal. */
export interface SealedReasoning {
  readonly id: string | undefined;
  readonly blob: string;
}

export function sealedReasoning(items: readonly Item[]): SealedReasoning[] {
  const out: SealedReasoning[] = [];
  for (const item of items)
    if (item.type === 'reasoning' && typeof item.encrypted_content === 'string')
      out.push({ id: typeof item.id === 'string' ? item.id : undefined, blob: item.encrypted_content });
  return out;
}

/**
 * The conversation as the completion rules read it (README "Tool calls"):
 * `instructions` a system message, messages as they are, tool calls an
 * assistant turn (so the last user turn starts after them), tool outputs `tool`
 * messages; reasoning and hosted-tool items say nothing.
 */
export function toMessages(instructions: string | undefined, items: readonly Item[]): MessageLike[] {
  const out: MessageLike[] = instructions === undefined ? [] : [{ role: 'system', content: instructions }];
  for (const item of items) {
    if (item.type === 'message') out.push({ role: item.role, content: item.content });
    else if (item.type === 'function_call' || item.type === 'custom_tool_call')
      out.push({ role: 'assistant', content: '' });
    else if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output')
      out.push({ role: 'tool', content: item.output });
  }
  return out;
}
