/**
 * JSON Schema (tool parameters, `response_format` schemas) → Gemini's Schema,
 * a subset of OpenAPI 3.0 (pure). Gemini refuses keywords it does not know, so
 * the subset it takes is kept, a few forms are rewritten to their exact
 * equivalent, keywords it cannot express that would change what is valid are
 * refused with a 400 naming the field, and the rest (annotations and
 * constraints such as `additionalProperties`) are dropped: docs/providers/gemini.md.
 */
import { badRequest } from '../../core/errors';
import { type Json, obj } from '../json';

/** Keywords Gemini's Schema has, copied as they are (after their sub-schemas are converted). */
const KEPT = new Set([
  'description',
  'title',
  'nullable',
  'required',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'minProperties',
  'maxProperties',
  'propertyOrdering',
  'default',
  'example',
]);

/** Keywords whose meaning Gemini cannot carry: refused rather than silently loosened. */
const REFUSED = new Set([
  '$ref',
  '$defs',
  'definitions',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'prefixItems',
  'contains',
  'dependentSchemas',
  'dependentRequired',
]);

/** The only `format` values Gemini accepts (strings: date-time and enum; numbers: the sized ones). */
const FORMATS = new Set(['date-time', 'enum', 'int32', 'int64', 'float', 'double']);

function refuse(param: string, why: string): never {
  throw badRequest(
    `'${param}' ${why}, which the Gemini format cannot express.`,
    param,
    'unsupported_parameter',
  );
}

/** Whether a tool's input schema declares any input (an object with no properties declares none). */
export function takesInput(schema: Json): boolean {
  const props = obj(schema.properties);
  return !(
    (schema.type === 'object' || schema.type === undefined) &&
    (!props || Object.keys(props).length === 0)
  );
}

export function toGeminiSchema(schema: Json, param: string): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    const at = `${param}.${key}`;
    if (REFUSED.has(key)) refuse(at, 'is used');
    if (KEPT.has(key)) out[key] = value;
    else if (key === 'type') Object.assign(out, typeOf(value, at));
    else if (key === 'format' && typeof value === 'string' && FORMATS.has(value)) out.format = value;
    else if (key === 'enum') out.enum = enumOf(value, at);
    else if (key === 'const') out.enum = enumOf([value], at);
    else if (key === 'items') out.items = sub(value, at);
    else if (key === 'anyOf' || key === 'oneOf') {
      // oneOf's "exactly one" is read as anyOf's "at least one": the same for the disjoint branches tools use.
      if (!Array.isArray(value)) refuse(at, 'is not a list');
      out.anyOf = value.map((v, i) => sub(v, `${at}[${i}]`));
    } else if (key === 'properties') {
      const props = obj(value) ?? {};
      out.properties = Object.fromEntries(
        Object.entries(props).map(([name, v]) => [name, sub(v, `${at}.${name}`)]),
      );
    }
  }
  return out;
}

function sub(value: unknown, param: string): Json {
  const schema = obj(value);
  if (!schema) refuse(param, 'is not a schema object');
  return toGeminiSchema(schema, param);
}

/** `"type": ["string", "null"]` is Gemini's `type` plus `nullable`; several non-null types become anyOf. */
function typeOf(value: unknown, param: string): Json {
  if (typeof value === 'string') return { type: value };
  if (!Array.isArray(value) || value.some((t) => typeof t !== 'string')) refuse(param, 'is not a type name');
  const types = value.filter((t) => t !== 'null') as string[];
  const nullable = types.length < value.length ? { nullable: true } : {};
  if (types.length === 0) refuse(param, "allows only 'null'");
  if (types.length === 1) return { type: types[0], ...nullable };
  return { anyOf: types.map((type) => ({ type })), ...nullable };
}

/** Gemini's enums are lists of strings. */
function enumOf(value: unknown, param: string): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    refuse(param, 'holds a value that is not a string');
  return value as string[];
}
