/** The codecs, by wire format: every format a provider speaks reads and writes through one of these. */
import type { ClientFormat, WireFormat } from '../core/endpoints';
import { anthropicClient, anthropicUpstream } from './anthropic';
import { bedrockUpstream } from './bedrock';
import type { ClientCodec, UpstreamCodec } from './codec';
import { geminiUpstream } from './gemini';
import { openAiClient, openAiUpstream } from './openai';
import { workersAiUpstream } from './workers-ai';

export const UPSTREAM_CODECS: Readonly<Record<WireFormat, UpstreamCodec>> = {
  openai: openAiUpstream,
  anthropic: anthropicUpstream,
  bedrock: bedrockUpstream,
  gemini: geminiUpstream,
  'workers-ai': workersAiUpstream,
};

export const CLIENT_CODECS: Readonly<Record<ClientFormat, ClientCodec>> = {
  openai: openAiClient,
  anthropic: anthropicClient,
};
