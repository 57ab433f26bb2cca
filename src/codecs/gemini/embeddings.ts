/**
 * OpenAI-style embeddings ⇄ Gemini's `batchEmbedContents` (pure): one request
 * per text, `outputDimensionality` from `dimensions`, vectors back in order.
 * Gemini reports no token count, so the input is counted with the gateway's
 * own prompt estimate (src/limits/estimate.ts: ¼ token per ASCII character,
 * 1 per other character), from the request the answer belongs to.
 */
import { textTokens } from '../../limits/estimate';
import type { EncodeContext } from '../codec';
import type { EmbeddingsRequest, EmbeddingsResponse } from '../ir';
import { arr, badUpstream, type Json, obj, unsupported } from '../json';

/** Gemini embeds at most 100 texts per batch call. */
export const MAX_GEMINI_BATCH = 100;

export function encodeGeminiEmbeddings(request: EmbeddingsRequest, context: EncodeContext): Json {
  if (request.inputs.length > MAX_GEMINI_BATCH)
    throw unsupported('input', 'gemini', `with more than ${MAX_GEMINI_BATCH} texts`);
  const model = `models/${context.model}`;
  return {
    requests: request.inputs.map((text) => ({
      model,
      content: { parts: [{ text }] },
      ...(request.dimensions !== null ? { outputDimensionality: request.dimensions } : {}),
    })),
  };
}

/**
 * The vectors of a batch answer. `request` is the request it answers: Gemini
 * gives no usage, so without it the input counts 0 tokens.
 */
export function decodeGeminiEmbeddings(
  body: unknown,
  model: string,
  request?: EmbeddingsRequest,
): EmbeddingsResponse {
  const embeddings = obj(body)?.embeddings;
  if (!Array.isArray(embeddings)) throw badUpstream('an embeddings answer without embeddings');
  const vectors = embeddings.map((e) => {
    const values = arr(obj(e)?.values);
    if (values.length === 0 || values.some((v) => typeof v !== 'number'))
      throw badUpstream('an embedding that is not a list of numbers');
    return values as number[];
  });
  if (request && vectors.length !== request.inputs.length)
    throw badUpstream(`${vectors.length} embeddings for ${request.inputs.length} inputs`);
  const inputTokens = request ? request.inputs.reduce((sum, text) => sum + textTokens(text), 0) : 0;
  return { vectors, model, inputTokens };
}
