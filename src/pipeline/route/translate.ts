/**
 * Stage 5's codec step: the body the provider is sent, and, when the client's
 * format is not the provider's, the translation of its answer. Same-format
 * requests pass through as they came (the client codec's passThroughBody); any other is
 * decoded by the client's codec and encoded by the provider's, before limits
 * and cache, so a field that cannot be carried is a 400 that reserved nothing.
 * Translated answers are decoded by the provider's codec and encoded by the
 * client's: JSON at once, streams event by event (src/codecs/translate-stream.ts).
 */
import type { AnswerContext, EncodeContext, StreamDecoder } from '../../codecs/codec';
import { CLIENT_CODECS, sameFormat, UPSTREAM_CODECS } from '../../codecs/index';
import { translatingObserver } from '../../codecs/translate-stream';
import { gatewayUsage } from '../../codecs/usage';
import { type ClientFormat, ENDPOINTS } from '../../core/endpoints';
import type { ProxyRequest } from '../../core/request';
import { plainUsage, type Usage } from '../../core/usage';
import type { UpstreamTarget } from '../../providers/types';
import type { ChunkListener, EventRewriter, StreamObserver } from '../../sse/observer';

/** How a translated answer reaches the client. */
export interface AnswerTranslation {
  /** A complete JSON answer in the client's format, and its usage. */
  json(parsed: unknown): { body: Record<string, unknown>; usage: Usage | null };
  streamObserver(options: {
    onChunk?: ChunkListener;
    capture: number;
    rewriter?: EventRewriter | undefined;
  }): StreamObserver;
}

export interface Outbound {
  /** The body sent to the provider. */
  readonly body: string;
  /** Null when the provider speaks the client's format. */
  readonly translation: AnswerTranslation | null;
  /** What the client sent that the translation left out (docs/translation.md): named in x-edgeway-dropped. */
  readonly dropped: readonly string[];
}

const NOTHING: readonly string[] = [];

/**
 * `responseId`: the id a translated answer is known by to a client whose format names answers (the
 * Responses API's `resp_…`), minted by the gateway from the request's id.
 */
export function outbound(
  request: ProxyRequest,
  target: UpstreamTarget,
  context: EncodeContext,
  responseId: string,
): Outbound {
  const clientFormat: ClientFormat = ENDPOINTS[request.endpoint].format;
  const client = CLIENT_CODECS[clientFormat];
  if (sameFormat(target.format, clientFormat)) {
    const outputCap = context.enforceCap && request.maxOutputTokens === null ? context.outputCap : undefined;
    return {
      body: client.passThroughBody(request, {
        upstreamModel: context.model,
        providerId: context.providerId,
        outputCap,
      }),
      translation: null,
      dropped: NOTHING,
    };
  }
  const upstream = UPSTREAM_CODECS[target.format];
  if (request.endpoint === 'embeddings') {
    const embedClient = client.embeddings;
    const embedUpstream = upstream.embeddings;
    if (!embedClient || !embedUpstream) throw new Error(`no embeddings codec for ${target.format}`);
    const canonical = embedClient.decodeRequest(request.body);
    return {
      body: JSON.stringify(embedUpstream.encodeRequest(canonical, context)),
      dropped: NOTHING,
      translation: {
        json(parsed) {
          const answer = embedUpstream.decodeResponse(parsed, context.model, canonical);
          const usage = plainUsage(answer.inputTokens, 0);
          return { body: embedClient.encodeResponse(answer), usage };
        },
        streamObserver: () => {
          throw new Error('embeddings do not stream');
        },
      },
    };
  }
  const canonical = client.decodeRequest(request.body);
  const body = JSON.stringify(upstream.encodeRequest(canonical, context));
  const answerContext: AnswerContext = { request: canonical, body: request.body, responseId };
  return {
    body,
    dropped: [...new Set([...canonical.dropped, ...context.dropped])],
    translation: {
      json(parsed) {
        const decoded = upstream.decodeResponse(parsed);
        // Some formats never name the model in their answer (Bedrock): the one called is named instead.
        const answer = decoded.model ? decoded : { ...decoded, model: context.model };
        return {
          body: client.encodeResponse(answer, answerContext),
          usage: answer.usage ? gatewayUsage(answer.usage) : null,
        };
      },
      streamObserver: ({ onChunk, capture, rewriter }) =>
        translatingObserver({
          decoder: namingModel(upstream.streamDecoder(), context.model),
          encoder: client.streamEncoder({ includeUsage: request.clientWantsUsage, context: answerContext }),
          onChunk,
          capture,
          rewriter,
        }),
    },
  };
}

/** A decoder whose start event names `model` when the format's stream does not. */
function namingModel(decoder: StreamDecoder, model: string): StreamDecoder {
  return {
    decode(event) {
      const events = decoder.decode(event);
      if (events === 'malformed' || !events.some((e) => e.type === 'start' && e.model === '')) return events;
      return events.map((e) => (e.type === 'start' && e.model === '' ? { ...e, model } : e));
    },
  };
}
