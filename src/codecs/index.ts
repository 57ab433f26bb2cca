/** The codecs, by wire format: every format a provider speaks reads and writes through one of these. */
import type { ClientFormat, WireFormat } from '../core/endpoints';
import { anthropicClient, anthropicUpstream } from './anthropic';
import type { ClientCodec, UpstreamCodec } from './codec';
import { openAiClient, openAiUpstream } from './openai';

export const UPSTREAM_CODECS: Readonly<Record<WireFormat, UpstreamCodec>> = {
  openai: openAiUpstream,
  anthropic: anthropicUpstream,
};

export const CLIENT_CODECS: Readonly<Record<ClientFormat, ClientCodec>> = {
  openai: openAiClient,
  anthropic: anthropicClient,
};
