/**
 * POST /v1/embeddings in OpenAI's wire format. `input` may be a string, an
 * array of strings, an array of token ids or an array of such arrays; each
 * item gets a deterministic unit vector seeded by the model and the item.
 */
import { hasBearerKey, missingOpenAIKey } from './auth';
import { parseControls, type Controls } from './controls';
import { invalidRequest, modelNotFound, OPENAI_BAD_JSON } from './errors';
import { applyPreResponseFaults } from './faults';
import { fnv1a } from './hash';
import { jsonResponse, newRequestId, readJsonObject } from './http';
import { isServedModel } from './models';
import { embeddingInputTokens } from './text';
import { fail, type Parsed } from './validate';
import { embeddingVector, float32Base64 } from './vectors';

export type EmbeddingInput = string | readonly number[];

export interface EmbeddingsRequest {
  readonly model: string;
  readonly inputs: readonly EmbeddingInput[];
  readonly dimensions: number;
  readonly encoding: 'float' | 'base64';
  readonly controls: Controls;
}

const MAX_INPUTS = 2048;
const MAX_DIMENSIONS = 8192;
const INVALID_INPUT =
  "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.";

/** 3072 for models whose id contains "large", else 1536 (text-embedding-3-large/-small). */
export function defaultDimensions(model: string): number {
  return model.includes('large') ? 3072 : 1536;
}

function isTokenArray(value: unknown): value is number[] {
  return (
    Array.isArray(value) && value.length > 0 && value.every((n) => Number.isInteger(n) && (n as number) >= 0)
  );
}

/** Normalises the four accepted `input` forms to a list of items. */
function parseInput(raw: unknown): Parsed<readonly EmbeddingInput[]> {
  if (raw === undefined)
    return fail("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  if (typeof raw === 'string') return raw === '' ? fail(INVALID_INPUT) : { ok: true, value: [raw] };
  if (!Array.isArray(raw) || raw.length === 0) return fail(INVALID_INPUT);
  if (raw.length > MAX_INPUTS) return fail(`Invalid 'input': maximum ${MAX_INPUTS} items.`, 'input');
  if (raw.every((item) => typeof item === 'string' && item !== ''))
    return { ok: true, value: raw as string[] };
  if (isTokenArray(raw)) return { ok: true, value: [raw] };
  if (raw.every(isTokenArray)) return { ok: true, value: raw as number[][] };
  return fail(INVALID_INPUT);
}

export function parseEmbeddingsRequest(body: Record<string, unknown>): Parsed<EmbeddingsRequest> {
  const controls = parseControls(body.mock);
  if (!controls.ok) return fail(controls.message, controls.param);
  if (typeof body.model !== 'string' || body.model === '') return fail('you must provide a model parameter');
  const inputs = parseInput(body.input);
  if (!inputs.ok) return inputs;

  const encoding = body.encoding_format ?? 'float';
  if (encoding !== 'float' && encoding !== 'base64') {
    return fail(
      `Invalid value: '${String(encoding)}'. Supported values are: 'float' and 'base64'.`,
      'encoding_format',
      'invalid_value',
    );
  }
  const dimensions = body.dimensions ?? defaultDimensions(body.model);
  if (
    !Number.isInteger(dimensions) ||
    (dimensions as number) < 1 ||
    (dimensions as number) > MAX_DIMENSIONS
  ) {
    return fail(
      `Invalid 'dimensions': expected an integer between 1 and ${MAX_DIMENSIONS}.`,
      'dimensions',
      'invalid_value',
    );
  }
  return {
    ok: true,
    value: {
      model: body.model,
      inputs: inputs.value,
      dimensions: dimensions as number,
      encoding,
      controls: controls.controls,
    },
  };
}

/** Seed of one input: the model's hash continued by the text, or by the token ids (tagged so they never collide). */
export function inputSeed(model: string, input: EmbeddingInput): number {
  const modelSeed = fnv1a(model);
  return typeof input === 'string'
    ? fnv1a(input, modelSeed)
    : fnv1a(`\u0000tokens:${input.join(',')}`, modelSeed);
}

export function embeddingsBody(request: EmbeddingsRequest): unknown {
  let promptTokens = 0;
  const data = request.inputs.map((input, index) => {
    promptTokens += embeddingInputTokens(input);
    const vector = embeddingVector(inputSeed(request.model, input), request.dimensions);
    return {
      object: 'embedding',
      index,
      embedding: request.encoding === 'base64' ? float32Base64(vector) : Array.from(vector),
    };
  });
  return {
    object: 'list',
    data,
    model: request.model,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
}

export async function handleEmbeddings(request: Request): Promise<Response> {
  if (!hasBearerKey(request)) return missingOpenAIKey();
  const body = await readJsonObject(request);
  if (!body) return invalidRequest('openai', OPENAI_BAD_JSON);
  const parsed = parseEmbeddingsRequest(body);
  if (!parsed.ok) return invalidRequest('openai', parsed.message, parsed.param, parsed.code);
  if (!isServedModel(parsed.value.model)) return modelNotFound('openai', parsed.value.model);
  const fault = await applyPreResponseFaults('openai', parsed.value.controls);
  if (fault) return fault;
  return jsonResponse(embeddingsBody(parsed.value), 200, { 'x-request-id': newRequestId() });
}
