/**
 * Proto descriptors (../specs/gemini.json, read from Google's .proto files) as JSON Schema, by the
 * proto3 JSON mapping Google's REST APIs use: fields by their JSON name, enums by value name, 64-bit
 * integers as a number or a decimal string, bytes as base64, a oneof holding at most one member.
 * Objects are closed: the API refuses an unknown field ("Invalid JSON payload received. Unknown name").
 * `direction: 'input'` also requires the fields marked `(google.api.field_behavior) = REQUIRED`.
 */

const INTEGER = { type: 'integer' };
const INT64 = { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^-?[0-9]+$' }] };
const SCALARS = {
  string: { type: 'string' },
  bytes: { type: 'string', pattern: '^[A-Za-z0-9+/_-]*={0,2}$' },
  bool: { type: 'boolean' },
  double: { type: 'number' },
  float: { type: 'number' },
  int32: INTEGER,
  uint32: INTEGER,
  sint32: INTEGER,
  fixed32: INTEGER,
  sfixed32: INTEGER,
  int64: INT64,
  uint64: INT64,
  sint64: INT64,
  fixed64: INT64,
  sfixed64: INT64,
};

/** Well-known and common Google types, by their JSON mapping. */
const WELL_KNOWN = {
  'google.protobuf.Value': {},
  'google.protobuf.Struct': { type: 'object' },
  'google.protobuf.ListValue': { type: 'array' },
  'google.protobuf.Duration': { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?s$' },
  'google.protobuf.Timestamp': { type: 'string' },
  'google.protobuf.FieldMask': { type: 'string' },
  'google.protobuf.Empty': { type: 'object', additionalProperties: false },
  'google.type.LatLng': {
    type: 'object',
    properties: { latitude: { type: 'number' }, longitude: { type: 'number' } },
    additionalProperties: false,
  },
  'google.type.Interval': {
    type: 'object',
    properties: { startTime: { type: 'string' }, endTime: { type: 'string' } },
    additionalProperties: false,
  },
};

function typeSchema(type, spec) {
  if (type in SCALARS) return SCALARS[type];
  if (type in WELL_KNOWN) return WELL_KNOWN[type];
  if (type in spec.enums) return { enum: spec.enums[type] };
  if (type in spec.messages) return { $ref: `#/$defs/${type}` };
  throw new Error(`proto schema: unknown type ${type}`);
}

function fieldSchema(field, spec) {
  const value = typeSchema(field.type, spec);
  if (field.mapKey) return { type: 'object', additionalProperties: value };
  return field.repeated ? { type: 'array', items: value } : value;
}

function messageSchema(message, spec, direction) {
  const properties = {};
  const required = [];
  const oneofs = new Map();
  for (const field of message.fields) {
    properties[field.jsonName] = fieldSchema(field, spec);
    if (direction === 'input' && field.behaviors.includes('REQUIRED')) required.push(field.jsonName);
    if (field.oneof) oneofs.set(field.oneof, [...(oneofs.get(field.oneof) ?? []), field.jsonName]);
  }
  const schema = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) schema.required = required;
  const pairs = [...oneofs.values()].flatMap((names) =>
    names.flatMap((a, i) => names.slice(i + 1).map((b) => ({ required: [a, b] }))),
  );
  if (pairs.length > 0) schema.not = { anyOf: pairs };
  return schema;
}

/**
 * One JSON Schema document (`$id`) with every message under $defs, named by its full proto name,
 * and each rpc's body as `rpc.<Name>`: in the input direction, its request without the fields the
 * URL path carries (`{model=models/*}`), which the body need not repeat.
 */
export function protoSchemas(spec, id, direction) {
  const $defs = {};
  for (const [name, message] of Object.entries(spec.messages))
    $defs[name] = messageSchema(message, spec, direction);
  for (const [name, rpc] of Object.entries(spec.rpcs)) {
    if (direction === 'output') {
      $defs[`rpc.${name}`] = { $ref: `#/$defs/${rpc.response}` };
      continue;
    }
    const { required = [], ...body } = $defs[rpc.request];
    const left = required.filter((field) => !rpc.pathFields.includes(field));
    $defs[`rpc.${name}`] = left.length > 0 ? { ...body, required: left } : body;
  }
  return { $id: id, $defs };
}
