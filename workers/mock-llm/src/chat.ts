/**
 * POST /v1/chat/completions in OpenAI's wire format: the `chat.completion`
 * object, or a `chat.completion.chunk` SSE stream ending in `data: [DONE]`.
 * Stream events are built from a prefix rendered once per request, so each
 * token costs one small JSON.stringify of the token itself.
 */
import { hasBearerKey, KEY_HASH_HEADER, missingOpenAIKey, presentedKeySha256 } from './auth';
import { parseChatRequest, type ChatRequest } from './chat-request';
import { complete, contentSeed, outputTokens, requestSeed, type Completion } from './completion';
import { invalidRequest, OPENAI_BAD_JSON } from './errors';
import { jsonAnswer, presentedKey } from './body-faults';
import { applyPreResponseFaults } from './faults';
import { idFrom } from './hash';
import { newRequestId, readJsonObject } from './http';
import type { StreamPlan } from './schedule';
import { sseResponse } from './sse';
import { promptTokens } from './text';

export const SYSTEM_FINGERPRINT = 'fp_6d6f636b31';

export interface ChatMeta {
  readonly id: string;
  /** Unix seconds. */
  readonly created: number;
  /** Id of the tool call, when the completion is one. */
  readonly callId: string;
}

export interface OpenAIUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
  readonly prompt_tokens_details: { readonly cached_tokens: number; readonly audio_tokens: number };
  readonly completion_tokens_details: {
    readonly reasoning_tokens: number;
    readonly audio_tokens: number;
    readonly accepted_prediction_tokens: number;
    readonly rejected_prediction_tokens: number;
  };
}

export function chatUsage(request: ChatRequest, completion: Completion): OpenAIUsage {
  const prompt = promptTokens(request.messages);
  const output = outputTokens(completion);
  return {
    prompt_tokens: prompt,
    completion_tokens: output,
    total_tokens: prompt + output,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function finishReason(completion: Completion): 'stop' | 'length' | 'tool_calls' {
  if (completion.kind === 'tool') return 'tool_calls';
  return completion.truncated ? 'length' : 'stop';
}

/** The non-streaming `chat.completion` object. */
export function chatCompletionBody(request: ChatRequest, completion: Completion, meta: ChatMeta): unknown {
  const message =
    completion.kind === 'tool'
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: meta.callId, type: 'function', function: { name: completion.name, arguments: '{}' } },
          ],
          refusal: null,
          annotations: [],
        }
      : { role: 'assistant', content: completion.tokens.join(''), refusal: null, annotations: [] };
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: request.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(completion) }],
    usage: chatUsage(request, completion),
    service_tier: 'default',
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}

/** The `chat.completion.chunk` events: role chunk, one chunk per token, finish chunk, usage chunk, [DONE]. */
export function chatStreamPlan(request: ChatRequest, completion: Completion, meta: ChatMeta): StreamPlan {
  const prefix =
    `data: {"id":${JSON.stringify(meta.id)},"object":"chat.completion.chunk","created":${meta.created},` +
    `"model":${JSON.stringify(request.model)},"service_tier":"default","system_fingerprint":"${SYSTEM_FINGERPRINT}","choices":[`;
  const suffix = request.includeUsage ? '],"usage":null}\n\n' : ']}\n\n';
  const choice = (delta: string, finish: string | null): string =>
    `${prefix}{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finish === null ? 'null' : `"${finish}"`}}${suffix}`;

  const tail = [choice('{}', finishReason(completion))];
  if (request.includeUsage)
    tail.push(`${prefix}],"usage":${JSON.stringify(chatUsage(request, completion))}}\n\n`);
  tail.push('data: [DONE]\n\n');
  const malformed = `data: {"id":${JSON.stringify(meta.id)},\n\n`;
  const content = {
    open: `${prefix}{"index":0,"delta":{"content":"`,
    close: `"},"logprobs":null,"finish_reason":null}${suffix}`,
  };

  if (completion.kind === 'tool') {
    const call = {
      index: 0,
      id: meta.callId,
      type: 'function',
      function: { name: completion.name, arguments: '' },
    };
    return {
      head: [
        choice(JSON.stringify({ role: 'assistant', content: null, tool_calls: [call], refusal: null }), null),
      ],
      tokenCount: 1,
      token: () => choice('{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}', null),
      tail,
      malformed,
      content,
    };
  }
  const tokens = completion.tokens;
  return {
    head: [choice('{"role":"assistant","content":"","refusal":null}', null)],
    tokenCount: tokens.length,
    token: (i) => choice(`{"content":${JSON.stringify(tokens[i])}}`, null),
    tail,
    malformed,
    content,
  };
}

export async function handleChat(request: Request): Promise<Response> {
  if (!hasBearerKey(request)) return missingOpenAIKey();
  const body = await readJsonObject(request);
  if (!body) return invalidRequest('openai', OPENAI_BAD_JSON);
  const parsed = parseChatRequest(body);
  if (!parsed.ok) return invalidRequest('openai', parsed.message, parsed.param, parsed.code);
  const chat = parsed.value;

  const fault = await applyPreResponseFaults('openai', chat.controls, presentedKey(request));
  if (fault) return fault;

  const seed = contentSeed(chat.model, chat.messages);
  const completion = complete({ ...chat, seed });
  const idSeed = requestSeed(body, seed);
  const meta: ChatMeta = {
    id: idFrom('chatcmpl-', idSeed, 29),
    created: Math.floor(Date.now() / 1000),
    callId: idFrom('call_', idSeed ^ 0x5bd1e995),
  };
  const headers = { 'x-request-id': newRequestId(), [KEY_HASH_HEADER]: await presentedKeySha256(request) };
  if (!chat.stream) return jsonAnswer(chatCompletionBody(chat, completion, meta), headers, chat.controls);
  return sseResponse(chatStreamPlan(chat, completion, meta), chat.controls, headers);
}
