/**
 * The codec contract: one codec per wire format. A client codec reads what a
 * client sent and writes what it gets back (OpenAI's and Anthropic's, our two
 * public APIs), and owns everything else the stages need to know about its
 * format: pass-through bodies, usage, the error envelope, stream observers,
 * assembly and replay for the cache, and the texts guardrails read. An upstream
 * codec writes what a provider is sent and reads what it answers (every format
 * we reach). Translation is client codec in, the canonical exchange (./ir.ts),
 * upstream codec out, and back. Codecs are pure: no I/O, no clock beyond what
 * they are given. What a new format must provide: ./README.md.
 */
import type { ClientFormat, Endpoint, WireFormat } from '../core/endpoints';
import type { ErrorEnvelope } from '../core/errors';
import type { ProxyRequest } from '../core/request';
import type { Usage } from '../core/usage';
import type { SseEvent } from '../sse/framer';
import type { ChunkListener, EventRewriter, RewrittenEvent, StreamObserver } from '../sse/observer';
import type {
  ChatRequest,
  ChatResponse,
  EmbeddingsRequest,
  EmbeddingsResponse,
  ProviderFault,
  StreamEvent,
} from './ir';
import type { Json } from './json';
import type { TextSlot } from './slots';

/** One server-sent event to write: its `event:` name (or none) and its data (JSON, or OpenAI's `[DONE]`). */
export interface Frame {
  readonly event: string | null;
  readonly data: Record<string, unknown> | '[DONE]';
  /**
   * Set on the frame that ends the stream: `verbatim` when it carries no answer text (Chat's `[DONE]`,
   * Messages' `message_stop`), `repeats` when it repeats the whole answer (the Responses API's
   * `response.completed`), so the guardrails rewrite it like any other event after releasing what they held.
   */
  readonly ends?: 'verbatim' | 'repeats';
}

/** What an upstream codec needs to know beyond the request. */
export interface EncodeContext {
  /** The provider's own model id (the part after `provider/`). */
  readonly model: string;
  readonly providerId: string;
  /**
   * The output cap to send when the request set none: the one the limits stage
   * reserved (key or tenant cap, or LIMITS_DEFAULT_MAX_TOKENS), so the provider
   * never produces more than was reserved. Formats that require a cap always send one.
   */
  readonly outputCap: number;
  /** Whether to send `outputCap` when the request set none and the format does not require it. */
  readonly enforceCap: boolean;
  /**
   * Where the encoder names what it left out because the provider cannot take it and it only
   * tunes the provider (cache breakpoints, a reasoning request the model cannot honour): the
   * gateway reports these in `x-edgeway-dropped` (docs/translation.md).
   */
  readonly dropped: string[];
}

/** Turns a format's stream events into canonical ones; stateful, one per stream. */
export interface StreamDecoder {
  decode(event: SseEvent): readonly StreamEvent[] | 'malformed';
}

/** Turns canonical stream events into a format's frames; stateful, one per stream. */
export interface StreamEncoder {
  encode(event: StreamEvent): readonly Frame[];
  /** The frame that tells this format's client the stream failed. */
  errorFrame(message: string, code: string): Frame;
}

/**
 * A format's token-counting API (Anthropic's count_tokens, Gemini's countTokens, Bedrock's CountTokens):
 * free calls that answer how many input tokens a request would be billed.
 */
export interface CountTokensCodec {
  /** The counting URL beside the URL the provider's adapter prepared for a non-streaming chat call. */
  url(chatUrl: string): string;
  /** The counting body for the canonical request (`context.model`: the provider's own id). */
  encodeRequest(request: ChatRequest, context: EncodeContext): Record<string, unknown>;
  /** The input-token count of a counting answer; throws a 502 GatewayError when it holds none. */
  decodeResponse(body: unknown): number;
}

export interface UpstreamCodec {
  readonly format: WireFormat;
  /** The provider's body; throws a 400 GatewayError naming a field the format cannot honour. */
  encodeRequest(request: ChatRequest, context: EncodeContext): Record<string, unknown>;
  /** Reads a complete answer; throws a 502 GatewayError when it is not one. */
  decodeResponse(body: unknown): ChatResponse;
  streamDecoder(): StreamDecoder;
  /** The provider's error body (already parsed; null when it was not JSON). */
  decodeError(body: unknown, headers: Headers): ProviderFault;
  readonly embeddings?: {
    encodeRequest(request: EmbeddingsRequest, context: EncodeContext): Record<string, unknown>;
    /** `request` is what was asked, for formats that report no token count (the gateway then estimates it). */
    decodeResponse(body: unknown, model: string, request: EmbeddingsRequest): EmbeddingsResponse;
  };
  /** Where the format has a token-counting API; without one, /v1/messages/count_tokens estimates. */
  readonly countTokens?: CountTokensCodec;
}

