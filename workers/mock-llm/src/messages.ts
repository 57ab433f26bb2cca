/**
 * POST /v1/messages and /v1/messages/count_tokens in Anthropic's wire format:
 * checks (credential, body, served model, thinking signatures carried back),
 * faults, then the answer from the shared completion rules, rendered by
 * messages-render.ts, with prompt-cache usage when the request has breakpoints.
 */
import { hasAnthropicKey, missingAnthropicKey } from './auth';
import { jsonAnswer, presentedKey } from './body-faults';
import { complete, contentSeed, requestSeed } from './completion';
import { invalidRequest, modelNotFound } from './errors';
import { applyPreResponseFaults } from './faults';
import { idFrom } from './hash';
import { jsonResponse, newRequestId, readJsonObject } from './http';
import { messageBody, type MessageMeta, messageStreamPlan, shownThinking } from './messages-render';
import { parseMessagesRequest, type MessagesRequest } from './messages-request';
import { isServedModel, modelName } from './models';
import { DEFAULT_CACHE_MIN_TOKENS, explicitCache, type ExplicitUsage } from './prompt-cache';
import { firstForged, sign } from './signature';
import { sseResponse } from './sse';
import { promptTokens } from './text';

export const ANTHROPIC_BAD_JSON = 'There was an issue with your request body: it is not valid JSON.';
const NO_CACHE: ExplicitUsage = { read: 0, write5m: 0, write1h: 0 };

/** Input tokens: the prompt-token rule applied to the messages, with `system` counted as one more message. */
export function inputTokens(request: Pick<MessagesRequest, 'messages' | 'system'>): number {
  const messages =
    request.system === undefined
      ? request.messages
      : [{ role: 'system', content: request.system }, ...request.messages];
  return promptTokens(messages);
}

interface ParsedBody {
  readonly body: Record<string, unknown>;
  readonly request: MessagesRequest;
}

async function parseBody(request: Request, requireMaxTokens: boolean): Promise<ParsedBody | Response> {
  if (!hasAnthropicKey(request)) return missingAnthropicKey();
  const body = await readJsonObject(request);
  if (!body) return invalidRequest('anthropic', ANTHROPIC_BAD_JSON);
  const parsed = parseMessagesRequest(body, requireMaxTokens);
  if (!parsed.ok) return invalidRequest('anthropic', parsed.message);
  if (!isServedModel(parsed.value.model)) return modelNotFound('anthropic', parsed.value.model);
  const forged = parsed.value.signed.length > 0 ? await firstForged(parsed.value.signed) : null;
  if (forged)
    return invalidRequest(
      'anthropic',
      forged.kind === 'thinking'
        ? `${forged.at}: Invalid \`signature\` in \`thinking\` block`
        : `${forged.at}: Invalid \`data\` in \`redacted_thinking\` block`,
    );
  return { body, request: parsed.value };
}

function forcedTool(request: MessagesRequest): string | undefined {
  const choice = request.options.forcedTool;
  return choice === 'any' ? request.tools[0]?.name : choice;
}

export async function handleMessages(request: Request): Promise<Response> {
  const parsed = await parseBody(request, true);
  if (parsed instanceof Response) return parsed;
  const { body, request: messages } = parsed;
  const { controls, options } = messages;

  const fault = await applyPreResponseFaults('anthropic', controls, presentedKey(request));
  if (fault) return fault;

  const seed = contentSeed(messages.model, messages.messages);
  const completion = complete({
    ...messages,
    seed,
    forcedTool: forcedTool(messages),
    format: options.format,
    reasoningWords: options.thinking?.words ?? 0,
  });
  const idSeed = requestSeed(body, seed);
  const cache = messages.cache
    ? explicitCache(
        `anthropic\n${modelName(messages.model)}`,
        messages.cache,
        controls.cache_min_tokens ?? DEFAULT_CACHE_MIN_TOKENS,
        Date.now(),
      )
    : NO_CACHE;
  const thinking = options.thinking !== undefined;
  const meta: MessageMeta = {
    id: idFrom('msg_01', idSeed, 22),
    toolUseId: idFrom('toolu_01', idSeed ^ 0x5bd1e995, 22),
    input: inputTokens(messages),
    cache,
    ...(thinking ? { signature: await sign('thinking', shownThinking(messages, completion), idSeed) } : {}),
    ...(thinking && controls.redacted_thinking
      ? { redacted: await sign('redacted', '', idSeed ^ 0x2545f491) }
      : {}),
  };
  const headers = { 'request-id': newRequestId() };
  if (!messages.stream) return jsonAnswer(messageBody(messages, completion, meta), headers, controls);
  return sseResponse(messageStreamPlan(messages, completion, meta), controls, headers);
}

export async function handleCountTokens(request: Request): Promise<Response> {
  const parsed = await parseBody(request, false);
  if (parsed instanceof Response) return parsed;
  return jsonResponse({ input_tokens: inputTokens(parsed.request) }, 200, { 'request-id': newRequestId() });
}
