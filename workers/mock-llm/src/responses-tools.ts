/**
 * The tools of a Responses API request, validated as OpenAI does: function and
 * custom (free-form) tools the mock may call, hosted tools (web_search,
 * file_search, namespace, mcp, …) accepted and never called — except the
 * function and custom tools inside a `namespace`, which are callable and name
 * their namespace in the call — and `tool_choice`, which picks the forced tool
 * (or, `none`, forbids calls). Pure.
 */
import type { ToolSpec } from './completion';
import { fail, isRecord, jsonType, type Parsed } from './validate';

/** A callable tool: a function (JSON arguments) or a custom tool (one free-form string input). */
export interface ResponsesTool extends ToolSpec {
  readonly kind: 'function' | 'custom';
  /** The `namespace` tool it was declared in, if any. */
  readonly namespace?: string;
}

/** Every tool type OpenAI's published types list (`Tool` in openai/resources/responses). */
export const TOOL_TYPES = [
  'function',
  'custom',
  'file_search',
  'computer',
  'computer_use_preview',
  'web_search',
  'web_search_2025_08_26',
  'web_search_preview',
  'web_search_preview_2025_03_11',
  'mcp',
  'code_interpreter',
  'programmatic_tool_calling',
  'image_generation',
  'local_shell',
  'shell',
  'namespace',
  'tool_search',
  'apply_patch',
] as const;

/** A custom tool as the mock calls it: one string argument, `input` (README "Responses"). */
export const CUSTOM_TOOL_SCHEMA = {
  type: 'object',
  properties: { input: { type: 'string' } },
  required: ['input'],
};

const quoted = (values: readonly string[]): string => {
  const all = values.map((v) => `'${v}'`);
  return all.length > 1 ? `${all.slice(0, -1).join(', ')}, and ${all.at(-1)}` : (all[0] ?? '');
};

function invalidValue(value: unknown, allowed: readonly string[], param: string) {
  return fail(
    `Invalid value: '${String(value)}'. Supported values are: ${quoted(allowed)}.`,
    param,
    'invalid_value',
  );
}

function callable(tool: Record<string, unknown>, param: string, namespace?: string): Parsed<ResponsesTool> {
  if (typeof tool.name !== 'string' || tool.name === '')
    return fail(
      `Missing required parameter: '${param}.name'.`,
      `${param}.name`,
      'missing_required_parameter',
    );
  const ns = namespace === undefined ? {} : { namespace };
  return tool.type === 'custom'
    ? { ok: true, value: { kind: 'custom', name: tool.name, schema: CUSTOM_TOOL_SCHEMA, ...ns } }
    : { ok: true, value: { kind: 'function', name: tool.name, schema: tool.parameters ?? {}, ...ns } };
}

/** The callable tools of `tools` (hosted ones are checked for a known type and skipped). */
export function parseTools(raw: unknown): Parsed<readonly ResponsesTool[]> {
  if (raw === undefined || raw === null) return { ok: true, value: [] };
  if (!Array.isArray(raw))
    return fail(
      `Invalid type for 'tools': expected an array, but got ${jsonType(raw)} instead.`,
      'tools',
      'invalid_type',
    );
  const out: ResponsesTool[] = [];
  for (const [i, tool] of raw.entries()) {
    const param = `tools[${i}]`;
    if (!isRecord(tool))
      return fail(
        `Invalid type for '${param}': expected an object, but got ${jsonType(tool)} instead.`,
        param,
        'invalid_type',
      );
    if (!(TOOL_TYPES as readonly unknown[]).includes(tool.type))
      return invalidValue(tool.type, TOOL_TYPES, `${param}.type`);
    if (tool.type === 'function' || tool.type === 'custom') {
      const parsed = callable(tool, param);
      if (!parsed.ok) return parsed;
      out.push(parsed.value);
    }
    if (tool.type === 'namespace') {
      if (typeof tool.name !== 'string' || tool.name === '')
        return fail(
          `Missing required parameter: '${param}.name'.`,
          `${param}.name`,
          'missing_required_parameter',
        );
      const inner = Array.isArray(tool.tools) ? tool.tools : [];
      for (const [j, member] of inner.entries()) {
        const memberParam = `${param}.tools[${j}]`;
        if (!isRecord(member) || (member.type !== 'function' && member.type !== 'custom'))
          return invalidValue(
            isRecord(member) ? member.type : member,
            ['function', 'custom'],
            `${memberParam}.type`,
          );
        const parsed = callable(member, memberParam, tool.name);
        if (!parsed.ok) return parsed;
        out.push(parsed.value);
      }
    }
  }
  return { ok: true, value: out };
}

/** What `tool_choice` asks: calls forbidden, or the tool a call is forced to (by name), or neither. */
export interface ToolChoice {
  readonly none: boolean;
  readonly forced: string | undefined;
}

const HOSTED_CHOICES = [
  'file_search',
  'web_search_preview',
  'computer',
  'computer_use_preview',
  'computer_use',
  'web_search_preview_2025_03_11',
  'image_generation',
  'code_interpreter',
  'mcp',
  'apply_patch',
  'shell',
  'programmatic_tool_calling',
];

/** `required` forces the first tool; a named function or custom choice that tool; `allowed_tools` in `required` mode its first. */
export function parseToolChoice(raw: unknown, tools: readonly ResponsesTool[]): Parsed<ToolChoice> {
  if (raw === undefined || raw === null || raw === 'auto')
    return { ok: true, value: { none: false, forced: undefined } };
  if (raw === 'none') return { ok: true, value: { none: true, forced: undefined } };
  if (raw === 'required') return { ok: true, value: { none: false, forced: tools[0]?.name } };
  if (typeof raw === 'string') return invalidValue(raw, ['none', 'auto', 'required'], 'tool_choice');
  if (!isRecord(raw))
    return fail(
      `Invalid type for 'tool_choice': expected an object, but got ${jsonType(raw)} instead.`,
      'tool_choice',
      'invalid_type',
    );
  if (raw.type === 'function' || raw.type === 'custom') {
    if (typeof raw.name !== 'string')
      return fail(
        "Missing required parameter: 'tool_choice.name'.",
        'tool_choice.name',
        'missing_required_parameter',
      );
    if (!tools.some((t) => t.name === raw.name && t.kind === raw.type))
      return fail(`Tool choice '${raw.type}' not found in 'tools' parameter.`, 'tool_choice');
    return { ok: true, value: { none: false, forced: raw.name } };
  }
  if (raw.type === 'allowed_tools') {
    if (raw.mode !== 'auto' && raw.mode !== 'required')
      return invalidValue(raw.mode, ['auto', 'required'], 'tool_choice.mode');
    if (!Array.isArray(raw.tools))
      return fail(
        "Missing required parameter: 'tool_choice.tools'.",
        'tool_choice.tools',
        'missing_required_parameter',
      );
    const names = raw.tools.map((t) => (isRecord(t) ? t.name : undefined));
    const first = tools.find((t) => names.includes(t.name));
    return { ok: true, value: { none: false, forced: raw.mode === 'required' ? first?.name : undefined } };
  }
  if (typeof raw.type === 'string' && HOSTED_CHOICES.includes(raw.type))
    return { ok: true, value: { none: false, forced: undefined } };
  return invalidValue(
    raw.type,
    ['function', 'custom', 'allowed_tools', ...HOSTED_CHOICES],
    'tool_choice.type',
  );
}
