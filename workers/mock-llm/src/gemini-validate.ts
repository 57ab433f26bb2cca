/**
 * The Gemini fake's checks of tool declarations, their parameter schemas
 * (only the fields of Google's Schema; an OBJECT needs properties) and
 * `toolConfig`, with Google's wording, plus the error type and key check that
 * every part of the request validation shares (pure).
 */
import type { ToolSpec } from './completion';
import { isRecord } from './validate';

export type GeminiMode = 'AUTO' | 'ANY' | 'NONE' | 'VALIDATED';

export class Invalid extends Error {}
export const unknownName = (name: string, at: string) =>
  new Invalid(
    `Invalid JSON payload received. Unknown name "${name}"${at ? ` at '${at}'` : ''}: Cannot find field.`,
  );
export const field = (path: string, message: string) =>
  new Invalid(`* GenerateContentRequest.${path}: ${message}\n`);

const SCHEMA = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);
const FUNCTION_NAME = /^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/;

export function checkKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>, at: string): void {
  for (const key of Object.keys(value)) if (!allowed.has(key)) throw unknownName(key, at);
}

export function checkSchema(schema: unknown, at: string): void {
  if (!isRecord(schema)) throw field(at, 'must be a schema object.');
  checkKeys(schema, SCHEMA, at);
  const type = typeof schema.type === 'string' ? schema.type.toUpperCase() : undefined;
  if (schema.type !== undefined && type === undefined)
    throw new Invalid(`Invalid value at '${at}.type': Proto field is not repeating, cannot start list.`);
  if (type === 'OBJECT' && (!isRecord(schema.properties) || Object.keys(schema.properties).length === 0))
    throw field(`${at}.properties`, 'should be non-empty for OBJECT type');
  if (isRecord(schema.properties))
    for (const [k, v] of Object.entries(schema.properties)) checkSchema(v, `${at}.properties[${k}]`);
  if (schema.items !== undefined) checkSchema(schema.items, `${at}.items`);
  if (Array.isArray(schema.anyOf))
    for (const [i, s] of schema.anyOf.entries()) checkSchema(s, `${at}.any_of[${i}]`);
  if (
    schema.enum !== undefined &&
    (!Array.isArray(schema.enum) || schema.enum.some((e) => typeof e !== 'string'))
  )
    throw new Invalid(`Invalid value at '${at}.enum': enum values must be strings.`);
}

/** Declared functions (name and parameters schema), in order. */
export function checkTools(raw: unknown): ToolSpec[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw field('tools', 'must be a list.');
  const names: ToolSpec[] = [];
  raw.forEach((tool, i) => {
    if (!isRecord(tool)) throw field(`tools[${i}]`, 'must be an object.');
    const declarations = tool.functionDeclarations;
    if (declarations === undefined) return;
    if (!Array.isArray(declarations)) throw field(`tools[${i}].function_declarations`, 'must be a list.');
    declarations.forEach((d, j) => {
      const at = `tools[${i}].function_declarations[${j}]`;
      if (!isRecord(d)) throw field(at, 'must be an object.');
      checkKeys(
        d,
        new Set(['name', 'description', 'parameters', 'parametersJsonSchema', 'response', 'behavior']),
        at,
      );
      if (typeof d.name !== 'string' || !FUNCTION_NAME.test(d.name))
        throw field(
          `${at}.name`,
          'Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.) or dashes (-), with a maximum length of 64.',
        );
      if (d.parameters !== undefined) checkSchema(d.parameters, `${at}.parameters`);
      names.push({ name: d.name, schema: d.parametersJsonSchema ?? d.parameters });
    });
  });
  return names;
}

export function checkToolConfig(
  raw: unknown,
  names: readonly string[],
): { mode: GeminiMode; allowed: string[] } {
  const config = isRecord(raw) && isRecord(raw.functionCallingConfig) ? raw.functionCallingConfig : {};
  const mode = config.mode ?? 'AUTO';
  if (mode !== 'AUTO' && mode !== 'ANY' && mode !== 'NONE' && mode !== 'VALIDATED')
    throw new Invalid(
      `Invalid value at 'tool_config.function_calling_config.mode' (type.googleapis.com/google.ai.generativelanguage.v1beta.FunctionCallingConfig.Mode), "${String(mode)}"`,
    );
  const allowed = Array.isArray(config.allowedFunctionNames) ? (config.allowedFunctionNames as string[]) : [];
  if (allowed.length > 0 && mode !== 'ANY')
    throw field(
      'tool_config.function_calling_config.allowed_function_names',
      'allowed_function_names should only be set when the Mode is ANY.',
    );
  for (const name of allowed)
    if (!names.includes(name))
      throw field(
        'tool_config.function_calling_config.allowed_function_names',
        `function ${name} is not declared.`,
      );
  return { mode, allowed };
}
