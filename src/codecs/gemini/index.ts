/**
 * The Gemini upstream codec: Google's native Generative Language API
 * (`generateContent`, `streamGenerateContent?alt=sse`, `batchEmbedContents`).
 * Each direction lives in its own module; this one puts them together.
 * Translation rules: docs/providers/gemini.md.
 */
import { geminiCountTokens } from './count-tokens';
import type { UpstreamCodec } from '../codec';
import { decodeGeminiEmbeddings, encodeGeminiEmbeddings } from './embeddings';
import { encodeGeminiRequest } from './request';
import { decodeGeminiError, decodeGeminiResponse } from './response';
import { geminiStreamDecoder } from './stream';

export const geminiUpstream: UpstreamCodec = {
  format: 'gemini',
  encodeRequest: encodeGeminiRequest,
  decodeResponse: decodeGeminiResponse,
  streamDecoder: geminiStreamDecoder,
  decodeError: (body) => decodeGeminiError(body),
  embeddings: { encodeRequest: encodeGeminiEmbeddings, decodeResponse: decodeGeminiEmbeddings },
  countTokens: geminiCountTokens,
};
