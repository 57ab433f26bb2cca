/**
 * OpenAPI components (../specs/openai.json) as JSON Schema 2020-12: references into $defs, and the
 * OpenAPI 3.0 keyword `nullable` the document still uses turned into a `null` alternative.
 * `closed` adds `unevaluatedProperties: false` to every object schema that is not a part of an
 * `allOf` (a part sees only its own properties; the whole sees them all), so a field the
 * description does not name is reported (OpenAI answers 400 "Unrecognized request argument"),
 * and turns `deprecated: true` into `deprecatedField: true`, a keyword ../contracts.mjs reports.
 */

function convert(node, closed, part) {
  if (Array.isArray(node)) return node.map((item) => convert(item, closed, false));
  if (node === null || typeof node !== 'object') return node;
  const { nullable, discriminator, example, examples, deprecated, ...rest } = node;
  const out = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key === '$ref') out.$ref = value.replace('#/components/schemas/', '#/$defs/');
    else if (key === 'allOf') out.allOf = value.map((item) => convert(item, closed, true));
    else if (key === 'properties' || key === 'patternProperties')
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, item]) => [name, convert(item, closed, false)]),
      );
    else out[key] = convert(value, closed, false);
  }
  if (closed && deprecated === true) out.deprecatedField = true;
  const object = out.properties !== undefined || out.allOf !== undefined;
  if (closed && !part && object && out.additionalProperties === undefined) out.unevaluatedProperties = false;
  if (nullable !== true) return out;
  if (typeof out.type === 'string' && !out.$ref) {
    out.type = [out.type, 'null'];
    if (out.enum && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

/** The components some `allOf` uses as a part, directly by reference. */
function partsOf(schemas) {
  const parts = new Set();
  const visit = (node) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const item of node.allOf ?? [])
        if (item.$ref) parts.add(item.$ref.replace('#/components/schemas/', ''));
      Object.values(node).forEach(visit);
    }
  };
  visit(schemas);
  return parts;
}

/** One JSON Schema document (`$id`) with every component under $defs. */
export function openApiSchemas(spec, id, closed) {
  const parts = partsOf(spec.components.schemas);
  const $defs = Object.fromEntries(
    Object.entries(spec.components.schemas).map(([name, schema]) => [
      name,
      convert(schema, closed, parts.has(name)),
    ]),
  );
  return { $id: id, $defs };
}
