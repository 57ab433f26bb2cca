/**
 * OpenAI's Responses API (`POST /v1/responses`), client side and upstream side: each part in its own
 * module, the translation (request, response, stream) and the same-format machinery (pass-through,
 * observers, assembly, replay, slots, rewriting) alike.
 */
import type { ClientCodec, UpstreamCodec } from '../codec';
import { responsesAssembler } from './assemble';
import { responsesByteObserver } from './byte-observer';
import { decodeResponsesError, responsesErrorBody } from './error';
import { responsesObserver } from './observer';
import { responsesPassThrough } from './pass-through';
import { replayResponses } from './replay';
import { decodeResponsesRequest, encodeResponsesRequest } from './request';
import { decodeResponsesResponse, encodeResponsesResponse } from './response';
import { responsesAnswerSlots, responsesRequestSlots } from './slots';
import { responsesStreamDecoder, responsesStreamEncoder } from './stream';
import { responsesTextRewriter } from './text-rewriter';
import { responsesUsage } from './usage';

export const responsesUpstream: UpstreamCodec = {
  format: 'responses',
  encodeRequest: encodeResponsesRequest,
  decodeResponse: decodeResponsesResponse,
  streamDecoder: responsesStreamDecoder,
  decodeError: decodeResponsesError,
};

export const responsesClient: ClientCodec = {
  format: 'responses',
  decodeRequest: decodeResponsesRequest,
  encodeResponse: encodeResponsesResponse,
  streamEncoder: responsesStreamEncoder,
  acceptsApiKeyHeader: false,
  errorBody: responsesErrorBody,
  // An OpenAI provider's own error type is the envelope's, as on Chat Completions.
  relaysErrorType: true,
  passThroughBody: responsesPassThrough,
  usage: responsesUsage,
  observer: responsesObserver,
  byteObserver: responsesByteObserver,
  assembler: responsesAssembler,
  replay: replayResponses,
  requestSlots: responsesRequestSlots,
  answerSlots: responsesAnswerSlots,
  textRewriter: responsesTextRewriter,
};

export { responsesErrorBody } from './error';
export { decodeResponsesRequest, encodeResponsesRequest } from './request';
export { decodeResponsesResponse, encodeResponsesResponse } from './response';
export { responsesStreamDecoder, responsesStreamEncoder } from './stream';
export { responsesUsage } from './usage';
