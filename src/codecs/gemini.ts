/**
 * The Gemini upstream codec: Google's native Generative Language API
 * (`generateContent`, `streamGenerateContent?alt=sse`, `batchEmbedContents`).
 * Each direction lives in its own module; this one puts them together.
 * Translation rules: docs/providers/gemini.md.
 */
import type { UpstreamCodec } from './codec';
import { decodeGeminiEmbeddings, encodeGeminiEmbeddings } from './gemini-embeddings';
import { encodeGeminiRequest } from './gemini-request';
import { decodeGeminiError, decodeGeminiResponse } from './gemini-response';
import { geminiStreamDecoder } from './gemini-stream';

export const geminiUpstream: UpstreamCodec = {
  format: 'gemini',
  encodeRequest: encodeGeminiRequest,
  decodeResponse: decodeGeminiResponse,
  streamDecoder: geminiStreamDecoder,
  decodeError: (body) => decodeGeminiError(body),
  embeddings: { encodeRequest: encodeGeminiEmbeddings, decodeResponse: decodeGeminiEmbeddings },
};
