/**
 * OpenAI's description: the components of its OpenAPI document (openai/openai-openapi) that the
 * chat and embeddings calls use, without prose, and the response examples its chat routes carry.
 */
import { closure, collectRefs, strip } from './trim.mjs';

/** `{ files, provenance }` read from the mirror (`reader` from trim.mjs `mirrorReader`). */
export function refreshOpenAi(reader, fetched) {
  const repo = 'openai/openai-openapi';
  const path = 'openapi.json';
  const { text, sha, date } = reader.file(repo, path);
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
  const files = {
    'openai.json': { openapi: document.openapi, components: { schemas: strip(schemas, prose, true) } },
    'openai-examples.json': {
      chat: [].concat(example('/chat/completions')),
      embeddings: [].concat(document.paths['/embeddings'].post['x-oaiMeta'].examples).map((item) => ({
        title: 'embeddings',
        response: item.response,
      })),
    },
  };
  const provenance = {
    description: `OpenAI OpenAPI document ${document.info.version} (components ${roots.join(', ')}; x-oaiMeta response examples)`,
    repo,
    path,
    commit: sha,
    committed: date,
    fetched,
    url: `https://github.com/${repo}/blob/${sha}/${path}`,
  };
  return { files, provenance };
}
