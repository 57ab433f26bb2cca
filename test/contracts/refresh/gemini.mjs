/**
 * Gemini's description: the Generative Language API v1beta protocol buffers (googleapis/googleapis),
 * the source its discovery document is generated from, as descriptors (./proto.mjs) of the
 * messages and enums that its generate, count and embed rpcs reach, with their REST bindings.
 */
import { parseProto, resolveType } from './proto.mjs';
import { closure } from './trim.mjs';

/** `{ files, provenance }` read from the mirror (`reader` from trim.mjs `mirrorReader`). */
export function refreshGemini(reader, fetched) {
  const repo = 'googleapis/googleapis';
  const folder = 'google/ai/generativelanguage/v1beta';
  const protos = reader
    .git(repo, 'ls-tree', '--name-only', 'HEAD', `${folder}/`)
    .split('\n')
    .filter((file) => file.endsWith('.proto'));
  const parsed = { messages: {}, enums: {}, rpcs: {} };
  let commit = null;
  for (const file of protos) {
    const { text, sha, date } = reader.file(repo, file);
    parseProto(text, parsed);
    if (!commit || date > commit.date) commit = { sha, date };
  }
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
    description: `Generative Language API v1beta protocol buffers (the source of its discovery document): rpcs ${Object.keys(rpcs).join(', ')} with their REST bindings`,
    repo,
    path: `${folder}/*.proto`,
    commit: commit.sha,
    committed: commit.date,
    fetched,
    url: `https://github.com/${repo}/tree/${commit.sha}/${folder}`,
  };
  return { files: { 'gemini.json': description }, provenance };
}
