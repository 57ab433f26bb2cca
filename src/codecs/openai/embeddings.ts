/** OpenAI's embeddings format, client side (what `/v1/embeddings` accepts and answers) and upstream side. */
import type { ClientCodec, UpstreamCodec } from '../codec';
import type { EmbeddingsRequest, EmbeddingsResponse } from '../ir';
import { arr, badUpstream, count, type Json, num, obj, str, unsupported } from '../json';

export const openAiUpstreamEmbeddings: NonNullable<UpstreamCodec['embeddings']> = {
  encodeRequest: (request, context) => ({
    model: context.model,
    input: request.inputs,
    ...(request.dimensions !== null ? { dimensions: request.dimensions } : {}),
  }),
  decodeResponse(body, model): EmbeddingsResponse {
    const b = obj(body);
    const data = arr(b?.data).map((d) => arr(obj(d)?.embedding).map((x) => num(x) ?? 0));
    if (!b || data.length === 0) throw badUpstream('an embeddings answer without data');
    return { vectors: data, model: str(b.model) ?? model, inputTokens: count(obj(b.usage)?.prompt_tokens) };
  },
};

export const openAiClientEmbeddings: NonNullable<ClientCodec['embeddings']> = {
  decodeRequest(body): EmbeddingsRequest {
    if (body.encoding_format === 'base64') throw unsupported('encoding_format', null, "as 'base64'");
    const input = body.input;
    const inputs = typeof input === 'string' ? [input] : arr(input);
    if (!inputs.every((i): i is string => typeof i === 'string'))
      throw unsupported('input', null, 'as token arrays');
    for (const key of Object.keys(body)) {
      if (!['model', 'input', 'dimensions', 'encoding_format', 'user'].includes(key))
        throw unsupported(key, null);
    }
    return { inputs, dimensions: num(body.dimensions) };
  },
  encodeResponse(r): Json {
    return {
      object: 'list',
      data: r.vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
      model: r.model,
      usage: { prompt_tokens: r.inputTokens, total_tokens: r.inputTokens },
    };
  },
};
