/**
 * A botocore service model's shapes (../specs/bedrock.json, the JSON form of the service's Smithy
 * model) as JSON Schema, by the rest-json protocol: members by name, structures closed (Bedrock
 * refuses extraneous keys), a union holding exactly one member, `min`/`max` as lengths, sizes or
 * bounds, blobs as base64, documents as any JSON. Members bound to the URI, a header or the query
 * are not in the body, so they are left out.
 */

function shapeSchema(shape) {
  const limits = (minimum, maximum) => ({
    ...(shape.min !== undefined ? { [minimum]: shape.min } : {}),
    ...(shape.max !== undefined ? { [maximum]: shape.max } : {}),
  });
  switch (shape.type) {
    case 'structure': {
      if (shape.document) return {};
      const members = Object.entries(shape.members ?? {}).filter(([, member]) => !member.location);
      const properties = Object.fromEntries(
        members.map(([name, member]) => [member.locationName ?? name, { $ref: `#/$defs/${member.shape}` }]),
      );
      const body = new Set(members.map(([name]) => name));
      const required = (shape.required ?? []).filter((name) => body.has(name));
      const schema = { type: 'object', properties, additionalProperties: false };
      if (required.length > 0) schema.required = required;
      if (shape.union) Object.assign(schema, { minProperties: 1, maxProperties: 1 });
      return schema;
    }
    case 'list':
      return {
        type: 'array',
        items: { $ref: `#/$defs/${shape.member.shape}` },
        ...limits('minItems', 'maxItems'),
      };
    case 'map':
      return {
        type: 'object',
        additionalProperties: { $ref: `#/$defs/${shape.value.shape}` },
        ...limits('minProperties', 'maxProperties'),
      };
    case 'string':
      return {
        type: 'string',
        ...(shape.enum ? { enum: shape.enum } : {}),
        ...limits('minLength', 'maxLength'),
      };
    case 'blob':
      return { type: 'string', pattern: '^[A-Za-z0-9+/]*={0,2}$' };
    case 'boolean':
      return { type: 'boolean' };
    case 'integer':
    case 'long':
      return { type: 'integer', ...limits('minimum', 'maximum') };
    case 'float':
    case 'double':
      return { type: 'number', ...limits('minimum', 'maximum') };
    case 'timestamp':
      return { type: ['string', 'number'] };
    default:
      throw new Error(`botocore schema: shape type ${shape.type}`);
  }
}

/** One JSON Schema document (`$id`) with every shape under $defs, by its shape name. */
export function botocoreSchemas(spec, id) {
  const $defs = {};
  for (const [name, shape] of Object.entries(spec.shapes)) $defs[name] = shapeSchema(shape);
  return { $id: id, $defs };
}
