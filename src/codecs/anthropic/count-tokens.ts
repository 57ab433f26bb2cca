/**
 * Anthropic's token counting, `POST /v1/messages/count_tokens` (pure): beside
 * the Messages URL; the body is a Messages body without the fields that only
 * shape the answer (`max_tokens`, sampling, `stream`, `stop_sequences`,
 * `metadata`), which the API refuses; the answer is `{input_tokens}`. A client
 * of Anthropic's own format has its body passed through as sent instead
 * (src/pipeline/count-tokens.ts); this encoder serves the canonical request.
 */
import type { CountTokensCodec } from '../codec';
import { siblingUrl, tokenCount } from '../count-tokens';
import { obj } from '../json';
import { encodeAnthropicRequest } from './request';

/** The Messages fields count_tokens takes (Anthropic's API reference). */
const COUNTED = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking'];

export const anthropicCountTokens: CountTokensCodec = {
  url: (chatUrl) => siblingUrl(chatUrl, (path) => `${path}/count_tokens`),
  encodeRequest(request, context) {
    const body = encodeAnthropicRequest(request, context);
    return Object.fromEntries(Object.entries(body).filter(([key]) => COUNTED.includes(key)));
  },
  decodeResponse: (body) => tokenCount(obj(body)?.input_tokens, 'input_tokens'),
};
