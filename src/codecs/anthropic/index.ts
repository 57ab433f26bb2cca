/** The Anthropic Messages wire format, client side and upstream side. */
import { anthropicCountTokens } from './count-tokens';
import { decodeAnthropicRequest, encodeAnthropicRequest } from './request';
import { decodeAnthropicResponse, encodeAnthropicResponse } from './response';
import { anthropicStreamDecoder, anthropicStreamEncoder } from './stream';
import type { ClientCodec, UpstreamCodec } from '../codec';
import { anthropicAssembler } from './assemble';
import { anthropicByteObserver } from './byte-observer';
import { anthropicErrorBody, decodeAnthropicError } from './error';
import { anthropicObserver } from './observer';
import { anthropicPassThrough } from './pass-through';
import { replayAnthropic } from './replay';
import { anthropicAnswerSlots, anthropicRequestSlots } from './slots';
import { anthropicTextRewriter } from './text-rewriter';
import { anthropicUsage } from './usage';

export const anthropicUpstream: UpstreamCodec = {
  format: 'anthropic',
  encodeRequest: encodeAnthropicRequest,
  decodeResponse: decodeAnthropicResponse,
  streamDecoder: anthropicStreamDecoder,
  decodeError: decodeAnthropicError,
  countTokens: anthropicCountTokens,
};

export const anthropicClient: ClientCodec = {
  format: 'anthropic',
  decodeRequest: decodeAnthropicRequest,
  encodeResponse: encodeAnthropicResponse,
  streamEncoder: anthropicStreamEncoder,
  acceptsApiKeyHeader: true,
  passThroughBody: anthropicPassThrough,
  usage: anthropicUsage,
  errorBody: anthropicErrorBody,
  // Anthropic's error types are a fixed set keyed by status (./error.ts).
  relaysErrorType: false,
  observer: anthropicObserver,
  byteObserver: anthropicByteObserver,
  assembler: anthropicAssembler,
  replay: replayAnthropic,
  requestSlots: anthropicRequestSlots,
  answerSlots: anthropicAnswerSlots,
  textRewriter: anthropicTextRewriter,
};
