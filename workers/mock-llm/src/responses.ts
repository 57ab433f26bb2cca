/**
 * OpenAI's Responses API: `POST /v1/responses` checks the credential, the
 * body, the served model, the previous response (`previous_response_id`, from
 * this key's stored responses), the input items (tool outputs paired with
 * calls, reasoning `encrypted_content` unsealed), applies the faults, then
 * answers from the shared completion rules (responses-render.ts, JSON or SSE)
 * with OpenAI's implicit prompt caching in usage, and keeps the answer when
 * `store` is true (responses-store.ts). `GET` / `DELETE /v1/responses/{id}`
 * and `GET /v1/responses/{id}/input_items` read and forget stored answers.
 */
import { hasBearerKey, KEY_HASH_HEADER, missingOpenAIKey, presentedKeySha256 } from './auth';
import { jsonAnswer, presentedKey } from './body-faults';
import { complete, contentSeed, requestSeed } from './completion';
import { errorResponse, invalidRequest, modelNotFound, OPENAI_BAD_JSON } from './errors';
import { applyPreResponseFaults } from './faults';
import { idFrom } from './hash';
import { jsonResponse, newRequestId, readJsonObject } from './http';
import { isServedModel, modelName } from './models';
import { DEFAULT_CACHE_MIN_TOKENS, implicitCache, messageUnits } from './prompt-cache';
import { type Item, parseInput, sealedReasoning, toMessages, unpairedOutput } from './responses-items';
import { type ResponsesMeta, responseObject, responsesStreamPlan } from './responses-render';
import { parseResponsesRequest, type ResponsesRequest } from './responses-request';
import { deleteResponse, storedItem, storedResponse, storeResponse } from './responses-store';
import { seal, unseal } from './signature';
import { sseResponse } from './sse';
import { contentText, type MessageLike, promptTokens } from './text';

/** OpenAI caches prompts of 1024+ tokens in 128-token increments (as chat.ts; the same cache). */
function cachedTokens(request: ResponsesRequest, messages: readonly MessageLike[], prompt: number): number {
  const min = request.controls.cache_min_tokens ?? DEFAULT_CACHE_MIN_TOKENS;
  if (prompt < min) return 0;
  const scope = `openai\n${modelName(request.model)}\n${request.cacheKey}`;
  return implicitCache(
    scope,
    messageUnits(messages, contentText),
    min,
    Math.max(1, Math.min(128, min)),
    Date.now(),
  );
}

const ITEM_PREFIX: Readonly<Record<string, string>> = {
  message: 'msg_',
  function_call: 'fc_',
  function_call_output: 'fco_',
  custom_tool_call: 'ctc_',
  custom_tool_call_output: 'ctco_',
  reasoning: 'rs_',
};

/** The request's input items as OpenAI lists them: each with an id, messages with parts and a status. */
function storedInput(items: readonly Item[], seed: number): Item[] {
  return items.map((item, i) => {
    const id =
      typeof item.id === 'string'
        ? item.id
        : idFrom(ITEM_PREFIX[String(item.type)] ?? 'item_', seed ^ Math.imul(i + 101, 0x27d4eb2d), 48);
    // Listed items carry a status where OpenAI's item types have one.
    const status =
      item.type === 'function_call' || item.type === 'function_call_output' ? { status: 'completed' } : {};
    if (item.type !== 'message') return { id, ...status, ...item };
    const kind = item.role === 'assistant' ? 'output_text' : 'input_text';
    const content =
      typeof item.content === 'string'
        ? [
            kind === 'output_text'
              ? { type: kind, annotations: [], text: item.content }
              : { type: kind, text: item.content },
          ]
        : item.content;
    return { id, type: 'message', status: 'completed', content, role: item.role };
  });
}

/** Stream faults that end the body before the terminal event: the client never gets the response, nothing is kept. */
function streamEndsEarly(request: ResponsesRequest): boolean {
  const { cut_after, reset_after, unterminated_bytes } = request.controls;
  return (
    request.stream &&
    (cut_after !== undefined || reset_after !== undefined || unterminated_bytes !== undefined)
  );
}

function previousNotFound(id: string): Response {
  return invalidRequest(
    'openai',
    `Previous response with id '${id}' not found.`,
    'previous_response_id',
    'previous_response_not_found',
  );
}

function forgedReasoning(id: string | undefined, blob: string): Response {
  const what = id === undefined ? `${blob.slice(0, 4)}...${blob.slice(-4)}` : `for item ${id}`;
  return invalidRequest(
    'openai',
    `The encrypted content ${what} could not be verified. Reason: Encrypted content could not be decrypted or parsed.`,
    null,
    'invalid_encrypted_content',
  );
}

