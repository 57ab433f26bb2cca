/**
 * AWS Bedrock's Converse, ConverseStream and CountTokens: POST
 * /model/{modelId}/converse, /converse-stream and /count-tokens (the id
 * URL-encoded). SigV4 is checked (src/bedrock-auth.ts), the model id must be
 * one the mock serves, the body is validated (src/bedrock-request.ts) and
 * reasoning carried back must bear the mock's signature; the answer is built
 * from the mock's completion rules and rendered by src/bedrock-render.ts.
 * Controls travel in the body's `mock` field, as on the other routes, or in
 * the model id (`echo;cut_after=3`) when a gateway writes the body.
 */
import { checkSignature } from './bedrock-auth';
import { bedrockError, injectedBedrockError, newAwsRequestId, validationError } from './bedrock-errors';
import { type ConverseMeta, converseBody, converseStreamPlan } from './bedrock-render';
import { type ConverseRequest, parseConverseRequest } from './bedrock-request';
import { eventStreamResponse } from './bedrock-stream';
import { jsonAnswer } from './body-faults';
import { complete, contentSeed, requestSeed } from './completion';
import type { Controls } from './controls';
import { applyPreResponseFaults } from './faults';
import { idFrom } from './hash';
import { jsonResponse } from './http';
import { isServedModel, modelName } from './models';
import { DEFAULT_CACHE_MIN_TOKENS, explicitCache } from './prompt-cache';
import { firstForged, sign } from './signature';
import { type MessageLike, promptTokens } from './text';
import { isRecord } from './validate';

const PATH = /^\/model\/([^/]+)\/(converse|converse-stream|count-tokens)$/;
const NO_CACHE_MIN = DEFAULT_CACHE_MIN_TOKENS;

/** Input tokens: the prompt-token rule over the system blocks (as one message) and the messages. */
const inputTokens = (request: ConverseRequest) =>
  promptTokens(request.system ? [request.system, ...request.messages] : request.messages);

/** `mock.status` and friends, answered in Bedrock's envelope (the shared fault logic decides whether and when). */
async function preResponseFault(controls: Controls): Promise<Response | null> {
  const plain = { ...controls, error_message: undefined, error_body_bytes: undefined };
  const fault = await applyPreResponseFaults('openai', plain);
  if (!fault) return null;
  await fault.body?.cancel();
  const { type, message } = injectedBedrockError(fault.status);
  const text = controls.error_message?.replaceAll('{key}', 'AKIDEXAMPLE') ?? message;
  const padded = controls.error_body_bytes ? text.padEnd(controls.error_body_bytes, ' ') : text;
  return bedrockError(fault.status, type, padded);
}

function modelError(message: string): Response {
  return validationError(`The model returned the following errors: ${message}`);
}

/** The signed reasoning a request carries back must be what the mock issued. */
async function forgedReasoning(converse: ConverseRequest): Promise<Response | null> {
  const forged = converse.signed.length > 0 ? await firstForged(converse.signed) : null;
  if (!forged) return null;
  return modelError(
    forged.kind === 'thinking'
      ? `${forged.at}: Invalid \`signature\` in \`thinking\` block`
      : `${forged.at}: Invalid \`data\` in \`redacted_thinking\` block`,
  );
}

/** CountTokens: `{input: {converse: {...}}}` (validated as Converse) or `{input: {invokeModel: {body}}}`. */
function countTokens(record: Record<string, unknown>, model: string): Response {
  const input = record.input;
  const converse = isRecord(input) ? input.converse : undefined;
  const invoke = isRecord(input) ? input.invokeModel : undefined;
  if (isRecord(converse)) {
    const parsed = parseConverseRequest(converse, model);
    if (!parsed.ok) return validationError(parsed.message);
    return jsonResponse({ inputTokens: inputTokens(parsed.value) }, 200, {
      'x-amzn-requestid': newAwsRequestId(),
    });
  }
  if (isRecord(invoke) && typeof invoke.body === 'string') {
    let body: unknown;
    try {
      body = JSON.parse(atob(invoke.body));
    } catch {
      return validationError('Malformed input request: input.invokeModel.body must be base64-encoded JSON.');
    }
    const messages = isRecord(body) && Array.isArray(body.messages) ? (body.messages as MessageLike[]) : [];
    const system =
      isRecord(body) && body.system !== undefined ? [{ role: 'system', content: body.system }] : [];
    return jsonResponse({ inputTokens: promptTokens([...system, ...messages]) }, 200, {
      'x-amzn-requestid': newAwsRequestId(),
    });
  }
  return validationError('Malformed input request: input must set exactly one of converse, invokeModel.');
}

export async function handleBedrock(request: Request): Promise<Response> {
  const match = PATH.exec(new URL(request.url).pathname);
  if (!match) return bedrockError(404, 'UnknownOperationException', 'Unknown operation');
  const model = decodeURIComponent(match[1] as string);
  const stream = match[2] === 'converse-stream';
  const raw = await request.arrayBuffer();
  const denied = await checkSignature(request, raw);
  if (denied) return denied;

  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    return bedrockError(400, 'SerializationException', 'Unable to parse the request body as JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return bedrockError(400, 'SerializationException', 'The request body must be a JSON object.');
  const record = body as Record<string, unknown>;
  if (!isServedModel(model)) return validationError('The provided model identifier is invalid.');
  if (match[2] === 'count-tokens') return countTokens(record, model);
  const parsed = parseConverseRequest(record, model);
  if (!parsed.ok) return validationError(parsed.message);
  const converse = parsed.value;
  const forged = await forgedReasoning(converse);
  if (forged) return forged;

  const fault = await preResponseFault(converse.controls);
  if (fault) return fault;

  const seed = contentSeed(model, converse.messages);
  const completion = complete({
    model,
    messages: converse.messages,
    seed,
    maxTokens: converse.maxTokens,
    tools: converse.tools,
    forcedTool: converse.forcedTool,
    format: converse.options.format,
    reasoningWords: converse.options.thinking?.words ?? 0,
    controls: converse.controls,
  });
  const idSeed = requestSeed({ ...record, model }, seed);
  const thinking = converse.options.thinking;
  const shownText = thinking?.omitted ? '' : completion.reasoning.join('');
  const meta: ConverseMeta = {
    toolUseId: idFrom('tooluse_', idSeed, 22),
    input: inputTokens(converse),
    cache: converse.cache
      ? explicitCache(
          `bedrock\n${modelName(model)}`,
          converse.cache,
          converse.controls.cache_min_tokens ?? NO_CACHE_MIN,
          Date.now(),
        )
      : undefined,
    ...(thinking ? { signature: await sign('thinking', shownText, idSeed) } : {}),
    ...(thinking && converse.controls.redacted_thinking
      ? { redacted: await sign('redacted', '', idSeed ^ 0x2545f491) }
      : {}),
  };
  const headers = { 'x-amzn-requestid': newAwsRequestId() };
  if (!stream) return jsonAnswer(converseBody(converse, completion, meta), headers, converse.controls);
  return eventStreamResponse(converseStreamPlan(converse, completion, meta), converse.controls, headers);
}
