/**
 * Gemini's token counting, `POST /v1beta/models/{model}:countTokens` (pure):
 * beside the `:generateContent` URL; the body wraps the whole generate request
 * (`{generateContentRequest: {model: "models/{model}", contents,
 * systemInstruction, tools, …}}`) so system instructions and function
 * declarations are counted too; the answer's `totalTokens` is the count.
 */
import type { CountTokensCodec } from '../codec';
import { siblingUrl, tokenCount } from '../count-tokens';
import { obj } from '../json';
import { encodeGeminiRequest } from './request';

export const geminiCountTokens: CountTokensCodec = {
  url: (chatUrl) => siblingUrl(chatUrl, (path) => path.replace(/:[A-Za-z]+$/, ':countTokens')),
  encodeRequest(request, context) {
    const generate = encodeGeminiRequest({ ...request, stream: false }, { ...context, enforceCap: false });
    return { generateContentRequest: { model: `models/${context.model}`, ...generate } };
  },
  decodeResponse: (body) => tokenCount(obj(body)?.totalTokens, 'totalTokens'),
};