/** What a same-format provider's body needs beyond the client's own. */
export interface PassThroughOptions {
  /** The provider's own model id (the part after `provider/`). */
  readonly upstreamModel: string;
  readonly providerId: string;
  /** The output cap to add when the request set none (see EncodeContext.outputCap); absent for none. */
  readonly outputCap?: number;
}

/** What a same-format stream's observer is told; each format uses what applies to it. */
export interface ObserverOptions {
  /** Drop the usage chunk the gateway asked for, which the client did not (OpenAI). */
  readonly stripUsage: boolean;
  /** Called with every parsed event, e.g. to assemble the whole answer for the cache. */
  readonly onChunk?: ChunkListener | undefined;
  /** Characters of delivered content to keep for payload logging. */
  readonly capture?: number;
  /** The guardrails' rewriter, applied to each parsed event before it is counted and relayed. */
  readonly rewriter?: EventRewriter | undefined;
}

/** Rebuilds the complete JSON answer from a stream's parsed events (for the cache); one per stream. */
export interface Assembler {
  push(chunk: Json, event: string | null): void;
  /** The complete response object, or null when the stream never said what it was. */
  result(): Json | null;
}

/** Passes a delta of the text keyed `key` through its guardrail transform: what is safe to relay now. */
export type TextThrough = (key: string, text: string) => string;
/** Ends the text keyed `key`: what its transform still held ('' when none). */
export type TextFlush = (key: string) => string;

/** Finds the texts in a format's stream events and routes them through the guardrails' transforms. */
export interface TextRewriter {
  rewrite(data: Json, event: string | null): RewrittenEvent[];
  /** Events that flush the texts still open (`open`: their keys) before the terminator. */
  finish(open: string[]): RewrittenEvent[];
}

/**
 * What a client codec may need beyond the canonical answer to write it: the request it answers.
 * Formats whose answers echo the request (the Responses API repeats its instructions, tools and
 * settings, and names each response by id) read it; the others ignore it.
 */
export interface AnswerContext {
  /** The canonical request the answer is for. */
  readonly request: ChatRequest;
  /** The client's validated body, as it sent it (after the gateway expanded any stored conversation). */
  readonly body: Record<string, unknown>;
  /** The id this answer is known by to the client (the Responses API's `resp_…`): minted by the gateway. */
  readonly responseId: string;
}

/** A format our public API speaks. The stages ask it; they never branch on the format themselves. */
export interface ClientCodec {
  readonly format: ClientFormat;
  /** The client's validated body; throws a 400 GatewayError naming a field with no canonical equivalent. */
  decodeRequest(body: Record<string, unknown>): ChatRequest;
  /** The answer in this format; `context` is given by the gateway, and may be absent in tests. */
  encodeResponse(response: ChatResponse, context?: AnswerContext): Record<string, unknown>;
  streamEncoder(options: { readonly includeUsage: boolean; readonly context?: AnswerContext }): StreamEncoder;
  readonly embeddings?: {
    decodeRequest(body: Record<string, unknown>): EmbeddingsRequest;
    encodeResponse(response: EmbeddingsResponse): Record<string, unknown>;
  };
  /** This format's clients may send their key as `x-api-key` (Anthropic's SDKs do), besides `Authorization: Bearer`. */
  readonly acceptsApiKeyHeader: boolean;
  /** The body for a provider that speaks this format itself: the client's, with what the gateway adds. */
  passThroughBody(request: ProxyRequest, options: PassThroughOptions): string;
  /** Usage in a complete body (or one stream chunk); null when it carries none. */
  usage(body: unknown): Usage | null;
  /** The gateway's errors in this format's envelope. */
  readonly errorBody: ErrorEnvelope;
  /** A same-format provider's own error type is this envelope's `error.type`, and is relayed as such. */
  readonly relaysErrorType: boolean;
  /** The observer of a same-format stream, each event parsed. */
  observer(options: ObserverOptions): StreamObserver;
  /**
   * The fast path for a same-format stream that nothing rewrites, captures or assembles:
   * the same verdicts, with most events read from their bytes (src/sse/byte-observer.ts).
   */
  byteObserver(options: { readonly stripUsage: boolean }): StreamObserver;
  assembler(): Assembler;
  /** A complete answer (as cached) replayed as this format's SSE stream, terminator included. */
  replay(body: Json, includeUsage: boolean): string;
  /** The texts of a request body the guardrails read and may rewrite in place, in document order. */
  requestSlots(endpoint: Endpoint, body: Json): TextSlot[];
  /** The texts of a complete answer (a JSON body or a cache entry). */
  answerSlots(body: Json): TextSlot[];
  /** The guardrails' rewriter of this format's stream events, over per-text transforms. */
  textRewriter(through: TextThrough, flush: TextFlush): TextRewriter;
}
