/**
 * The canonical requests the contract tests send through every upstream codec (../contracts/*.test.mjs):
 * each is one object, its request written as the fields that differ from a plain one-turn chat.
 * `refusedBy` names the formats whose codec must refuse the case with a 400 (it has no way to carry
 * it) instead of sending a body; every other described format's body must fit its provider's description
 * (Workers AI has no published description here, so it is not checked).
 * The Responses API's own corpus, requests as its clients write them, is ./responses-corpus.ts.
 */
import type { WireFormat } from '../../src/core/endpoints';
import { canonicalRequest } from '../gateway/codecs/fixtures/canonical';
import type {
  ChatRequest,
  EmbeddingsRequest,
  Message,
  Part,
  Reasoning,
  ReasoningEffort,
  TextPart,
} from '../../src/codecs/ir';

export interface ChatCase {
  readonly name: string;
  readonly request: ChatRequest;
  /** Formats whose codec refuses this request (a 400 naming the field), with why. */
  readonly refusedBy: Partial<Record<WireFormat, string>>;
  /**
   * Formats whose body carries reasoning signatures the mock never issued: it must refuse them with
   * a 400 naming the signature, as the providers do (the request itself must still fit the description).
   */
  readonly forgedFor?: readonly WireFormat[];
}

/** A plain request: every option unset (the codec tests' canonical request, without its turn). */
const PLAIN: ChatRequest = canonicalRequest({ messages: [] });

const text = (value: string): TextPart => ({ type: 'text', text: value });
const effort = (e: ReasoningEffort): Reasoning => ({
  mode: 'on',
  effort: e,
  budgetTokens: null,
  display: null,
});
const user = (...content: Part[]): Message => ({ role: 'user', content });
const assistant = (...content: Part[]): Message => ({ role: 'assistant', content });

/** One corpus case: a plain chat with `fields` changed. */
export function chatCase(
  name: string,
  fields: Partial<ChatRequest>,
  refusedBy: ChatCase['refusedBy'] = {},
  forgedFor: readonly WireFormat[] = [],
): ChatCase {
  return {
    name,
    request: { ...PLAIN, messages: [user(text('Hello there.'))], ...fields },
    refusedBy,
    forgedFor,
  };
}

export const WEATHER = {
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
    required: ['city'],
  },
};

const TOOL_TURNS: Message[] = [
  user(text('What is the weather in Paris?')),
  assistant(text('Let me look.'), {
    type: 'tool_call',
    id: 'call_1',
    name: 'get_weather',
    arguments: '{"city":"Paris"}',
  }),
  user({ type: 'tool_result', toolCallId: 'call_1', content: [text('18 C, clear')], isError: false }),
];

/** A 1×1 transparent PNG. */
export const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** A minimal PDF's bytes, base64. */
export const PDF = btoa('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF');

