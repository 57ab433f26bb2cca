/**
 * OpenAI's SDK types mark fields on their way out with `@deprecated`, kept in its description as
 * `deprecated: true` (../refresh/openai.mjs). JSON Schema's `deprecated` is only an annotation, so
 * for the request schemas it is renamed `deprecatedField`, a keyword ../contracts.mjs reports: a
 * request that sends a deprecated field departs from the description.
 */

function rename(node) {
  if (Array.isArray(node)) return node.map(rename);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'deprecated' && value === true) out.deprecatedField = true;
    else out[key] = rename(value);
  }
  return out;
}

/** A copy of JSON Schema `definitions` where `deprecated: true` is `deprecatedField: true`. */
export function deprecatedAsError(definitions) {
  return rename(definitions);
}
