/** The OpenAI wire format, client side and upstream side (Chat Completions and Embeddings): each part in its own module. */
import type { ClientCodec, UpstreamCodec } from '../codec';
import { openAiAssembler } from './assemble';
import { openAiByteObserver } from './byte-observer';
import { openAiClientEmbeddings, openAiUpstreamEmbeddings } from './embeddings';
import { decodeOpenAiError, openAiErrorBody } from './error';
import { decodeOpenAiRequest, encodeOpenAiRequest } from './request';
import { decodeOpenAiResponse, encodeOpenAiResponse } from './response';
import { openAiObserver } from './observer';
import { openAiPassThrough } from './pass-through';
import { replayOpenAi } from './replay';
import { openAiAnswerSlots, openAiRequestSlots } from './slots';
import { openAiStreamDecoder, openAiStreamEncoder } from './stream';
import { openAiTextRewriter } from './text-rewriter';
import { openAiUsage } from './usage';

export const openAiUpstream: UpstreamCodec = {
  format: 'openai',
  encodeRequest: encodeOpenAiRequest,
  decodeResponse: decodeOpenAiResponse,
  streamDecoder: openAiStreamDecoder,
  decodeError: decodeOpenAiError,
  embeddings: openAiUpstreamEmbeddings,
};

export const openAiClient: ClientCodec = {
  format: 'openai',
  decodeRequest: decodeOpenAiRequest,
  encodeResponse: encodeOpenAiResponse,
  streamEncoder: openAiStreamEncoder,
  acceptsApiKeyHeader: false,
  passThroughBody: openAiPassThrough,
  usage: openAiUsage,
  errorBody: openAiErrorBody,
  relaysErrorType: true,
  observer: openAiObserver,
  byteObserver: openAiByteObserver,
  assembler: openAiAssembler,
  replay: replayOpenAi,
  requestSlots: openAiRequestSlots,
  answerSlots: openAiAnswerSlots,
  textRewriter: openAiTextRewriter,
  embeddings: openAiClientEmbeddings,
};
