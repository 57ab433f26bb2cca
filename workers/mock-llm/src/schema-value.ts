/**
 * A deterministic value for a JSON Schema: what the mock answers for
 * structured outputs (Anthropic `output_config.format`, OpenAI `response_format`,
 * Gemini `responseSchema`/`responseJsonSchema`, Bedrock `outputConfig.textFormat`)
 * and the arguments of the tool calls it makes. Not a validator: it reads the
 * keywords that decide a valid instance (type, enum/const, properties, items,
 * bounds, anyOf/oneOf/allOf, $ref into $defs/definitions) and ignores the rest.
 * Google's upper-case types (`OBJECT`, `STRING`) and `nullable` are read too. Pure.
 */

type Schema = Readonly<Record<string, unknown>>;

/** Deeper than this, objects keep only required properties and arrays their minItems, so recursive schemas end. */
const MAX_DEPTH = 8;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function resolveRef(ref: string, root: Schema): Schema {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const defs = match ? root[match[1] as string] : undefined;
  const target = isSchema(defs) ? defs[decodeURIComponent(match?.[2] ?? '')] : undefined;
  return isSchema(target) ? target : {};
}

/** The schema's type: the first non-null one of a type list, lower-cased; inferred from keywords when absent. */
function typeOf(schema: Schema): string | undefined {
  const raw = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') ?? 'null') : schema.type;
  if (typeof raw === 'string') return raw.toLowerCase();
  if (isSchema(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

function numberFor(schema: Schema, integer: boolean): number {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + (integer ? 1 : 0.5)
        : undefined;
  const max =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum - (integer ? 1 : 0.5)
        : undefined;
  const value = min ?? (max !== undefined && max < 0 ? max : 0);
  return integer ? Math.ceil(value) : value;
}

function stringFor(schema: Schema): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  const text = 'string'.padEnd(min, 'x');
  return text.length > max ? text.slice(0, max) : text;
}

function objectFor(schema: Schema, root: Schema, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const [name, sub] of Object.entries(properties))
    if (depth < MAX_DEPTH || required.includes(name)) out[name] = valueAt(sub, root, depth + 1);
  for (const name of required) if (typeof name === 'string' && !(name in out)) out[name] = 'string';
  return out;
}

function arrayFor(schema: Schema, root: Schema, depth: number): unknown[] {
  const min = typeof schema.minItems === 'number' ? schema.minItems : depth < MAX_DEPTH ? 1 : 0;
  const count = typeof schema.maxItems === 'number' ? Math.min(min, schema.maxItems) : min;
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
  return Array.from({ length: Math.max(count, prefix.length) }, (_, i) =>
    valueAt(prefix[i] ?? schema.items, root, depth + 1),
  );
}

function valueAt(raw: unknown, root: Schema, depth: number): unknown {
  if (!isSchema(raw)) return null;
  const schema = raw;
  if (typeof schema.$ref === 'string') {
    if (depth > 4 * MAX_DEPTH) return null;
    const { $ref, ...rest } = schema;
    return valueAt({ ...rest, ...resolveRef($ref, root) }, root, depth + 1);
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const choice = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : null;
  if (choice && choice.length > 0) {
    const first = choice.find((s) => !(isSchema(s) && s.type === 'null')) ?? choice[0];
    return valueAt(first, root, depth);
  }
  if (Array.isArray(schema.allOf)) {
    const merged: Record<string, unknown> = { ...schema, allOf: undefined };
    for (const part of schema.allOf)
      if (isSchema(part)) {
        const resolved = typeof part.$ref === 'string' ? resolveRef(part.$ref, root) : part;
        Object.assign(merged, resolved, {
          properties: { ...(merged.properties as object), ...(resolved.properties as object) },
          required: [...((merged.required as unknown[]) ?? []), ...((resolved.required as unknown[]) ?? [])],
        });
      }
    return valueAt(merged, root, depth);
  }
  switch (typeOf(schema)) {
    case 'object':
      return objectFor(schema, root, depth);
    case 'array':
      return arrayFor(schema, root, depth);
    case 'string':
      return stringFor(schema);
    case 'integer':
      return numberFor(schema, true);
    case 'number':
      return numberFor(schema, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return null;
  }
}

/** A value valid against `schema` (JSON Schema, or Google's Schema), the same one every time. */
export function schemaValue(schema: unknown): unknown {
  return valueAt(schema, isSchema(schema) ? schema : {}, 0);
}

/** Tool-call arguments for an input schema: the schema's value when it is an object, else `{}`. */
export function toolArguments(schema: unknown): Record<string, unknown> {
  const value = schemaValue(schema);
  return isSchema(value) ? (value as Record<string, unknown>) : {};
}
