/**
 * Bedrock's description: botocore's service model of Bedrock Runtime (boto/botocore), the shapes
 * that Converse, ConverseStream and CountTokens reach (errors included), without documentation.
 */
import { closure, strip } from './trim.mjs';

/** `{ files, provenance }` read from the mirror (`reader` from trim.mjs `mirrorReader`). */
export function refreshBedrock(reader, fetched) {
  const repo = 'boto/botocore';
  const path = 'botocore/data/bedrock-runtime/2023-09-30/service-2.json';
  const { text, sha, date } = reader.file(repo, path);
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
  const description = {
    metadata: model.metadata,
    operations: Object.fromEntries(
      operations.map((name) => [name, strip(model.operations[name], (key) => key === 'documentation')]),
    ),
    shapes: strip(shapes, (key) => key === 'documentation', true),
  };
  const provenance = {
    description: `botocore's Bedrock Runtime service model ${model.metadata.apiVersion} (operations ${operations.join(', ')})`,
    repo,
    path,
    commit: sha,
    committed: date,
    fetched,
    url: `https://github.com/${repo}/blob/${sha}/${path}`,
  };
  return { files: { 'bedrock.json': description }, provenance };
}
