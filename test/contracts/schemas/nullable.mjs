/**
 * Response schemas from Stainless-generated SDK types (Anthropic's) mark every nullable field as
 * required (`citations: Array<TextCitation> | null`), but the API leaves such fields out when they
 * have no value, as its documented examples show. This relaxes exactly that: a required property
 * whose schema admits `null` may be absent; present, it must still fit.
 */

function admitsNull(schema) {
  if (!schema || typeof schema !== 'object') return false;
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  return (schema.anyOf ?? schema.oneOf ?? []).some(admitsNull);
}

function relax(node) {
  if (Array.isArray(node)) return node.map(relax);
  if (node === null || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, relax(value)]));
  if (Array.isArray(node.required) && node.properties) {
    out.required = node.required.filter((name) => !admitsNull(node.properties[name]));
  }
  return out;
}

/** A copy of JSON Schema `definitions` where required-but-nullable properties may be absent. */
export function nullableMayBeAbsent(definitions) {
  return relax(definitions);
}
