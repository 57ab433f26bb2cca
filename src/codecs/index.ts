/** The codecs, by wire format: every format a provider speaks reads and writes through one of these. */
import type { ClientFormat, WireFormat } from '../core/endpoints';
import { anthropicClient, anthropicUpstream } from './anthropic/index';
import { bedrockUpstream } from './bedrock/index';
import type { ClientCodec, UpstreamCodec } from './codec';
import { geminiUpstream } from './gemini/index';
import { openAiClient, openAiUpstream } from './openai/index';
import { responsesClient, responsesUpstream } from './responses/index';
import { workersAiUpstream } from './workers-ai/index';

export const UPSTREAM_CODECS: Readonly<Record<WireFormat, UpstreamCodec>> = {
  openai: openAiUpstream,
  responses: responsesUpstream,
  anthropic: anthropicUpstream,
  bedrock: bedrockUpstream,
  gemini: geminiUpstream,
  'workers-ai': workersAiUpstream,
};

export const CLIENT_CODECS: Readonly<Record<ClientFormat, ClientCodec>> = {
  openai: openAiClient,
  anthropic: anthropicClient,
  responses: responsesClient,
};

/** Whether a provider speaks the client's own format, so the client's body passes through untranslated. */
export function sameFormat(upstream: WireFormat, client: ClientFormat): boolean {
  return upstream === client;
}
