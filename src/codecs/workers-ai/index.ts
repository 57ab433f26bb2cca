/**
 * The Workers AI format, upstream side: the inputs and outputs of
 * `env.AI.run(model, inputs)` for text-generation and text-embedding models.
 * The adapter (src/providers/workers-ai.ts) carries them over the binding.
 */
import { textTokens } from '../../limits/estimate';
import type { UpstreamCodec } from '../codec';
import type { EmbeddingsResponse } from '../ir';
import { arr, badUpstream, num, obj, unsupported } from '../json';
import { WORKERS_AI_MAX_EMBEDDING_INPUTS, workersAiModel } from './models';
import { encodeWorkersAiRequest } from './request';
import { decodeWorkersAiError, decodeWorkersAiResponse, readStamp, STAMP } from './response';
import { workersAiStreamDecoder } from './stream';

export const workersAiUpstream: UpstreamCodec = {
  format: 'workers-ai',
  encodeRequest: encodeWorkersAiRequest,
  decodeResponse: decodeWorkersAiResponse,
  streamDecoder: workersAiStreamDecoder,
  decodeError: decodeWorkersAiError,
  embeddings: {
    encodeRequest(request, context) {
      // One binding call per request, so a larger batch is refused rather than split.
      if (request.inputs.length > WORKERS_AI_MAX_EMBEDDING_INPUTS)
        throw unsupported('input', 'workers-ai', `with more than ${WORKERS_AI_MAX_EMBEDDING_INPUTS} items`);
      const model = workersAiModel(context.model);
      const size = model?.kind === 'embeddings' ? model.dimensions : null;
      if (request.dimensions !== null && request.dimensions !== size)
        throw unsupported(
          'dimensions',
          'workers-ai',
          `other than the model's own${size ? ` (${size})` : ''}`,
        );
      return { text: request.inputs };
    },
    decodeResponse(body, model, request): EmbeddingsResponse {
      const b = obj(body);
      const vectors = arr(b?.data).map((v) => arr(v).map((x) => num(x) ?? 0));
      if (!b || vectors.length === 0) throw badUpstream('an embeddings answer without data');
      if (vectors.length !== request.inputs.length)
        throw badUpstream(`${vectors.length} embeddings for ${request.inputs.length} inputs`);
      const stamp = readStamp(b[STAMP]);
      // The embedding models report no usage: the input is counted with the gateway's own estimate.
      const reported = num(obj(b.usage)?.prompt_tokens);
      const inputTokens = reported ?? request.inputs.reduce((sum, text) => sum + textTokens(text), 0);
      return { vectors, model: stamp.model || model, inputTokens };
    },
  },
};
