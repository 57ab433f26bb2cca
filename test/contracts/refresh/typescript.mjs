/**
 * What the descriptions made from an SDK's TypeScript types share (Anthropic's, OpenAI's,
 * Bedrock's): the installed package's version, and its declared types turned into JSON Schema
 * (draft-07 `definitions`) by ts-json-schema-generator, objects closed, without prose. `deprecated`
 * (from a `@deprecated` tag) is kept as `true` where asked: OpenAI marks fields on their way out so.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGenerator } from 'ts-json-schema-generator';

/** The installed package `name` under `root` (the checkout): its folder and version. */
export function installed(root, name) {
  const dir = join(root, 'node_modules', name);
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return { dir, version };
}

/** Keys whose value is a table of names, whose own keys are never prose. */
const NAME_TABLES = new Set(['properties', 'definitions']);

/** A copy of a generated schema without `description`, and `deprecated` as `true` or left out. */
function withoutProse(node, keepDeprecated, names = false) {
  if (Array.isArray(node)) return node.map((item) => withoutProse(item, keepDeprecated));
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (!names && key === 'description') continue;
    if (!names && key === 'deprecated') {
      if (keepDeprecated) out.deprecated = true;
      continue;
    }
    out[key] = withoutProse(value, keepDeprecated, !names && NAME_TABLES.has(key));
  }
  return out;
}

/**
 * The JSON Schema `definitions` of the types `roots` names, by declaration file under `dir`
 * (`{ 'resources/shared.d.ts': ['ErrorObject'] }`), with everything they refer to.
 */
export function typeSchemas(dir, roots, { deprecated = false } = {}) {
  const definitions = {};
  for (const [file, types] of Object.entries(roots)) {
    const generator = createGenerator({
      path: join(dir, file),
      skipTypeCheck: true,
      expose: 'all',
      topRef: true,
      jsDoc: deprecated ? 'extended' : 'none',
      additionalProperties: false,
    });
    for (const type of types) Object.assign(definitions, generator.createSchema(type).definitions);
  }
  return withoutProse(definitions, deprecated);
}
