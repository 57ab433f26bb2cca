/**
 * A fake of Google's Gemini API (`/v1beta/models/{model}:{method}`):
 * generateContent, streamGenerateContent (`alt=sse`, CRLF-framed `data:`
 * events with no terminator, as Google sends them; without `alt=sse`, one
 * JSON array), countTokens and batchEmbedContents. Answers come from the
 * mock's shared completion rules (rendered by gemini-render.ts); a function is
 * called when the request forces it (mode ANY), asks with `mock.tool_call`, or
 * scripts it. Faults work as on the other routes.
 */
import { jsonAnswer } from './body-faults';
import { complete, contentSeed, requestSeed } from './completion';
import { handleBatchEmbed } from './gemini-embeddings';
import { geminiError, geminiFault, geminiKey, invalidArgument, missingGeminiKey } from './gemini-errors';
import { signedPartText } from './gemini-options';
import { type GeminiMeta, responseBody, streamChunks, streamPlan } from './gemini-render';
import { type GeminiRequest, parseGeminiRequest } from './gemini-request';
import { idFrom } from './hash';
import { jsonResponse, readJsonObject } from './http';
import { isServedModel } from './models';
import { DEFAULT_CACHE_MIN_TOKENS, implicitCache, messageUnits } from './prompt-cache';
import { firstForged, sign } from './signature';
import { sseResponse } from './sse';
import { contentText, type MessageLike, promptTokens } from './text';

export const GEMINI_BAD_JSON = 'Invalid JSON payload received. Unexpected token.';
const METHODS = ['generateContent', 'streamGenerateContent', 'countTokens', 'batchEmbedContents'];

const promptOf = (request: GeminiRequest): readonly MessageLike[] =>
  request.system ? [request.system, ...request.messages] : request.messages;

/** Implicit caching: prompts over the minimum are remembered; a repeated prefix is reported cached. */
function cachedTokens(request: GeminiRequest, name: string, prompt: number): number {
  const min = request.controls.cache_min_tokens ?? DEFAULT_CACHE_MIN_TOKENS;
  if (prompt < min) return 0;
  return implicitCache(`gemini\n${name}`, messageUnits(promptOf(request), contentText), min, 1, Date.now());
}

async function parse(
  request: Request,
  model: string,
): Promise<{ body: Record<string, unknown>; gemini: GeminiRequest } | Response> {
  const body = await readJsonObject(request);
  if (!body) return invalidArgument(GEMINI_BAD_JSON);
  const parsed = parseGeminiRequest(body, model);
  if (!parsed.ok) return invalidArgument(parsed.message);
  const forged = parsed.value.signed.length > 0 ? await firstForged(parsed.value.signed) : null;
  if (forged)
    return invalidArgument(
      `* GenerateContentRequest.${forged.at}.thought_signature: Corrupted thought signature.\n`,
    );
  return { body, gemini: parsed.value };
}

/** `model` is the id in the URL (controls and all); `name` the model's name alone. */
async function generate(request: Request, model: string, name: string, stream: boolean): Promise<Response> {
  const parsed = await parse(request, model);
  if (parsed instanceof Response) return parsed;
  const { body, gemini } = parsed;
  const fault = await geminiFault(gemini.controls, geminiKey(request));
  if (fault) return fault;

  const seed = contentSeed(name, gemini.messages);
  const none = gemini.mode === 'NONE';
  const completion = complete({
    model: name,
    messages: gemini.messages,
    seed,
    maxTokens: gemini.maxTokens,
    tools: none ? [] : gemini.tools,
    forcedTool: gemini.forcedTool,
    format: gemini.format,
    reasoningWords: gemini.thinking?.words ?? 0,
    controls: gemini.controls,
  });
  const idSeed = requestSeed({ ...body, model }, seed);
  const prompt = promptTokens(promptOf(gemini));
  const answer =
    completion.kind === 'tool'
      ? { functionCall: { name: completion.name, args: completion.input } }
      : { text: completion.tokens.join('') };
  const meta: GeminiMeta = {
    model: name,
    responseId: idFrom('', idSeed, 22),
    prompt,
    cached: cachedTokens(gemini, name, prompt),
    ...(gemini.thinking ? { signature: await sign('thought', signedPartText(answer), idSeed) } : {}),
  };
  if (!stream) return jsonAnswer(responseBody(gemini, completion, meta), {}, gemini.controls);
  if (new URL(request.url).searchParams.get('alt') !== 'sse') {
    const chunks = streamChunks(gemini, completion, meta);
    const all = [...Array.from({ length: chunks.count }, (_, i) => chunks.token(i)), chunks.last];
    return jsonAnswer(all, {}, gemini.controls);
  }
  return sseResponse(streamPlan(gemini, completion, meta), gemini.controls, {});
}

/** countTokens: `{contents}` or `{generateContentRequest}`, validated as generateContent; answers `{totalTokens}`. */
async function countTokens(request: Request, model: string): Promise<Response> {
  const body = await readJsonObject(request);
  if (!body) return invalidArgument(GEMINI_BAD_JSON);
  const inner = body.generateContentRequest;
  if (inner !== undefined && body.contents !== undefined)
    return invalidArgument(
      '* CountTokensRequest: contents and generate_content_request cannot both be set.\n',
    );
  const target =
    typeof inner === 'object' && inner !== null
      ? (inner as Record<string, unknown>)
      : { contents: body.contents };
  const parsed = parseGeminiRequest(target, model);
  if (!parsed.ok)
    return invalidArgument(parsed.message.replace('GenerateContentRequest.', 'CountTokensRequest.'));
  const total = promptTokens(promptOf(parsed.value));
  return jsonResponse({ totalTokens: total, promptTokensDetails: [{ modality: 'TEXT', tokenCount: total }] });
}

const PATH = /^\/v1beta\/models\/([^/:]+):([A-Za-z]+)$/;

/** POST /v1beta/models/{model}:{method}. */
export async function handleGemini(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  const match = PATH.exec(path);
  const model = decodeURIComponent(match?.[1] ?? '');
  const name = model.split(';')[0] ?? model;
  const method = match?.[2] ?? '';
  if (!match || !METHODS.includes(method)) return geminiError(404, `Method not found: POST ${path}`);
  if (geminiKey(request) === '') return missingGeminiKey();
  if (!isServedModel(name))
    return geminiError(
      404,
      `models/${name} is not found for API version v1beta, or is not supported for ${method}. Call ListModels to see the list of available models and their supported methods.`,
    );
  if (method === 'batchEmbedContents') return handleBatchEmbed(request, model);
  if (method === 'countTokens') return countTokens(request, model);
  return generate(request, model, name, method === 'streamGenerateContent');
}
