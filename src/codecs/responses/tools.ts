/**
 * Tools of the Responses API ⇄ the canonical tools (pure). `function` tools are canonical tools;
 * `custom` (free-form) tools become tools with one string argument, `input`, and their calls carry
 * `{"input": …}` as arguments; tools only OpenAI runs (web search, file search, computer use, code
 * interpreter, MCP, shell, …) have no canonical form: they are dropped and named `tools[<type>]` (a
 * Responses provider gets the client's body as sent, with them). A `namespace` tool (a group of function and
 * custom tools, as Codex sends each MCP server's tools) is its members, each a canonical tool named
 * `<namespace>__<name>`; their calls go back to the client as items naming the namespace and the member.
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

/** A canonical tool's name: a namespace member's is `<namespace>__<name>`. */
export const canonicalToolName = (namespace: string | null, name: string): string =>
  namespace === null ? name : `${namespace}__${name}`;

/** How the client declared a tool: a custom or function tool, and the namespace it sits in. */
export interface ClientTool {
  readonly custom: boolean;
  readonly namespace: string | null;
  /** Its own name (a namespace member's without the namespace). */
  readonly name: string;
}

/**
 * A function or custom tool as a canonical tool; null for any other type. A namespace's member without a
 * description of its own is described by its namespace's.
 */
function callable(tool: Json, namespace: string | null, namespaceDescription: string | null): Tool | null {
  const name = str(tool.name);
  if (name === null) return null;
  const description = str(tool.description) ?? namespaceDescription;
  if (tool.type === 'function')
    return { name: canonicalToolName(namespace, name), description, parameters: obj(tool.parameters) ?? {} };
  if (tool.type === 'custom')
    return {
      name: canonicalToolName(namespace, name),
      description,
      parameters: customParameters(obj(tool.format)),
    };
  return null;
}

/** The canonical tools of a Responses body; what cannot be one is named in `dropped`. */
export function decodeTools(raw: unknown, dropped: string[]): Tool[] {
  const tools: Tool[] = [];
  let strict = false;
  arr(raw).forEach((value, i) => {
    const tool = obj(value) ?? {};
    const namespace = tool.type === 'namespace' ? str(tool.name) : null;
    const members = namespace === null ? [tool] : arr(tool.tools).map((m) => obj(m) ?? {});
    const decoded = members.map((m) => callable(m, namespace, str(tool.description)));
    if (decoded.length > 0 && decoded.every((t) => t !== null)) {
      if (members.some((m) => m.strict === true)) strict = true;
      tools.push(...(decoded as Tool[]));
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

/**
 * The body's custom tools and namespace members by canonical name: a custom tool's calls go back to a
 * Responses client as `custom_tool_call`s, a member's name its namespace. Plain function tools are absent.
 */
export function clientTools(body: Json | undefined): ReadonlyMap<string, ClientTool> {
  const tools = new Map<string, ClientTool>();
  const add = (tool: Json | null, namespace: string | null) => {
    const name = str(tool?.name);
    if (name === null || (tool?.type !== 'custom' && namespace === null)) return;
    if (tool?.type !== 'custom' && tool?.type !== 'function') return;
    tools.set(canonicalToolName(namespace, name), { custom: tool.type === 'custom', namespace, name });
  };
  for (const value of arr(body?.tools)) {
    const tool = obj(value);
    const namespace = tool?.type === 'namespace' ? str(tool.name) : null;
    if (namespace === null) add(tool, null);
    else for (const member of arr(tool?.tools)) add(obj(member), namespace);
  }
  return tools;
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
