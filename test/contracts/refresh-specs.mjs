/**
 * Refreshes the providers' published API descriptions the contract tests read: each from a local
 * git mirror of its public repository (or, for Anthropic, from the installed @anthropic-ai/sdk),
 * keeping only what the tests need (the named roots and everything they refer to, without prose),
 * and records where each came from, with the SHA-256 of the file written, in ./specs/provenance.json.
 *
 *   npm run contracts:refresh -- [mirrors-dir] [out-dir]
 *
 * `mirrors-dir` (default $CONTRACTS_MIRRORS, else /work/.mirror) holds one bare clone per repository
 * at `<owner>+<name>/repo` (e.g. `git clone --bare https://github.com/boto/botocore boto+botocore/repo`).
 * What is read from those repositories is not committed here: it is written to `out-dir` (default
 * $CONTRACTS_SPECS, else ../shared/data/contracts beside the checkout), where ./contracts.mjs reads
 * it. Anthropic's (from the npm package) and the provenance are written to ./specs/ and committed.
 * The files are the source's own language (OpenAPI components, botocore shapes, proto descriptors,
 * the SDK's types as JSON Schema); ./schemas/ turns them into JSON Schema when tests run.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGenerator } from 'ts-json-schema-generator';
import { parseProto, resolveType } from './refresh/proto.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const SPECS = join(HERE, 'specs');
const ROOT = join(HERE, '..', '..');
const MIRRORS = process.argv[2] ?? process.env.CONTRACTS_MIRRORS ?? '/work/.mirror';
const OUT = resolve(ROOT, process.argv[3] ?? process.env.CONTRACTS_SPECS ?? '../shared/data/contracts');

const git = (repo, ...args) =>
  execFileSync('git', ['--git-dir', join(MIRRORS, repo.replace('/', '+'), 'repo'), ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });

/** The commit, its date, and a file's text at HEAD of a mirrored repository. */
function fromRepo(repo, path) {
  const [sha, date] = git(repo, 'log', '-1', '--format=%H %cI', 'HEAD', '--', path).trim().split(' ');
  return { text: git(repo, 'show', `HEAD:${path}`), sha, date };
}

/** Everything `roots` reach through `refsOf` in `all` (a name → definition table). */
function closure(all, roots, refsOf) {
  const seen = new Set();
  const todo = [...roots];
  while (todo.length > 0) {
    const name = todo.pop();
    if (seen.has(name) || !(name in all)) continue;
    seen.add(name);
    todo.push(...refsOf(all[name], name));
  }
  return Object.fromEntries([...seen].sort().map((name) => [name, all[name]]));
}

/** Keys whose value is a table of names (properties, members, definitions), whose keys are never prose. */
const NAME_TABLES = new Set([
  'properties',
  'patternProperties',
  'members',
  'schemas',
  'shapes',
  '$defs',
  'definitions',
]);

/** A copy of a JSON value without the keywords `drop` names (prose, vendor extensions); names are kept. */
function strip(value, drop, names = false) {
  if (Array.isArray(value)) return value.map((item) => strip(item, drop));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => names || !drop(key))
      .map(([key, item]) => [key, strip(item, drop, !names && NAME_TABLES.has(key))]),
  );
}

function collectRefs(value, pattern, found = []) {
  if (Array.isArray(value)) for (const item of value) collectRefs(item, pattern, found);
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') found.push(item.replace(pattern, ''));
      else collectRefs(item, pattern, found);
    }
  return found;
}

const provenance = {};
const digests = {};

/** Writes one description file (`dir`: OUT for what came from a mirror, SPECS for what is committed). */
function write(file, value, dir = OUT) {
  const text = `${JSON.stringify(value, null, 1)}\n`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), text);
  digests[file] = createHash('sha256').update(text).digest('hex');
}
const fetched = new Date().toISOString().slice(0, 10);

function openai() {
  const repo = 'openai/openai-openapi';
  const path = 'openapi.json';
  const { text, sha, date } = fromRepo(repo, path);
  const document = JSON.parse(text);
  const roots = [
    'CreateChatCompletionRequest',
    'CreateChatCompletionResponse',
    'CreateChatCompletionStreamResponse',
    'CreateEmbeddingRequest',
    'CreateEmbeddingResponse',
    'ErrorResponse',
  ];
  const prose = (key) => key === 'description' || key === 'title' || key.startsWith('x-');
  const schemas = closure(document.components.schemas, roots, (schema) =>
    collectRefs(schema, '#/components/schemas/'),
  );
  const example = (route) =>
    document.paths[route].post['x-oaiMeta'].examples
      .filter((item) => typeof item.response === 'string')
      .map((item) => ({ title: item.title ?? route, response: item.response }));
  write('openai.json', { openapi: document.openapi, components: { schemas: strip(schemas, prose, true) } });
  write('openai-examples.json', {
    chat: [].concat(example('/chat/completions')),
    embeddings: [].concat(document.paths['/embeddings'].post['x-oaiMeta'].examples).map((item) => ({
      title: 'embeddings',
      response: item.response,
    })),
  });
  provenance.openai = {
    description: `OpenAI OpenAPI document ${document.info.version} (components ${roots.join(', ')}; x-oaiMeta response examples)`,
    repo,
    path,
    commit: sha,
    committed: date,
    fetched,
    url: `https://github.com/${repo}/blob/${sha}/${path}`,
  };
}

