/**
 * The input schema of the fake Workers AI chat models (./workers-ai-chat.ts),
 * as their model pages publish it: `messages` (or `prompt`), roles, content
 * types, tool shapes and numeric ranges. A breach throws as the binding does.
 */

export type Json = Record<string, unknown>;

/** What a fake chat model is: its context window, whether content may be parts, its tool-call shape. */
export interface ChatModel {
  readonly contextWindow: number;
  readonly parts: boolean;
  readonly toolShape: 'flat' | 'openai';
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
/** The models' own default output cap. */
const DEFAULT_MAX_TOKENS = 256;
const MAX_CONTENT = 131072;

/** Ranges of the numeric inputs, as the schemas give them. */
const RANGES: Readonly<Record<string, readonly [number, number, 'integer' | 'number']>> = {
  temperature: [0, 5, 'number'],
  top_p: [0, 2, 'number'],
  top_k: [1, 50, 'integer'],
  seed: [1, 9999999999, 'integer'],
  repetition_penalty: [0, 2, 'number'],
  frequency_penalty: [0, 2, 'number'],
  presence_penalty: [0, 2, 'number'],
};

export function schemaError(detail: string): Error {
  return new Error(`5006: Error: oneOf at '/' not met, 0 matches: ${detail}`);
}

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The messages to answer (a `prompt` is one user message) and the output cap. */
export function validate(inputs: Json, model: ChatModel): { messages: Json[]; maxTokens: number } {
  for (const [field, [min, max, type]] of Object.entries(RANGES)) {
    const v = inputs[field];
    if (v === undefined) continue;
    if (typeof v !== 'number' || (type === 'integer' && !Number.isInteger(v)))
      throw schemaError(`type at '/${field}' not met: expected ${type}`);
    if (v < min) throw schemaError(`minimum at '/${field}' not met: ${v} < ${min}`);
    if (v > max) throw schemaError(`maximum at '/${field}' not met: ${v} > ${max}`);
  }
  const maxTokens = inputs.max_tokens ?? DEFAULT_MAX_TOKENS;
  if (!Number.isInteger(maxTokens)) throw schemaError("type at '/max_tokens' not met: expected integer");
  if (inputs.stream !== undefined && typeof inputs.stream !== 'boolean')
    throw schemaError("type at '/stream' not met: expected boolean");
  let messages: Json[];
  if (inputs.messages === undefined && typeof inputs.prompt === 'string') {
    if (inputs.prompt.length < 1) throw schemaError("minLength at '/prompt' not met");
    messages = [{ role: 'user', content: inputs.prompt }];
  } else {
    if (!Array.isArray(inputs.messages)) throw schemaError("required properties at '/' not met: messages");
    messages = inputs.messages.map((m, i) => validMessage(m, i, model));
  }
  if (inputs.tools !== undefined) {
    if (!Array.isArray(inputs.tools)) throw schemaError("type at '/tools' not met: expected array");
    inputs.tools.forEach(validTool);
  }
  return { messages, maxTokens: maxTokens as number };
}

function validMessage(m: unknown, i: number, model: ChatModel): Json {
  const at = `/messages/${i}`;
  if (!isObject(m)) throw schemaError(`type at '${at}' not met: expected object`);
  if (typeof m.role !== 'string' || typeof m.content === 'undefined')
    throw schemaError(`required properties at '${at}' not met: role, content`);
  if (!ROLES.has(m.role)) throw schemaError(`enum at '${at}/role' not met: ${m.role}`);
  const c = m.content;
  const parts =
    Array.isArray(c) && c.every((p) => isObject(p) && p.type === 'text' && typeof p.text === 'string');
  if (typeof c === 'string') {
    if (c.length > MAX_CONTENT) throw schemaError(`maxLength at '${at}/content' not met`);
  } else if (!(model.parts && parts)) {
    throw schemaError(`type at '${at}/content' not met: expected string`);
  }
  return m;
}

function validTool(t: unknown, i: number): void {
  const at = `/tools/${i}`;
  const fn = isObject(t) && isObject(t.function) ? t.function : t;
  if (
    !isObject(fn) ||
    typeof fn.name !== 'string' ||
    typeof fn.description !== 'string' ||
    !isObject(fn.parameters)
  )
    throw schemaError(`required properties at '${at}' not met: name, description, parameters`);
  const p = fn.parameters;
  if (typeof p.type !== 'string' || !isObject(p.properties))
    throw schemaError(`required properties at '${at}/parameters' not met: type, properties`);
  for (const [name, prop] of Object.entries(p.properties)) {
    if (!isObject(prop) || typeof prop.type !== 'string' || typeof prop.description !== 'string')
      throw schemaError(
        `required properties at '${at}/parameters/properties/${name}' not met: type, description`,
      );
  }
}
