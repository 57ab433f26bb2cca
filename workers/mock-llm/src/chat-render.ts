/**
 * The chat completion in OpenAI's wire format: the `chat.completion` object,
 * or a `chat.completion.chunk` SSE stream ending in `data: [DONE]`. Stream
 * events are built from a prefix rendered once per request, so each token
 * costs one small JSON.stringify of the token itself. Models that show their
 * reasoning carry it in `reasoning_content` (message, and deltas before the content).
 */
import type { ChatRequest } from './chat-request';
import { type Completion, outputTokens } from './completion';
import type { StreamPlan } from './schedule';

export const SYSTEM_FINGERPRINT = 'fp_6d6f636b31';

export interface ChatMeta {
  readonly id: string;
  /** Unix seconds. */
  readonly created: number;
  /** Id of the tool call, when the completion is one. */
  readonly callId: string;
  readonly promptTokens: number;
  readonly cachedTokens: number;
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

/** OpenAI's usage: completion_tokens includes the reasoning tokens, prompt_tokens the cached ones. */
export function chatUsage(completion: Completion, meta: ChatMeta): OpenAIUsage {
  const output = outputTokens(completion);
  return {
    prompt_tokens: meta.promptTokens,
    completion_tokens: output,
    total_tokens: meta.promptTokens + output,
    prompt_tokens_details: { cached_tokens: meta.cachedTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: completion.reasoning.length,
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
  const reasoning = request.options.showsReasoning
    ? { reasoning_content: completion.reasoning.join('') }
    : {};
  const message =
    completion.kind === 'tool'
      ? {
          role: 'assistant',
          content: null,
          ...reasoning,
          tool_calls: [
            {
              id: meta.callId,
              type: 'function',
              function: { name: completion.name, arguments: JSON.stringify(completion.input) },
            },
          ],
          refusal: null,
          annotations: [],
        }
      : {
          role: 'assistant',
          content: completion.tokens.join(''),
          ...reasoning,
          refusal: null,
          annotations: [],
        };
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: request.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(completion) }],
    usage: chatUsage(completion, meta),
    service_tier: 'default',
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}

/** The `chat.completion.chunk` events: role chunk, reasoning chunks, one chunk per token, finish, usage, [DONE]. */
export function chatStreamPlan(request: ChatRequest, completion: Completion, meta: ChatMeta): StreamPlan {
  const prefix =
    `data: {"id":${JSON.stringify(meta.id)},"object":"chat.completion.chunk","created":${meta.created},` +
    `"model":${JSON.stringify(request.model)},"service_tier":"default","system_fingerprint":"${SYSTEM_FINGERPRINT}","choices":[`;
  const suffix = request.includeUsage ? '],"usage":null}\n\n' : ']}\n\n';
  const choice = (delta: string, finish: string | null): string =>
    `${prefix}{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finish === null ? 'null' : `"${finish}"`}}${suffix}`;

  const tail = [choice('{}', finishReason(completion))];
  if (request.includeUsage)
    tail.push(`${prefix}],"usage":${JSON.stringify(chatUsage(completion, meta))}}\n\n`);
  tail.push('data: [DONE]\n\n');
  const malformed = `data: {"id":${JSON.stringify(meta.id)},\n\n`;
  const content = {
    open: `${prefix}{"index":0,"delta":{"content":"`,
    close: `"},"logprobs":null,"finish_reason":null}${suffix}`,
  };
  const reasoning = request.options.showsReasoning ? completion.reasoning : [];
  const reasoningChunk = (i: number) => choice(`{"reasoning_content":${JSON.stringify(reasoning[i])}}`, null);

  if (completion.kind === 'tool') {
    const call = {
      index: 0,
      id: meta.callId,
      type: 'function',
      function: { name: completion.name, arguments: '' },
    };
    const opening = { role: 'assistant', content: null, tool_calls: [call], refusal: null };
    const args = JSON.stringify({
      tool_calls: [{ index: 0, function: { arguments: JSON.stringify(completion.input) } }],
    });
    if (reasoning.length === 0)
      return {
        head: [choice(JSON.stringify(opening), null)],
        tokenCount: 1,
        token: () => choice(args, null),
        tail,
        malformed,
        content,
      };
    // Reasoning first: the call opens after it, in a chunk of its own.
    return {
      head: [choice('{"role":"assistant","content":null,"refusal":null}', null)],
      tokenCount: reasoning.length + 2,
      token: (i) =>
        i < reasoning.length
          ? reasoningChunk(i)
          : choice(i === reasoning.length ? JSON.stringify({ tool_calls: [call] }) : args, null),
      tail,
      malformed,
      content,
    };
  }
  const tokens = completion.tokens;
  return {
    head: [choice('{"role":"assistant","content":"","refusal":null}', null)],
    tokenCount: reasoning.length + tokens.length,
    token: (i) =>
      i < reasoning.length
        ? reasoningChunk(i)
        : choice(`{"content":${JSON.stringify(tokens[i - reasoning.length])}}`, null),
    tail,
    malformed,
    content,
  };
}
