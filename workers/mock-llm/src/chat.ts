/**
 * POST /v1/chat/completions: checks (credential, body, served model), faults,
 * then the answer from the shared completion rules with OpenAI's implicit
 * prompt caching in usage, rendered by chat-render.ts as JSON or SSE.
 */
import { hasBearerKey, KEY_HASH_HEADER, missingOpenAIKey, presentedKeySha256 } from './auth';
import { jsonAnswer, presentedKey } from './body-faults';
import { type ChatMeta, chatCompletionBody, chatStreamPlan } from './chat-render';
import { type ChatRequest, parseChatRequest } from './chat-request';
import { complete, contentSeed, requestSeed } from './completion';
import { invalidRequest, modelNotFound, OPENAI_BAD_JSON } from './errors';
import { applyPreResponseFaults } from './faults';
import { idFrom } from './hash';
import { newRequestId, readJsonObject } from './http';
import { isServedModel, modelName } from './models';
import { DEFAULT_CACHE_MIN_TOKENS, implicitCache, messageUnits } from './prompt-cache';
import { sseResponse } from './sse';
import { contentText, promptTokens } from './text';

/** OpenAI caches prompts of 1024+ tokens in 128-token increments; a lowered minimum lowers the increment with it. */
function cachedTokens(chat: ChatRequest, prompt: number): number {
  const min = chat.controls.cache_min_tokens ?? DEFAULT_CACHE_MIN_TOKENS;
  if (prompt < min) return 0;
  const scope = `openai\n${modelName(chat.model)}\n${chat.options.cacheKey}`;
  return implicitCache(
    scope,
    messageUnits(chat.messages, contentText),
    min,
    Math.max(1, Math.min(128, min)),
    Date.now(),
  );
}

export async function handleChat(request: Request): Promise<Response> {
  if (!hasBearerKey(request)) return missingOpenAIKey();
  const body = await readJsonObject(request);
  if (!body) return invalidRequest('openai', OPENAI_BAD_JSON);
  const parsed = parseChatRequest(body);
  if (!parsed.ok) return invalidRequest('openai', parsed.message, parsed.param, parsed.code);
  const chat = parsed.value;
  if (!isServedModel(chat.model)) return modelNotFound('openai', chat.model);

  const fault = await applyPreResponseFaults('openai', chat.controls, presentedKey(request));
  if (fault) return fault;

  const seed = contentSeed(chat.model, chat.messages);
  const completion = complete({
    ...chat,
    seed,
    format: chat.options.format,
    reasoningWords: chat.options.reasoningWords,
  });
  const idSeed = requestSeed(body, seed);
  const prompt = promptTokens(chat.messages);
  const meta: ChatMeta = {
    id: idFrom('chatcmpl-', idSeed, 29),
    created: Math.floor(Date.now() / 1000),
    callId: idFrom('call_', idSeed ^ 0x5bd1e995),
    promptTokens: prompt,
    cachedTokens: cachedTokens(chat, prompt),
  };
  const headers = { 'x-request-id': newRequestId(), [KEY_HASH_HEADER]: await presentedKeySha256(request) };
  if (!chat.stream) return jsonAnswer(chatCompletionBody(chat, completion, meta), headers, chat.controls);
  return sseResponse(chatStreamPlan(chat, completion, meta), chat.controls, headers);
}
