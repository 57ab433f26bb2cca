/**
 * OpenAI's Responses API (`POST /v1/responses`), upstream side and the client side's translation:
 * each part in its own module. The same-format machinery (pass-through, observers, assembly, replay,
 * slots, rewriting) lives beside these in its own modules.
 */
import type { UpstreamCodec } from '../codec';
import { decodeResponsesError } from './error';
import { encodeResponsesRequest } from './request';
import { decodeResponsesResponse } from './response';
import { responsesStreamDecoder } from './stream';

export const responsesUpstream: UpstreamCodec = {
  format: 'responses',
  encodeRequest: encodeResponsesRequest,
  decodeResponse: decodeResponsesResponse,
  streamDecoder: responsesStreamDecoder,
  decodeError: decodeResponsesError,
};

export { responsesErrorBody } from './error';
export { decodeResponsesRequest, encodeResponsesRequest } from './request';
export { decodeResponsesResponse, encodeResponsesResponse } from './response';
export { responsesStreamDecoder, responsesStreamEncoder } from './stream';
export { responsesUsage } from './usage';
