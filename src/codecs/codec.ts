/**
 * The codec contract: one codec per wire format. A client codec reads what a
 * client sent and writes what it gets back (OpenAI's and Anthropic's, our two
 * public APIs); an upstream codec writes what a provider is sent and reads what
 * it answers (every format we reach). Translation is client codec in, the
 * canonical exchange (./ir.ts), upstream codec out, and back. Codecs are pure:
 * no I/O, no clock beyond what they are given.
 */
import type { WireFormat } from '../core/endpoints';
import type { SseEvent } from '../sse/framer';
import type {
  ChatRequest,
  ChatResponse,
  EmbeddingsRequest,
  EmbeddingsResponse,
  ProviderFault,
  StreamEvent,
} from './ir';

/** One server-sent event to write: its `event:` name (or none) and its data (JSON, or OpenAI's `[DONE]`). */
export interface Frame {
  readonly event: string | null;
  readonly data: Record<string, unknown> | '[DONE]';
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
}

export interface ClientCodec {
  readonly format: WireFormat;
  /** The client's validated body; throws a 400 GatewayError naming a field with no canonical equivalent. */
  decodeRequest(body: Record<string, unknown>): ChatRequest;
  encodeResponse(response: ChatResponse): Record<string, unknown>;
  streamEncoder(options: { readonly includeUsage: boolean }): StreamEncoder;
  readonly embeddings?: {
    decodeRequest(body: Record<string, unknown>): EmbeddingsRequest;
    encodeResponse(response: EmbeddingsResponse): Record<string, unknown>;
  };
}
