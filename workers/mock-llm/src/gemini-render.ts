/**
 * The Gemini fake's answers: the GenerateContentResponse, its stream chunks
 * (one per token; thought parts first when `includeThoughts`; a closing chunk
 * with the finish reason, the full usage and, for text, the thoughtSignature)
 * and their SSE plan. usageMetadata follows the real API: thoughtsTokenCount
 * apart from candidatesTokenCount, cachedContentTokenCount within the prompt,
 * zero counts left out (proto3 JSON).
 */
import { type Completion, outputTokens } from './completion';
import type { GeminiRequest } from './gemini-request';
import type { StreamPlan } from './schedule';

export interface GeminiMeta {
  readonly model: string;
  readonly responseId: string;
  readonly prompt: number;
  readonly cached: number;
  /** The thoughtSignature of the answer's part, when the model thought. */
  readonly signature?: string;
}

function usageMetadata(completion: Completion, meta: GeminiMeta): Record<string, unknown> {
  const thoughts = completion.reasoning.length;
  const output = outputTokens(completion) - thoughts;
  return {
    promptTokenCount: meta.prompt,
    ...(output > 0 ? { candidatesTokenCount: output } : {}),
    totalTokenCount: meta.prompt + output + thoughts,
    ...(meta.cached > 0 ? { cachedContentTokenCount: meta.cached } : {}),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: meta.prompt }],
    ...(meta.cached > 0 ? { cacheTokensDetails: [{ modality: 'TEXT', tokenCount: meta.cached }] } : {}),
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
  };
}

function finishReason(completion: Completion): string {
  return completion.kind === 'text' && completion.truncated ? 'MAX_TOKENS' : 'STOP';
}

const signed = (meta: GeminiMeta) =>
  meta.signature === undefined ? {} : { thoughtSignature: meta.signature };

function thoughtParts(request: GeminiRequest, completion: Completion): unknown[] {
  return request.thinking?.include && completion.reasoning.length > 0
    ? [{ text: completion.reasoning.join(''), thought: true }]
    : [];
}

function answerPart(completion: Completion, meta: GeminiMeta): Record<string, unknown> {
  return completion.kind === 'tool'
    ? { functionCall: { name: completion.name, args: completion.input }, ...signed(meta) }
    : { text: completion.tokens.join(''), ...signed(meta) };
}

function candidates(count: number, content: unknown, extra: Record<string, unknown>): unknown[] {
  return Array.from({ length: count }, (_, index) => ({ content, ...extra, index }));
}

export function responseBody(
  request: GeminiRequest,
  completion: Completion,
  meta: GeminiMeta,
): Record<string, unknown> {
  const parts = [...thoughtParts(request, completion), answerPart(completion, meta)];
  return {
    candidates: candidates(
      request.candidateCount,
      { parts, role: 'model' },
      { finishReason: finishReason(completion) },
    ),
    usageMetadata: usageMetadata(completion, meta),
    modelVersion: meta.model,
    responseId: meta.responseId,
  };
}

/** Thought chunks, then one chunk per token (a function call is one chunk), then a closing chunk. */
export function streamChunks(request: GeminiRequest, completion: Completion, meta: GeminiMeta) {
  const n = request.candidateCount;
  const running = {
    promptTokenCount: meta.prompt,
    totalTokenCount: meta.prompt,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: meta.prompt }],
  };
  const chunk = (parts: unknown[], extra: Record<string, unknown>, usage: unknown) => ({
    candidates: candidates(n, { parts, role: 'model' }, extra),
    usageMetadata: usage,
    modelVersion: meta.model,
    responseId: meta.responseId,
  });
  const thoughts = request.thinking?.include ? completion.reasoning : [];
  const tokens = completion.kind === 'tool' ? [null] : completion.tokens;
  const isTool = completion.kind === 'tool';
  return {
    count: thoughts.length + tokens.length,
    token: (i: number) =>
      chunk(
        i < thoughts.length
          ? [{ text: thoughts[i], thought: true }]
          : [isTool ? answerPart(completion, meta) : { text: tokens[i - thoughts.length] }],
        {},
        running,
      ),
    last: chunk(
      [{ text: '', ...(isTool ? {} : signed(meta)) }],
      { finishReason: finishReason(completion) },
      usageMetadata(completion, meta),
    ),
  };
}

const frame = (value: unknown) => `data: ${JSON.stringify(value)}\r\n\r\n`;

export function streamPlan(request: GeminiRequest, completion: Completion, meta: GeminiMeta): StreamPlan {
  const chunks = streamChunks(request, completion, meta);
  return {
    head: [],
    tokenCount: chunks.count,
    token: (i) => frame(chunks.token(i)),
    tail: [frame(chunks.last)],
    malformed: 'data: {"candidates": [\r\n\r\n',
    content: {
      open: `data: {"candidates": [{"content": {"parts": [{"text": "`,
      close: `"}],"role": "model"},"index": 0}]}\r\n\r\n`,
    },
  };
}