function bedrock() {
  const repo = 'boto/botocore';
  const path = 'botocore/data/bedrock-runtime/2023-09-30/service-2.json';
  const { text, sha, date } = fromRepo(repo, path);
  const model = JSON.parse(text);
  const operations = ['Converse', 'ConverseStream', 'CountTokens'];
  const roots = operations.flatMap((name) => [
    model.operations[name].input.shape,
    model.operations[name].output.shape,
    ...(model.operations[name].errors ?? []).map((error) => error.shape),
  ]);
  const refsOf = (shape) => [
    ...Object.values(shape.members ?? {}).map((member) => member.shape),
    ...(shape.member ? [shape.member.shape] : []),
    ...(shape.key ? [shape.key.shape] : []),
    ...(shape.value ? [shape.value.shape] : []),
  ];
  const shapes = closure(model.shapes, roots, refsOf);
  write('bedrock.json', {
    metadata: model.metadata,
    operations: Object.fromEntries(
      operations.map((name) => [name, strip(model.operations[name], (key) => key === 'documentation')]),
    ),
    shapes: strip(shapes, (key) => key === 'documentation', true),
  });
  provenance.bedrock = {
    description: `botocore's Bedrock Runtime service model ${model.metadata.apiVersion} (operations ${operations.join(', ')})`,
    repo,
    path,
    commit: sha,
    committed: date,
    fetched,
    url: `https://github.com/${repo}/blob/${sha}/${path}`,
  };
}

function gemini() {
  const repo = 'googleapis/googleapis';
  const folder = 'google/ai/generativelanguage/v1beta';
  const files = git(repo, 'ls-tree', '--name-only', 'HEAD', `${folder}/`)
    .split('\n')
    .filter((file) => file.endsWith('.proto'));
  const parsed = { messages: {}, enums: {}, rpcs: {} };
  let commit = null;
  for (const file of files) {
    const { text, sha, date } = fromRepo(repo, file);
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
  write('gemini.json', {
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
  });
  provenance.gemini = {
    description: `Generative Language API v1beta protocol buffers (the source of its discovery document): rpcs ${Object.keys(rpcs).join(', ')} with their REST bindings`,
    repo,
    path: `${folder}/*.proto`,
    commit: commit.sha,
    committed: commit.date,
    fetched,
    url: `https://github.com/${repo}/tree/${commit.sha}/${folder}`,
  };
}

function anthropic() {
  const sdk = join(ROOT, 'node_modules/@anthropic-ai/sdk');
  const { version } = JSON.parse(readFileSync(join(sdk, 'package.json'), 'utf8'));
  const roots = {
    'resources/messages/messages.d.ts': [
      'MessageCreateParamsNonStreaming',
      'MessageCreateParamsStreaming',
      'MessageCountTokensParams',
      'Message',
      'RawMessageStreamEvent',
      'MessageTokensCount',
    ],
    'resources/shared.d.ts': ['ErrorResponse'],
  };
  const definitions = {};
  for (const [file, types] of Object.entries(roots)) {
    const generator = createGenerator({
      path: join(sdk, file),
      skipTypeCheck: true,
      expose: 'all',
      topRef: true,
      jsDoc: 'none',
      additionalProperties: false,
    });
    for (const type of types) Object.assign(definitions, generator.createSchema(type).definitions);
  }
  write('anthropic.json', { $schema: 'http://json-schema.org/draft-07/schema#', definitions }, SPECS);
  provenance.anthropic = {
    description: `the TypeScript types of @anthropic-ai/sdk ${version} (generated by Stainless from Anthropic's OpenAPI description, which is not published), turned into JSON Schema by ts-json-schema-generator: ${Object.values(roots).flat().join(', ')}`,
    package: `@anthropic-ai/sdk@${version}`,
    why: "Anthropic publishes its OpenAPI description only as the Stainless build artifact that openapi_spec_url in the SDK repository's .stats.yml names (storage.googleapis.com/stainless-sdk-openapi-specs/anthropic/...), which was out of reach; the GitHub copies found (laszukdawid/anthropic-openapi-spec, CodeFromAnywhere/anthropic-openapi) are unofficial, hand-assembled and older than the SDK.",
    path: Object.keys(roots).join(', '),
    fetched,
    url: `https://www.npmjs.com/package/@anthropic-ai/sdk/v/${version}`,
  };
}

const FILES = {
  openai: ['openai.json', 'openai-examples.json'],
  bedrock: ['bedrock.json'],
  gemini: ['gemini.json'],
  anthropic: ['anthropic.json'],
};
openai();
bedrock();
gemini();
anthropic();
for (const [provider, files] of Object.entries(FILES))
  provenance[provider].files = Object.fromEntries(files.map((file) => [file, digests[file]]));
writeFileSync(join(SPECS, 'provenance.json'), `${JSON.stringify(provenance, null, 1)}\n`);
console.log(`descriptions written to ${OUT} (from mirrors) and ${SPECS} (Anthropic's, provenance)`);
