/**
 * A fake of Google's Gemini API (`/v1beta/models/{model}:{method}`):
 * generateContent, streamGenerateContent (`alt=sse`, CRLF-framed `data:`
 * events with no terminator, as Google sends them; without `alt=sse`, one
 * JSON array) and batchEmbedContents. Answers come from the mock's shared
 * completion rules; a function is called when the request forces it (mode ANY)
 * or asks with `mock.tool_call`. Faults work as on the other routes.
 */
import { jsonAnswer } from './body-faults';
import { complete, contentSeed, outputTokens, requestSeed, type Completion } from './completion';
import { handleBatchEmbed } from './gemini-embeddings';
import { geminiError, geminiFault, geminiKey, invalidArgument, missingGeminiKey } from './gemini-errors';
import { parseGeminiRequest, type GeminiRequest } from './gemini-request';
import { idFrom } from './hash';
import { readJsonObject } from './http';
import type { StreamPlan } from './schedule';
import { sseResponse } from './sse';
import { promptTokens } from './text';

export const GEMINI_BAD_JSON = 'Invalid JSON payload received. Unexpected token.';

function usageMetadata(request: GeminiRequest, completion: Completion): Record<string, unknown> {
  const prompt = promptTokens(request.system ? [request.system, ...request.messages] : request.messages);
  const output = outputTokens(completion);
  // Proto3 JSON leaves zero counts out, as the real API does.
  return {
    promptTokenCount: prompt,
    ...(output > 0 ? { candidatesTokenCount: output } : {}),
    totalTokenCount: prompt + output,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
  };
}

function finishReason(completion: Completion): string {
  return completion.kind === 'text' && completion.truncated ? 'MAX_TOKENS' : 'STOP';
}

function parts(completion: Completion): unknown[] {
  return completion.kind === 'tool'
    ? [{ functionCall: { name: completion.name, args: {} } }]
    : [{ text: completion.tokens.join('') }];
}

function candidates(count: number, content: unknown, extra: Record<string, unknown>): unknown[] {
  return Array.from({ length: count }, (_, index) => ({ content, ...extra, index }));
}

interface Meta {
  readonly model: string;
  readonly responseId: string;
}

function responseBody(request: GeminiRequest, completion: Completion, meta: Meta): Record<string, unknown> {
  return {
    candidates: candidates(
      request.candidateCount,
      { parts: parts(completion), role: 'model' },
      { finishReason: finishReason(completion) },
    ),
    usageMetadata: usageMetadata(request, completion),
    modelVersion: meta.model,
    responseId: meta.responseId,
  };
}

/** One chunk per token (a function call is one chunk), then a closing chunk with the finish reason and full usage. */
function streamChunks(request: GeminiRequest, completion: Completion, meta: Meta) {
  const n = request.candidateCount;
  const prompt = promptTokens(request.system ? [request.system, ...request.messages] : request.messages);
  const running = {
    promptTokenCount: prompt,
    totalTokenCount: prompt,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
  };
  const chunk = (content: unknown, extra: Record<string, unknown>, usage: unknown) => ({
    candidates: candidates(n, content, extra),
    usageMetadata: usage,
    modelVersion: meta.model,
    responseId: meta.responseId,
  });
  const tokens = completion.kind === 'tool' ? [null] : completion.tokens;
  return {
    count: tokens.length,
    token: (i: number) =>
      chunk(
        { parts: completion.kind === 'tool' ? parts(completion) : [{ text: tokens[i] }], role: 'model' },
        {},
        running,
      ),
    last: chunk(
      { parts: [{ text: '' }], role: 'model' },
      { finishReason: finishReason(completion) },
      usageMetadata(request, completion),
    ),
  };
}

const frame = (value: unknown) => `data: ${JSON.stringify(value)}\r\n\r\n`;

function streamPlan(request: GeminiRequest, completion: Completion, meta: Meta): StreamPlan {
  const chunks = streamChunks(request, completion, meta);
  const open = `data: {"candidates": [{"content": {"parts": [{"text": "`;
  return {
    head: [],
    tokenCount: chunks.count,
    token: (i) => frame(chunks.token(i)),
    tail: [frame(chunks.last)],
    malformed: 'data: {"candidates": [\r\n\r\n',
    content: { open, close: `"}],"role": "model"},"index": 0}]}\r\n\r\n` },
  };
}

/** `model` is the id in the URL (controls and all); `name` the model's name alone. */
async function generate(request: Request, model: string, name: string, stream: boolean): Promise<Response> {
  const body = await readJsonObject(request);
  if (!body) return invalidArgument(GEMINI_BAD_JSON);
  const parsed = parseGeminiRequest(body, model);
  if (!parsed.ok) return invalidArgument(parsed.message);
  const gemini = parsed.value;
  const fault = await geminiFault(gemini.controls, geminiKey(request));
  if (fault) return fault;

  const seed = contentSeed(name, gemini.messages);
  const callTool = gemini.mode !== 'NONE' && (gemini.mode === 'ANY' || gemini.controls.tool_call);
  const completion = complete({
    model: name,
    messages: gemini.messages,
    seed,
    maxTokens: gemini.maxTokens,
    firstTool: callTool ? gemini.firstTool : undefined,
    controls: { ...gemini.controls, tool_call: callTool },
  });
  const meta: Meta = { model: name, responseId: idFrom('', requestSeed({ ...body, model }, seed), 22) };
  if (!stream) return jsonAnswer(responseBody(gemini, completion, meta), {}, gemini.controls);
  if (new URL(request.url).searchParams.get('alt') !== 'sse') {
    const chunks = streamChunks(gemini, completion, meta);
    const all = [...Array.from({ length: chunks.count }, (_, i) => chunks.token(i)), chunks.last];
    return jsonAnswer(all, {}, gemini.controls);
  }
  return sseResponse(streamPlan(gemini, completion, meta), gemini.controls, {});
}

const METHOD = /^\/v1beta\/models\/([^/:]+):([A-Za-z]+)$/;

/** POST /v1beta/models/{model}:{method}. */
export async function handleGemini(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  const match = METHOD.exec(path);
  const model = decodeURIComponent(match?.[1] ?? '');
  const name = model.split(';')[0] ?? model;
  const method = match?.[2];
  if (!match || !['generateContent', 'streamGenerateContent', 'batchEmbedContents'].includes(method ?? ''))
    return geminiError(404, `Method not found: POST ${path}`);
  if (geminiKey(request) === '') return missingGeminiKey();
  if (method === 'batchEmbedContents') return handleBatchEmbed(request, model);
  return generate(request, model, name, method === 'streamGenerateContent');
}
