/**
 * The canonical chat exchange every codec translates to and from (pure types).
 * Translation is always codec A in, this, codec B out: a new wire format is one
 * new codec, never a branch per pair. It holds what the supported formats share;
 * a field one format has and this cannot carry is refused or dropped by the
 * codec that meets it, by the rules in docs/translation.md.
 */

export type ImageSource =
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'base64'; readonly mediaType: string; readonly data: string };

/**
 * A prompt-cache breakpoint after the part, tool or system block it is set on (Anthropic's
 * `cache_control`, Bedrock's `cachePoint`): the prefix up to it may be cached for `ttl`.
 */
export interface CacheMarker {
  readonly ttl: '5m' | '1h';
}

export interface TextPart {
  readonly type: 'text';
  readonly text: string;
  readonly cache?: CacheMarker;
}

export interface ImagePart {
  readonly type: 'image';
  readonly source: ImageSource;
  readonly cache?: CacheMarker;
}

/**
 * A document sent inline (Responses `input_file`, chat `file`, Anthropic `document`): its bytes as
 * base64 (plain text too, UTF-8), its media type and the client's file name. Files stored at the
 * provider (`file_id`) or fetched by URL have no canonical form and are refused (./files.ts).
 */
export interface FilePart {
  readonly type: 'file';
  readonly mediaType: string;
  readonly data: string;
  readonly filename: string | null;
  readonly cache?: CacheMarker;
}

/**
 * Who issued a reasoning signature or redacted reasoning: only a provider of that format can
 * verify it, so it is sent back to that format alone, byte for byte, and dropped elsewhere.
 */
export type ReasoningIssuer = 'anthropic' | 'gemini' | 'bedrock' | 'openai';

/**
 * The model's reasoning (Anthropic's `thinking` block, OpenAI-compatible `reasoning_content`,
 * Gemini's thought parts, Bedrock's `reasoningContent`). `text` may be '' (thinking whose
 * display was omitted, or a Gemini signature that stands alone); `signature` is the issuer's
 * opaque proof of the text, carried unchanged.
 */
export interface ReasoningPart {
  readonly type: 'reasoning';
  readonly text: string;
  readonly signature: string | null;
  readonly issuer: ReasoningIssuer | null;
}

/** Reasoning the provider returned encrypted (Anthropic's `redacted_thinking`): opaque, carried unchanged. */
export interface RedactedReasoningPart {
  readonly type: 'redacted_reasoning';
  readonly data: string;
  readonly issuer: ReasoningIssuer | null;
}

/** A call the assistant made; `arguments` is the JSON text of the call's input, as OpenAI carries it. */
export interface ToolCallPart {
  readonly type: 'tool_call';
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  readonly cache?: CacheMarker;
}

/** The caller's answer to a tool call. */
export interface ToolResultPart {
  readonly type: 'tool_result';
  readonly toolCallId: string;
  readonly content: readonly (TextPart | ImagePart)[];
  readonly isError: boolean;
  readonly cache?: CacheMarker;
}

export type Part =
  | TextPart
  | ImagePart
  | FilePart
  | ToolCallPart
  | ToolResultPart
  | ReasoningPart
  | RedactedReasoningPart;

/**
 * A turn. `system` turns are instructions given after the conversation began (OpenAI's later
 * system/developer messages, Anthropic's `role: "system"` messages); they hold text parts only.
 * Instructions before the first turn are the request's `system`.
 */
export interface Message {
  readonly role: 'user' | 'assistant' | 'system';
  readonly content: readonly Part[];
}

export interface Tool {
  readonly name: string;
  readonly description: string | null;
  /** JSON Schema of the tool's input. */
  readonly parameters: Record<string, unknown>;
  readonly cache?: CacheMarker;
}

export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/**
 * What the client asked of the model's reasoning. `mode`: 'on' (think: Anthropic `enabled` or
 * `adaptive`, an OpenAI effort above none), 'off' (Anthropic `disabled`, OpenAI `none`), or
 * 'default' (only an effort was given). `budgetTokens`: an explicit budget (Anthropic
 * `budget_tokens`), null when adaptive or unsaid. `display`: whether the reasoning text comes
 * back ('omitted': signatures only), null when unsaid.
 */
export interface Reasoning {
  readonly mode: 'on' | 'off' | 'default';
  readonly effort: ReasoningEffort | null;
  readonly budgetTokens: number | null;
  readonly display: 'summarized' | 'omitted' | null;
}

export type ToolChoice =
  | { readonly type: 'auto' }
  | { readonly type: 'none' }
  | { readonly type: 'required' }
  | { readonly type: 'tool'; readonly name: string };

export type ResponseFormat =
  | { readonly type: 'json_object' }
  | {
      readonly type: 'json_schema';
      readonly name: string;
      readonly schema: Record<string, unknown>;
      readonly strict: boolean;
    };

