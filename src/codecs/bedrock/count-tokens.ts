/**
 * Bedrock's token counting, `POST /model/{modelId}/count-tokens` (pure):
 * beside the `/converse` URL; the body is `{input: {converse: {…}}}`, the
 * Converse body cut to what CountTokens reads (`messages`, `system`,
 * `toolConfig`, `additionalModelRequestFields`); the answer is `{inputTokens}`.
 */
import type { CountTokensCodec } from '../codec';
import { siblingUrl, tokenCount } from '../count-tokens';
import { obj } from '../json';
import { encodeBedrockRequest } from './request';

/** The members of ConverseTokensRequest (AWS Bedrock API reference). */
const COUNTED = ['messages', 'system', 'toolConfig', 'additionalModelRequestFields'];

export const bedrockCountTokens: CountTokensCodec = {
  url: (chatUrl) => siblingUrl(chatUrl, (path) => path.replace(/\/[^/]+$/, '/count-tokens')),
  encodeRequest(request, context) {
    const body = encodeBedrockRequest(request, { ...context, enforceCap: false });
    const converse = Object.fromEntries(Object.entries(body).filter(([key]) => COUNTED.includes(key)));
    return { input: { converse } };
  },
  decodeResponse: (body) => tokenCount(obj(body)?.inputTokens, 'inputTokens'),
};
