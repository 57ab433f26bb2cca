/**
 * What the contract tests exercise, in one module that load.mjs bundles for Node: the upstream
 * codecs, the mock LLM's fetch handler, and the corpus of canonical requests.
 */
export { UPSTREAM_CODECS } from '../../src/codecs/index';
export { default as mockLlm } from '../../workers/mock-llm/src/index';
export { MOCK_ACCESS_KEY_ID, MOCK_SECRET_ACCESS_KEY } from '../../workers/mock-llm/src/bedrock-auth';
export { CHAT_CASES, EMBEDDINGS_CASES, RESPONSES_CASES } from './corpus';