export async function handleResponses(request: Request): Promise<Response> {
  if (!hasBearerKey(request)) return missingOpenAIKey();
  const body = await readJsonObject(request);
  if (!body) return invalidRequest('openai', OPENAI_BAD_JSON);
  const parsed = parseResponsesRequest(body);
  if (!parsed.ok) return invalidRequest('openai', parsed.message, parsed.param, parsed.code);
  const responses = parsed.value;
  if (!isServedModel(responses.model)) return modelNotFound('openai', responses.model);
  const keyHash = await presentedKeySha256(request);

  let context: Item[] = [];
  if (responses.previousResponseId !== undefined) {
    const previous = storedResponse(keyHash, responses.previousResponseId);
    if (!previous) return previousNotFound(responses.previousResponseId);
    context = [...previous.context, ...previous.input, ...previous.response.output];
  }
  const input = parseInput(responses.rawInput, (id) => storedItem(keyHash, id));
  if (!input.ok) return invalidRequest('openai', input.message, input.param, input.code);
  const items = [...context, ...input.value];
  const unpaired = unpairedOutput(items);
  if (unpaired) return invalidRequest('openai', unpaired.message, unpaired.param, unpaired.code);
  for (const sealed of sealedReasoning(input.value))
    if ((await unseal('reasoning', sealed.blob)) === null) return forgedReasoning(sealed.id, sealed.blob);

  const fault = await applyPreResponseFaults('openai', responses.controls, presentedKey(request));
  if (fault) return fault;

  const messages = toMessages(responses.instructions, items);
  const seed = contentSeed(responses.model, messages);
  const completion = complete({
    model: responses.model,
    messages,
    seed,
    maxTokens: responses.maxOutputTokens,
    tools: responses.toolChoice.none ? [] : responses.tools,
    forcedTool: responses.toolChoice.forced,
    format: responses.format,
    reasoningWords: responses.reasoningWords,
    controls: responses.controls,
  });
  const idSeed = requestSeed(body, seed);
  const prompt = promptTokens(messages);
  const reasoning = completion.reasoning.join('');
  const meta: ResponsesMeta = {
    id: idFrom('resp_', idSeed, 48),
    createdAt: Math.floor(Date.now() / 1000),
    seed: idSeed,
    promptTokens: prompt,
    cachedTokens: cachedTokens(responses, messages, prompt),
    encrypted:
      responses.encryptedReasoning && completion.reasoning.length > 0
        ? await seal('reasoning', reasoning, idSeed)
        : undefined,
  };
  const final = responseObject(responses, body, completion, meta, true);
  if (responses.store && !streamEndsEarly(responses))
    storeResponse(keyHash, meta.id, { context, input: storedInput(input.value, idSeed), response: final });

  const headers = { 'x-request-id': newRequestId(), [KEY_HASH_HEADER]: keyHash };
  if (!responses.stream) return jsonAnswer(final, headers, responses.controls);
  return sseResponse(responsesStreamPlan(responses, body, completion, meta), responses.controls, headers);
}

function responseNotFound(id: string): Response {
  return errorResponse('openai', 404, {
    type: 'invalid_request_error',
    message: `Response with id '${id}' not found.`,
    param: null,
    code: null,
  });
}

const ITEMS_ORDER = ['asc', 'desc'];

/** `GET /v1/responses/{id}/input_items`: OpenAI's cursor page (`limit` 1–100, default 20; `order` default desc; `after`). */
function inputItemsPage(items: readonly Item[], query: URLSearchParams): Response {
  const limitText = query.get('limit');
  const limit = limitText === null ? 20 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    return invalidRequest(
      'openai',
      `Invalid 'limit': expected an integer between 1 and 100, but got ${limitText} instead.`,
      'limit',
      'invalid_value',
    );
  const order = query.get('order') ?? 'desc';
  if (!ITEMS_ORDER.includes(order))
    return invalidRequest(
      'openai',
      `Invalid value: '${order}'. Supported values are: 'asc' and 'desc'.`,
      'order',
      'invalid_value',
    );
  const ordered = order === 'asc' ? [...items] : [...items].reverse();
  const after = query.get('after');
  const start = after === null ? 0 : ordered.findIndex((item) => item.id === after) + 1;
  const data = ordered.slice(start, start + limit);
  return jsonResponse(
    {
      object: 'list',
      data,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
      has_more: start + limit < ordered.length,
    },
    200,
    { 'x-request-id': newRequestId() },
  );
}

const STORED_PATH = /^\/v1\/responses\/([^/]+)(\/input_items)?$/;

/** `GET` / `DELETE /v1/responses/{id}` and `GET /v1/responses/{id}/input_items`, scoped to the presented key. */
export async function handleStoredResponse(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const match = STORED_PATH.exec(url.pathname);
  const method = request.method;
  if (!match || (match[2] !== undefined && method !== 'GET'))
    return errorResponse('openai', 404, {
      type: 'invalid_request_error',
      message: `Invalid URL (${method} ${url.pathname})`,
    });
  if (!hasBearerKey(request)) return missingOpenAIKey();
  const id = decodeURIComponent(match[1] as string);
  const keyHash = await presentedKeySha256(request);
  const record = storedResponse(keyHash, id);
  if (!record) return responseNotFound(id);
  if (match[2] !== undefined) return inputItemsPage(record.input, url.searchParams);
  if (method === 'DELETE') {
    deleteResponse(keyHash, id);
    return jsonResponse({ id, object: 'response', deleted: true }, 200, { 'x-request-id': newRequestId() });
  }
  return jsonResponse(record.response, 200, { 'x-request-id': newRequestId() });
}
