/**
 * POST /v1beta/models/{model}:batchEmbedContents for the Gemini fake: each
 * request's `model` must name the model in the URL, at most 100 requests,
 * text parts only; vectors are the mock's deterministic unit vectors (768
 * values, or 3072 for gemini-embedding models, or `outputDimensionality`).
 * Like the real API, the answer carries no token count.
 */
import { parseRequestControls } from './controls';
import { inputSeed } from './embeddings';
import { geminiFault, geminiKey, invalidArgument } from './gemini-errors';
import { jsonResponse, readJsonObject } from './http';
import { isRecord } from './validate';
import { embeddingVector } from './vectors';

const MAX_REQUESTS = 100;
const MAX_DIMENSIONS = 3072;

/** The model id without controls written after it. */
const baseModel = (model: string) => model.split(';')[0] ?? model;

export function defaultGeminiDimensions(model: string): number {
  return model.startsWith('gemini-embedding') ? 3072 : 768;
}

function problem(path: string, message: string): Response {
  return invalidArgument(`* BatchEmbedContentsRequest.${path}: ${message}\n`);
}

export async function handleBatchEmbed(request: Request, model: string): Promise<Response> {
  const body = await readJsonObject(request);
  if (!body) return invalidArgument('Invalid JSON payload received. Unexpected token.');
  for (const key of Object.keys(body))
    if (key !== 'requests' && key !== 'mock')
      return invalidArgument(`Invalid JSON payload received. Unknown name "${key}": Cannot find field.`);
  const controls = parseRequestControls(body.mock, model);
  if (!controls.ok) return invalidArgument(`${controls.param}: ${controls.message}`);
  const requests = body.requests;
  if (!Array.isArray(requests) || requests.length === 0)
    return problem('requests', 'requests is not specified');
  if (requests.length > MAX_REQUESTS)
    return problem('requests', `at most ${MAX_REQUESTS} requests can be in one batch`);

  const items: { text: string; dimensions: number }[] = [];
  for (let i = 0; i < requests.length; i++) {
    const r: unknown = requests[i];
    const at = `requests[${i}]`;
    if (!isRecord(r)) return problem(at, 'must be an object.');
    if (r.model !== `models/${model}`)
      return problem(`${at}.model`, `Model names should match. Expected models/${model}.`);
    const parts = isRecord(r.content) ? r.content.parts : undefined;
    if (!Array.isArray(parts) || parts.length === 0)
      return problem(`${at}.content.parts`, 'contents.parts must not be empty.');
    let text = '';
    for (const part of parts) {
      if (!isRecord(part) || typeof part.text !== 'string')
        return problem(`${at}.content.parts`, 'only text parts can be embedded.');
      text += part.text;
    }
    const dimensions = r.outputDimensionality ?? defaultGeminiDimensions(model);
    if (
      !Number.isInteger(dimensions) ||
      (dimensions as number) < 1 ||
      (dimensions as number) > MAX_DIMENSIONS
    )
      return problem(`${at}.output_dimensionality`, `must be between 1 and ${MAX_DIMENSIONS}.`);
    items.push({ text, dimensions: dimensions as number });
  }

  const fault = await geminiFault(controls.controls, geminiKey(request));
  if (fault) return fault;
  const embeddings = items.map(({ text, dimensions }) => ({
    values: Array.from(embeddingVector(inputSeed(baseModel(model), text), dimensions)),
  }));
  return jsonResponse({ embeddings });
}
