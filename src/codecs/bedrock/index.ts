/** The Bedrock Converse upstream codec: request, answer, stream and error, each in its own module. */
import { bedrockCountTokens } from './count-tokens';
import { encodeBedrockRequest } from './request';
import { decodeBedrockError, decodeBedrockResponse } from './response';
import { bedrockStreamDecoder } from './stream';
import type { UpstreamCodec } from '../codec';

export const bedrockUpstream: UpstreamCodec = {
  format: 'bedrock',
  encodeRequest: encodeBedrockRequest,
  decodeResponse: decodeBedrockResponse,
  streamDecoder: bedrockStreamDecoder,
  decodeError: decodeBedrockError,
  countTokens: bedrockCountTokens,
};
