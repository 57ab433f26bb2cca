/**
 * Bedrock's description: the Bedrock Runtime Smithy model as AWS's own SDK ships it, in
 * @aws-sdk/client-bedrock-runtime: the schema objects its serializer works from (exported by the
 * package, read through @smithy/core's NormalizedSchema), turned into JSON Schema by the rest-json
 * protocol for Converse, ConverseStream (its output union's events) and CountTokens.
 *
 * The schema objects carry shapes, members, which are required, HTTP bindings, unions, blobs,
 * documents and error statuses, but not the model's enums: those are read from the package's
 * TypeScript types (./typescript.mjs), member by member. Neither carries lengths, bounds nor the
 * integer/float distinction (every number is `number`), so those are not checked. The wire forms
 * the SDK's types do not show are written here: a blob is base64 text, a document any JSON, a
 * union exactly one member (the types' `$unknown` member is the SDK's, not the wire's), and a member
 * bound to the URI, a header or the query is not in the body. An operation's errors are the
 * `@throws` of its command's declaration (the schema objects do not list them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NormalizedSchema } from '@smithy/core/schema';
import { installed, typeSchemas } from './typescript.mjs';

const PACKAGE = '@aws-sdk/client-bedrock-runtime';
const OPERATIONS = ['Converse', 'ConverseStream', 'CountTokens'];
const HTTP_BOUND = [
  'httpLabel',
  'httpHeader',
  'httpQuery',
  'httpPrefixHeaders',
  'httpQueryParams',
  'httpResponseCode',
];
const BASE64 = { type: 'string', pattern: '^[A-Za-z0-9+/]*={0,2}$' };

/** The enum a TypeScript-derived property schema names (through one $ref; one value is a `const`), or null. */
function enumOf(property, types) {
  if (!property) return null;
  const target = property.$ref
    ? types[decodeURIComponent(property.$ref.replace('#/definitions/', ''))]
    : property;
  if (typeof target?.const === 'string') return [target.const];
  return Array.isArray(target?.enum) && target.enum.every((value) => typeof value === 'string')
    ? target.enum
    : null;
}

/** The TypeScript-derived schema of member `name` of shape `shape` (a union member is `<Union>.<Name>Member`). */
function typedMember(types, shape, name, union) {
  const owner = union ? types[`${shape}.${name[0].toUpperCase()}${name.slice(1)}Member`] : types[shape];
  return owner?.properties?.[name];
}

/** JSON Schema for every structure and union `roots` reach, by shape name, into `defs`. */
function convert(roots, types) {
  const defs = {};
  const value = (schema, typed) => {
    if (schema.isStructSchema()) {
      define(schema);
      return { $ref: `#/$defs/${schema.getName()}` };
    }
    if (schema.isListSchema()) return { type: 'array', items: value(schema.getValueSchema(), typed?.items) };
    if (schema.isMapSchema()) return { type: 'object', additionalProperties: value(schema.getValueSchema()) };
    if (schema.isBlobSchema()) return BASE64;
    if (schema.isDocumentSchema()) return {};
    if (schema.isBooleanSchema()) return { type: 'boolean' };
    if (schema.isNumericSchema() || schema.isBigIntegerSchema() || schema.isBigDecimalSchema())
      return { type: 'number' };
    if (schema.isTimestampSchema()) return { type: ['number', 'string'] };
    if (schema.isStringSchema()) {
      const values = enumOf(typed, types);
      return values ? { type: 'string', enum: values } : { type: 'string' };
    }
    throw new Error(`bedrock: a member of ${schema.getName()} of no known type`);
  };
  const define = (schema) => {
    const name = schema.getName();
    if (name in defs) return;
    defs[name] = {};
    const union = schema.isUnionSchema();
    const raw = schema.getSchema();
    const requiredCount = union ? 0 : (raw[6] ?? 0);
    const properties = {};
    const required = [];
    [...schema.structIterator()].forEach(([member, memberSchema], index) => {
      const traits = memberSchema.getMergedTraits();
      if (HTTP_BOUND.some((trait) => traits[trait])) return;
      const key = traits.jsonName ?? member;
      properties[key] = value(memberSchema, typedMember(types, name, member, union));
      if (index < requiredCount) required.push(key);
    });
    const out = { type: 'object', properties, additionalProperties: false };
    if (required.length > 0) out.required = required;
    if (union) Object.assign(out, { minProperties: 1, maxProperties: 1 });
    defs[name] = out;
  };
  for (const root of roots) define(NormalizedSchema.of(root));
  return defs;
}

/** The errors an operation's command declares (`@throws {@link X}`), without the service's base class. */
function errorsOf(dir, operation) {
  const text = readFileSync(join(dir, 'dist-types/commands', `${operation}Command.d.ts`), 'utf8');
  return [...text.matchAll(/@throws \{@link (\w+)\}/g)]
    .map((match) => match[1])
    .filter((name) => !name.endsWith('ServiceException'));
}

/** `{ files, provenance }` made from the package installed under `root` (the checkout). */
export async function refreshBedrock(root, fetched) {
  const { dir, version } = installed(root, PACKAGE);
  const sdk = await import(join(dir, 'dist-cjs/index.js'));
  const types = typeSchemas(join(dir, 'dist-types'), {
    'models/models_0.d.ts': [
      'ConverseRequest',
      'ConverseStreamRequest',
      'ConverseResponse',
      'ConverseStreamOutput',
      'CountTokensRequest',
      'CountTokensResponse',
    ],
  });
  const operations = {};
  const roots = [];
  for (const name of OPERATIONS) {
    const operation = sdk[`${name}$`];
    const [input, output] = [operation[4](), operation[5]()];
    const errors = Object.fromEntries(
      errorsOf(dir, name).map((error) => [
        error,
        NormalizedSchema.of(sdk[`${error}$`]).getMergedTraits().httpError,
      ]),
    );
    roots.push(input, output, ...Object.keys(errors).map((error) => sdk[`${error}$`]));
    operations[name] = { input: input[2], output: output[2], errors };
  }
  const stream = NormalizedSchema.of(sdk.ConverseStreamResponse$).getMemberSchema('stream');
  const events = Object.fromEntries(
    [...stream.structIterator()].map(([member, schema]) => [member, schema.getName()]),
  );
  const $defs = convert(roots, types);
  const sorted = Object.fromEntries(
    Object.keys($defs)
      .sort()
      .map((name) => [name, $defs[name]]),
  );
  const description = { operations, events, $defs: sorted };
  const provenance = {
    description: `the Bedrock Runtime Smithy model as ${PACKAGE} ${version} ships it (its schema objects, enums from its TypeScript types): operations ${OPERATIONS.join(', ')}, the ConverseStream events, their errors`,
    package: `${PACKAGE}@${version}`,
    path: 'dist-cjs/index.js (schemas), dist-types/models/models_0.d.ts, dist-types/commands/*Command.d.ts',
    fetched,
    url: `https://www.npmjs.com/package/${PACKAGE}/v/${version}`,
  };
  return { files: { 'bedrock.json': description }, provenance };
}
