/**
 * Tools of the Responses API ⇄ the canonical tools (pure). `function` tools are canonical tools;
 * `custom` (free-form) tools become tools with one string argument, `input`, and their calls carry
 * `{"input": …}` as arguments; tools only OpenAI runs (web search, file search, computer use, code
 * interpreter, MCP, shell, `namespace`, …) have no canonical form: they are dropped and named
 * `tools[<type>]` (a Responses provider gets the client's body as sent, with them).
 */
import { badRequest } from '../../core/errors';
import type { ChatRequest, Tool, ToolChoice } from '../ir';
import { arr, type Json, obj, str, unsupported } from '../json';

/** The parameters a custom tool stands for: one string, described by the tool's grammar when it has one. */
function customParameters(format: Json | null): Record<string, unknown> {
  const definition = format?.type === 'grammar' ? str(format.definition) : null;
  const syntax = str(format?.syntax) ?? 'grammar';
  const description =
    definition === null ? 'The free-form input.' : `The input, in this ${syntax} grammar:\n${definition}`;
  return {
    type: 'object',
    properties: { input: { type: 'string', description } },
    required: ['input'],
  };
}

/** The canonical tools of a Responses body; what cannot be one is named in `dropped`. */
export function decodeTools(raw: unknown, dropped: string[]): Tool[] {
  const tools: Tool[] = [];
  let strict = false;
  arr(raw).forEach((value, i) => {
    const tool = obj(value) ?? {};
    const name = str(tool.name);
    if (tool.type === 'function' && name !== null) {
      if (tool.strict === true) strict = true;
      tools.push({ name, description: str(tool.description), parameters: obj(tool.parameters) ?? {} });
    } else if (tool.type === 'custom' && name !== null) {
      tools.push({
        name,
        description: str(tool.description),
        parameters: customParameters(obj(tool.format)),
      });
    } else if (typeof tool.type === 'string') {
      const key = `tools[${tool.type}]`;
      if (!dropped.includes(key)) dropped.push(key);
    } else {
      throw unsupported(`tools[${i}].type`, null, `'${String(tool.type)}'`);
    }
  });
  if (strict) dropped.push('tools[].strict');
  return tools;
}

/** The names of the body's `custom` tools, whose calls a Responses client gets as `custom_tool_call`s. */
export function customToolNames(body: Json | undefined): ReadonlySet<string> {
  const names = new Set<string>();
  for (const value of arr(body?.tools)) {
    const tool = obj(value);
    const name = str(tool?.name);
    if (tool?.type === 'custom' && name !== null) names.add(name);
  }
  return names;
}

/** A custom tool call's free-form input from its canonical arguments (`{"input": …}`); else the arguments as they are. */
export function customInput(args: string): string {
  try {
    const input = obj(JSON.parse(args))?.input;
    if (typeof input === 'string') return input;
  } catch {
    // not JSON: the arguments are the input
  }
  return args;
}

/** The canonical arguments of a custom tool call's free-form input. */
export const customArguments = (input: string): string => JSON.stringify({ input });

export function decodeToolChoice(v: unknown, dropped: string[]): ToolChoice | null {
  if (v === undefined || v === null) return null;
  if (v === 'auto' || v === 'none' || v === 'required') return { type: v };
  const choice = obj(v) ?? {};
  const name = str(choice.name);
  if ((choice.type === 'function' || choice.type === 'custom') && name !== null)
    return { type: 'tool', name };
  if (choice.type === 'allowed_tools' && (choice.mode === 'auto' || choice.mode === 'required')) {
    // The subset of tools allowed has no canonical form; the mode does.
    dropped.push('tool_choice.allowed_tools');
    return { type: choice.mode };
  }
  throw badRequest(
    `'tool_choice' of type '${String(choice.type)}' forces a tool only OpenAI runs, which this model cannot call; remove it or choose another model.`,
    'tool_choice',
    'unsupported_value',
  );
}

/** Canonical tools as Responses function tools (not strict: a translated schema may not meet OpenAI's strict rules). */
export function encodeTools(tools: ChatRequest['tools']): Json[] {
  return tools.map((t) => ({
    type: 'function',
    name: t.name,
    ...(t.description ? { description: t.description } : {}),
    parameters: t.parameters,
    strict: false,
  }));
}

/** A canonical tool choice as the Responses API's (null for 'auto', its default). */
export function encodeToolChoice(choice: ToolChoice | null): string | Json | null {
  if (!choice || choice.type === 'auto') return null;
  return choice.type === 'tool' ? { type: 'function', name: choice.name } : choice.type;
}
