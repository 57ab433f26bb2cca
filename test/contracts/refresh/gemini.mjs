/**
 * Gemini's description: the Generative Language API v1beta protocol buffers, the source its REST
 * discovery document is generated from, as Google's own Node client for the API
 * (@google-ai/generativelanguage) ships them in build/protos/: descriptors (./proto.mjs) of the
 * messages and enums that its generate, count and embed rpcs reach, with their REST bindings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseProto, resolveType } from './proto.mjs';
import { closure } from './trim.mjs';
import { installed } from './typescript.mjs';

const PACKAGE = '@google-ai/generativelanguage';

/** `{ files, provenance }` read from the package installed under `root` (the checkout). */
export function refreshGemini(root, fetched) {
  const { dir, version } = installed(root, PACKAGE);
  const folder = 'build/protos/google/ai/generativelanguage/v1beta';
  const protos = readdirSync(join(dir, folder))
    .filter((file) => file.endsWith('.proto'))
    .sort();
  const parsed = { messages: {}, enums: {}, rpcs: {} };
  for (const file of protos) parseProto(readFileSync(join(dir, folder, file), 'utf8'), parsed);
  const known = (name) => name in parsed.messages || name in parsed.enums;
  for (const [name, message] of Object.entries(parsed.messages)) {
    for (const field of message.fields) field.type = resolveType(field.type, name, known);
  }
  const pkg = 'google.ai.generativelanguage.v1beta';
  const rpcs = Object.fromEntries(
    ['GenerateContent', 'StreamGenerateContent', 'CountTokens', 'EmbedContent', 'BatchEmbedContents'].map(
      (name) => [name, parsed.rpcs[name]],
    ),
  );
  const roots = Object.values(rpcs).flatMap((rpc) => [rpc.request, rpc.response]);
  const all = {
    ...parsed.messages,
    ...Object.fromEntries(Object.keys(parsed.enums).map((name) => [name, {}])),
  };
  const reached = closure(all, roots, (message) => (message.fields ?? []).map((field) => field.type));
  const description = {
    package: pkg,
    rpcs,
    messages: Object.fromEntries(
      Object.keys(reached)
        .filter((n) => n in parsed.messages)
        .map((n) => [n, parsed.messages[n]]),
    ),
    enums: Object.fromEntries(
      Object.keys(reached)
        .filter((n) => n in parsed.enums)
        .map((n) => [n, parsed.enums[n]]),
    ),
  };
  const provenance = {
    description: `Generative Language API v1beta protocol buffers (the source of its discovery document) as ${PACKAGE} ${version} ships them: rpcs ${Object.keys(rpcs).join(', ')} with their REST bindings`,
    package: `${PACKAGE}@${version}`,
    path: `${folder}/*.proto`,
    fetched,
    url: `https://www.npmjs.com/package/${PACKAGE}/v/${version}`,
  };
  return { files: { 'gemini.json': description }, provenance };
}