export const CHAT_CASES: readonly ChatCase[] = [
  chatCase('plain text', {}),
  chatCase('system prompt', { system: [text('You are terse.')] }),
  chatCase('multi-turn', {
    messages: [user(text('Hi.')), assistant(text('Hello! How can I help?')), user(text('Tell me a joke.'))],
  }),
  chatCase('output cap, temperature and top_p', { maxTokens: 64, temperature: 0.5, topP: 0.9 }),
  chatCase('top_k', { topK: 40 }, { openai: 'OpenAI has no top_k', responses: 'OpenAI has no top_k' }),
  chatCase('stop sequences', { stop: ['END', '###'] }, { responses: 'the Responses API has no stop' }),
  chatCase('stream', { stream: true, maxTokens: 32 }),
  chatCase('end-user id', { user: 'user-1234' }),
  chatCase('tools offered, automatic choice', { tools: [WEATHER], toolChoice: { type: 'auto' } }),
  chatCase('tool forced by name', { tools: [WEATHER], toolChoice: { type: 'tool', name: 'get_weather' } }),
  chatCase('tool required', { tools: [WEATHER], toolChoice: { type: 'required' } }),
  chatCase('parallel tool calls forbidden', { tools: [WEATHER], parallelToolCalls: false }),
  chatCase('tool call and its result', { tools: [WEATHER], messages: TOOL_TURNS }),
  chatCase('tool result marked as an error', {
    tools: [WEATHER],
    messages: [
      ...TOOL_TURNS.slice(0, 2),
      user({ type: 'tool_result', toolCallId: 'call_1', content: [text('city unknown')], isError: true }),
    ],
  }),
  chatCase('image inline (base64)', {
    messages: [
      user(text('What is this?'), {
        type: 'image',
        source: { kind: 'base64', mediaType: 'image/png', data: PNG },
      }),
    ],
  }),
  chatCase(
    'image by URL',
    {
      messages: [
        user(text('What is this?'), {
          type: 'image',
          source: { kind: 'url', url: 'https://example.com/a.png' },
        }),
      ],
    },
    { gemini: 'Gemini takes images inline only', bedrock: 'Converse takes images as bytes only' },
  ),
  chatCase('files inline: a PDF and plain text', {
    messages: [
      user(
        text('Compare these.'),
        { type: 'file', mediaType: 'application/pdf', data: PDF, filename: 'report.pdf' },
        { type: 'file', mediaType: 'text/plain', data: btoa('Plain notes.'), filename: null },
      ),
    ],
  }),
  chatCase('JSON mode', { responseFormat: { type: 'json_object' } }),
  chatCase('structured output (json_schema)', {
    responseFormat: {
      type: 'json_schema',
      name: 'answer',
      schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
      strict: true,
    },
  }),
  chatCase('reasoning by effort', { maxTokens: 4096, reasoning: effort('high') }),
  chatCase('reasoning by budget, its text omitted', {
    maxTokens: 4096,
    reasoning: { mode: 'on', effort: null, budgetTokens: 2048, display: 'omitted' },
  }),
  chatCase('reasoning off', { reasoning: { mode: 'off', effort: null, budgetTokens: null, display: null } }),
  chatCase(
    'signed reasoning of every issuer in the history, before a tool call (signatures the mock never issued)',
    {
      maxTokens: 4096,
      reasoning: effort('medium'),
      tools: [WEATHER],
      messages: [
        user(text('Weather in Oslo?')),
        assistant(
          {
            type: 'reasoning',
            text: 'Anthropic thought.',
            signature: 'EqQBCkYIBxgCKkA=',
            issuer: 'anthropic',
          },
          { type: 'reasoning', text: '', signature: 'CiQBdGhvdWdodA==', issuer: 'gemini' },
          { type: 'reasoning', text: 'Bedrock thought.', signature: 'c2lnbmF0dXJl', issuer: 'bedrock' },
          { type: 'redacted_reasoning', data: 'cmVkYWN0ZWQ=', issuer: 'anthropic' },
          { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        ),
        user({
          type: 'tool_result',
          toolCallId: 'call_1',
          content: [text('Sunny, 21 C.')],
          isError: false,
        }),
      ],
    },
    {},
    ['anthropic', 'gemini', 'bedrock'],
  ),
  chatCase('prompt-cache breakpoints (5 minutes and 1 hour) on system, tools, text and a tool result', {
    system: [text('You are terse.'), { type: 'text', text: 'Long shared context.', cache: { ttl: '1h' } }],
    tools: [{ ...WEATHER, cache: { ttl: '5m' } }],
    messages: [
      user({ type: 'text', text: 'Weather in Oslo?', cache: { ttl: '5m' } }),
      assistant({ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }),
      user({
        type: 'tool_result',
        toolCallId: 'call_1',
        content: [text('Sunny, 21 C.')],
        isError: false,
        cache: { ttl: '5m' },
      }),
    ],
  }),
  chatCase('a system turn mid-conversation', {
    messages: [
      user(text('Hi.')),
      assistant(text('Hello!')),
      { role: 'system', content: [text('From now on answer in French.')] },
      user(text('How are you?')),
    ],
  }),
  chatCase('prompt cache key', { promptCacheKey: 'tenant-42-session-7' }),
  chatCase(
    'several choices (n)',
    { n: 2 },
    {
      anthropic: 'one answer per call',
      bedrock: 'one answer per call',
      responses: 'one answer per call',
      gemini: 'one candidate per call',
    },
  ),
];

export interface EmbeddingsCase {
  readonly name: string;
  readonly request: EmbeddingsRequest;
}

export const EMBEDDINGS_CASES: readonly EmbeddingsCase[] = [
  { name: 'one text', request: { inputs: ['The food was delicious.'], dimensions: null } },
  {
    name: 'several texts, reduced dimensions',
    request: { inputs: ['one', 'two', 'three'], dimensions: 256 },
  },
];
