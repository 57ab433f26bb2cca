/** The OpenAI wire format, client side and upstream side (Chat Completions and Embeddings). */
import type { ClientCodec, UpstreamCodec } from '../codec';
import { openAiAssembler } from './assemble';
import { openAiByteObserver } from './byte-observer';
import { openAiErrorBody } from './error';
import type { EmbeddingsRequest, EmbeddingsResponse } from '../ir';
import { arr, badUpstream, count, type Json, num, obj, str, unsupported } from '../json';
import { decodeOpenAiRequest, encodeOpenAiRequest } from './request';
import { decodeOpenAiResponse, encodeOpenAiResponse } from './response';
import { openAiObserver } from './observer';
import { openAiPassThrough } from './pass-through';
import { replayOpenAi } from './replay';
import { openAiAnswerSlots, openAiRequestSlots } from './slots';
import { openAiStreamDecoder, openAiStreamEncoder } from './stream';
import { openAiTextRewriter } from './text-rewriter';
import { openAiUsage } from './usage';

export const openAiUpstream: UpstreamCodec = {
  format: 'openai',
  encodeRequest: encodeOpenAiRequest,
  decodeResponse: decodeOpenAiResponse,
  streamDecoder: openAiStreamDecoder,
  decodeError(body) {
    const error = obj(obj(body)?.error);
    return {
      message: str(error?.message),
      type: str(error?.type) ?? str(error?.code),
      code: str(error?.code),
    };
  },
  embeddings: {
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
  },
};

export const openAiClient: ClientCodec = {
  format: 'openai',
  decodeRequest: decodeOpenAiRequest,
  encodeResponse: encodeOpenAiResponse,
  streamEncoder: openAiStreamEncoder,
  acceptsApiKeyHeader: false,
  passThroughBody: openAiPassThrough,
  usage: openAiUsage,
  errorBody: openAiErrorBody,
  relaysErrorType: true,
  observer: openAiObserver,
  byteObserver: openAiByteObserver,
  assembler: openAiAssembler,
  replay: replayOpenAi,
  requestSlots: openAiRequestSlots,
  answerSlots: openAiAnswerSlots,
  textRewriter: openAiTextRewriter,
  embeddings: {
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
  },
};
