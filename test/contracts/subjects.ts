/**
 * What the contract tests exercise, in one module that load.mjs bundles for Node: the codecs, the
 * gateway's codec step (a client's request to a provider's body, the provider's answer back to the
 * client's format), its stored responses (the record, the conversation rebuilt from it, the page of
 * input items), the mock LLM's fetch handler, and the corpus of requests.
 */
export { CLIENT_CODECS, UPSTREAM_CODECS } from '../../src/codecs/index';
export { continueConversation, recordOf } from '../../src/core/conversation';
export { badRequest } from '../../src/core/errors';
export { itemPage } from '../../src/core/item-page';
export { parseProxyRequest } from '../../src/core/request';
export { streamGuard } from '../../src/guardrails/stream-guard';
export { outbound } from '../../src/pipeline/route/translate';
export { default as mockLlm } from '../../workers/mock-llm/src/index';
export { MOCK_ACCESS_KEY_ID, MOCK_SECRET_ACCESS_KEY } from '../../workers/mock-llm/src/bedrock-auth';
export { CHAT_CASES, EMBEDDINGS_CASES } from './corpus';
export { RESPONSES_CASES, RESPONSES_TOOL_TURN } from './responses-corpus';
