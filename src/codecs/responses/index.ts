/**
 * OpenAI's Responses API (`POST /v1/responses`), upstream side and the client side's translation:
 * each part in its own module. The same-format machinery (pass-through, observers, assembly, replay,
 * slots, rewriting) lives beside these in its own modules.
 */
import type { ClientCodec, UpstreamCodec } from '../codec';
import { decodeResponsesError, responsesErrorBody } from './error';
import { responsesRelay } from './relay';
import { decodeResponsesRequest, encodeResponsesRequest } from './request';
import { decodeResponsesResponse, encodeResponsesResponse } from './response';
import { responsesStreamDecoder, responsesStreamEncoder } from './stream';

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
  ...responsesRelay,
};

export { responsesErrorBody } from './error';
export { decodeResponsesRequest, encodeResponsesRequest } from './request';
export { decodeResponsesResponse, encodeResponsesResponse } from './response';
export { responsesStreamDecoder, responsesStreamEncoder } from './stream';
export { responsesUsage } from './usage';
