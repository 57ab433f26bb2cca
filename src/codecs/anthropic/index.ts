/** The Anthropic Messages wire format, client side and upstream side. */
import { decodeAnthropicRequest, encodeAnthropicRequest } from './request';
import { decodeAnthropicResponse, encodeAnthropicResponse } from './response';
import { anthropicStreamDecoder, anthropicStreamEncoder } from './stream';
import type { ClientCodec, UpstreamCodec } from '../codec';
import { obj, str } from '../json';

export const anthropicUpstream: UpstreamCodec = {
  format: 'anthropic',
  encodeRequest: encodeAnthropicRequest,
  decodeResponse: decodeAnthropicResponse,
  streamDecoder: anthropicStreamDecoder,
  decodeError(body) {
    const error = obj(obj(body)?.error);
    return { message: str(error?.message), type: str(error?.type) };
  },
};

export const anthropicClient: ClientCodec = {
  format: 'anthropic',
  decodeRequest: decodeAnthropicRequest,
  encodeResponse: encodeAnthropicResponse,
  streamEncoder: anthropicStreamEncoder,
};