export interface ChatRequest {
  /**
   * The system prompt (OpenAI's leading system/developer messages, Anthropic's `system`) as text
   * blocks, each with its cache marker; empty when none.
   */
  readonly system: readonly TextPart[];
  readonly messages: readonly Message[];
  /** The client's cap on output tokens; the encoder fills a required one from its context. */
  readonly maxTokens: number | null;
  readonly temperature: number | null;
  readonly topP: number | null;
  readonly topK: number | null;
  readonly stop: readonly string[];
  readonly tools: readonly Tool[];
  readonly toolChoice: ToolChoice | null;
  /** false when the client forbade parallel tool calls; null when it did not say. */
  readonly parallelToolCalls: boolean | null;
  readonly responseFormat: ResponseFormat | null;
  /** Choices asked for (OpenAI's `n`). */
  readonly n: number;
  readonly stream: boolean;
  /** An end-user id for the provider's abuse monitoring (OpenAI `user`, Anthropic `metadata.user_id`). */
  readonly user: string | null;
  /** Reasoning asked for; null when the client said nothing. */
  readonly reasoning: Reasoning | null;
  /** OpenAI's `prompt_cache_key`: routes requests sharing a prefix to the same cache. */
  readonly promptCacheKey: string | null;
  /**
   * Fields the client sent that only tune the provider's behaviour and that the client's codec
   * dropped (docs/translation.md); the gateway names them in `x-edgeway-dropped`.
   */
  readonly dropped: readonly string[];
}

/**
 * Why generation stopped. `end`: a natural end; `stop_sequence`: one of the
 * request's stop sequences; `length`: the output cap; `tool_calls`: the model
 * called tools; `content_filter`: the provider refused or filtered.
 */
export type FinishReason = 'end' | 'stop_sequence' | 'length' | 'tool_calls' | 'content_filter';

/** Token counts. `input` counts every prompt token, cached or not (OpenAI's `prompt_tokens`). */
/**
 * Token counts in one convention, whatever the format reported: `input` is every prompt token, cached or
 * not (OpenAI's and Gemini's own count; Anthropic's and Bedrock's `input_tokens` leave the cache out and
 * are summed back), and `output` every generated token, reasoning included. The rest are parts of those.
 */
export interface TokenUsage {
  readonly input: number;
  readonly output: number;
  /** Prompt tokens read from the provider's prompt cache (part of `input`). */
  readonly cacheRead: number;
  /** Prompt tokens written to the provider's prompt cache, whatever their TTL (part of `input`; Anthropic, Bedrock). */
  readonly cacheWrite: number;
  /** The part of `cacheWrite` written with a 1-hour TTL (the rest has the default 5 minutes). */
  readonly cacheWrite1h: number;
  /** Reasoning (thinking) tokens, part of `output` and priced as output (OpenAI, Gemini). */
  readonly reasoning: number;
}

export type AnswerPart = TextPart | ToolCallPart | ReasoningPart | RedactedReasoningPart;

export interface ChatResponse {
  readonly id: string;
  readonly model: string;
  /** Epoch seconds. */
  readonly created: number;
  /** Reasoning, text and tool-call parts, in order. */
  readonly content: readonly AnswerPart[];
  readonly finish: FinishReason | null;
  /** The stop sequence that ended it, when the provider says which. */
  readonly stopSequence: string | null;
  readonly usage: TokenUsage | null;
}

/**
 * One step of a streamed answer. Decoders turn a format's events into these;
 * encoders turn these into a format's events. `index` numbers tool calls in
 * the order they began (0, 1, …), whatever the format calls its blocks.
 */
export type StreamEvent =
  | { readonly type: 'start'; readonly id: string; readonly model: string }
  | { readonly type: 'text'; readonly text: string }
  /** Reasoning text; a run of these (with its signature) is one reasoning part. */
  | { readonly type: 'reasoning'; readonly text: string }
  /** Ends the current reasoning part with its issuer's signature. */
  | { readonly type: 'reasoning_signature'; readonly signature: string; readonly issuer: ReasoningIssuer }
  | { readonly type: 'redacted_reasoning'; readonly data: string; readonly issuer: ReasoningIssuer }
  | { readonly type: 'tool_call'; readonly index: number; readonly id: string; readonly name: string }
  | { readonly type: 'tool_arguments'; readonly index: number; readonly arguments: string }
  | { readonly type: 'finish'; readonly reason: FinishReason; readonly stopSequence: string | null }
  /** Usage so far; a later one replaces an earlier one field by field (0s are not "unknown": absent fields are). */
  | { readonly type: 'usage'; readonly usage: Partial<TokenUsage> }
  | { readonly type: 'end' }
  | { readonly type: 'error'; readonly message: string; readonly errorType: string };

/** An embeddings request: OpenAI's `input` as a list of texts (token-array inputs are not translated). */
export interface EmbeddingsRequest {
  readonly inputs: readonly string[];
  readonly dimensions: number | null;
}

export interface EmbeddingsResponse {
  readonly vectors: readonly (readonly number[])[];
  readonly model: string;
  readonly inputTokens: number;
}

/** The provider's error, read from its body (status kept by the caller). */
export interface ProviderFault {
  readonly message: string | null;
  /** The provider's own error type or code word (e.g. `rate_limit_error`, `RESOURCE_EXHAUSTED`). */
  readonly type: string | null;
  /** The provider's own error code, where its format has one beside the type (OpenAI's `error.code`). */
  readonly code?: string | null;
}
