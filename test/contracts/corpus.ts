/**
 * The canonical requests the contract tests send through every upstream codec (../contracts/*.test.mjs):
 * each is one object, its request written as the fields that differ from a plain one-turn chat.
 * `refusedBy` names the formats whose codec must refuse the case with a 400 (it has no way to carry
 * it) instead of sending a body; every other described format's body must fit its provider's description
 * (Workers AI has no published description here, so it is not checked).
 *
 * Beside them, RESPONSES_CASES: requests as a client sends them to `POST /v1/responses`, read by the
 * Responses client codec, then sent to every upstream format (translated) or passed through to a
 * Responses upstream, and answered back in the Responses format.
 */
import type { WireFormat } from '../../src/core/endpoints';
import { canonicalRequest } from '../gateway/codecs/fixtures/canonical';
import CODEX_REQUEST from '../gateway/codecs/fixtures/codex-request.json';
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

const WEATHER = {
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
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

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
  chatCase(
    'parallel tool calls forbidden',
    { tools: [WEATHER], parallelToolCalls: false },
    {
      bedrock: 'Converse cannot forbid parallel tool calls',
    },
  ),
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

/**
 * A Responses API request as a client sends it to `POST /v1/responses`, read by the Responses
 * client codec; `refusedBy` as in ChatCase, for the upstream formats it is translated to.
 */
export interface ResponsesCase {
  readonly name: string;
  readonly body: Record<string, unknown>;
  readonly refusedBy: Partial<Record<WireFormat, string>>;
  /** As in ChatCase: formats whose body carries reasoning the mock never sealed or signed, which it must refuse. */
  readonly forgedFor: readonly WireFormat[];
}

/** One Responses case: `fields` over a plain one-turn request (the model is the client's alias). */
function responsesCase(
  name: string,
  fields: Record<string, unknown>,
  refusedBy: ResponsesCase['refusedBy'] = {},
  forgedFor: readonly WireFormat[] = [],
): ResponsesCase {
  return { name, body: { model: 'contract-model', input: 'Hello there.', ...fields }, refusedBy, forgedFor };
}

const WEATHER_FUNCTION = { type: 'function', ...WEATHER, strict: false };
const PATCH_TOOL = {
  type: 'custom',
  name: 'apply_patch',
  description: 'Apply a patch to the working tree.',
  format: { type: 'grammar', syntax: 'lark', definition: 'start: /[^\\n]+(\\n[^\\n]+)*/' },
};
const ASK_WEATHER = { role: 'user', content: 'What is the weather in Paris?' };
const WEATHER_CALL = {
  type: 'function_call',
  call_id: 'call_1',
  name: 'get_weather',
  arguments: '{"city":"Paris"}',
};
const WEATHER_OUTPUT = { type: 'function_call_output', call_id: 'call_1', output: '18 C, clear' };
/**
 * A reasoning item as an earlier answer returned it, its encrypted content in OpenAI's form but not
 * sealed by the mock: passed through to a Responses upstream, it must be refused as OpenAI refuses it.
 */
const REASONING_ITEM = {
  type: 'reasoning',
  id: 'rs_1',
  summary: [{ type: 'summary_text', text: 'The user wants the weather; call the tool.' }],
  encrypted_content: 'gAAAAABoContractEncryptedReasoning==',
};

/** `value` without the member `key`. */
const without = (value: object, key: string): Record<string, unknown> =>
  Object.fromEntries(Object.entries(value).filter(([name]) => name !== key));

/**
 * Codex CLI's request as the codec tests hold it, less the two fields of Codex's own that openai's
 * types do not describe (`client_metadata`, web_search's `external_web_access`): the gateway passes
 * them through untouched, so they tell nothing about our codecs.
 */
const CODEX = {
  ...without(CODEX_REQUEST, 'client_metadata'),
  tools: CODEX_REQUEST.tools.map((tool) => without(tool, 'external_web_access')),
};

export const RESPONSES_CASES: readonly ResponsesCase[] = [
  responsesCase("Codex CLI's own request (its tools, namespace and web_search among them; streamed)", CODEX, {
    bedrock: 'Converse cannot forbid parallel tool calls, and Codex sends parallel_tool_calls: false',
  }),
  responsesCase('string input', {}),
  responsesCase('string input, streamed', { stream: true }),
  responsesCase('instructions, sampling and an output cap', {
    instructions: 'You are terse.',
    input: 'Tell me a joke.',
    max_output_tokens: 64,
    temperature: 0.5,
    top_p: 0.9,
  }),
  responsesCase('message items: developer, user parts with an image, an earlier answer', {
    input: [
      { role: 'developer', content: 'Answer in French.' },
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'What is this?' },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
        ],
      },
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Un pixel.', annotations: [] }],
      },
      { role: 'user', content: 'And now?' },
    ],
  }),
  responsesCase('a function call and its output', {
    tools: [WEATHER_FUNCTION],
    tool_choice: 'auto',
    parallel_tool_calls: true,
    input: [ASK_WEATHER, WEATHER_CALL, WEATHER_OUTPUT],
  }),
  responsesCase('a function tool forced by name, streamed', {
    tools: [WEATHER_FUNCTION],
    tool_choice: { type: 'function', name: 'get_weather' },
    input: [ASK_WEATHER],
    stream: true,
  }),
  responsesCase('a function tool required', {
    tools: [WEATHER_FUNCTION],
    tool_choice: 'required',
    input: [ASK_WEATHER],
  }),
  responsesCase(
    'a reasoning item replayed before a function call, encrypted content asked for',
    {
      tools: [WEATHER_FUNCTION],
      reasoning: { effort: 'medium', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      store: false,
      input: [ASK_WEATHER, REASONING_ITEM, WEATHER_CALL, WEATHER_OUTPUT],
    },
    {},
    ['responses'],
  ),
  responsesCase('reasoning summarised', {
    reasoning: { effort: 'low', summary: 'auto' },
    input: 'Think it over: is 91 prime?',
  }),
  responsesCase('reasoning summarised, streamed', {
    reasoning: { effort: 'low', summary: 'detailed' },
    input: 'Think it over: is 91 prime?',
    stream: true,
  }),
  responsesCase('reasoning off', { reasoning: { effort: 'none' } }),
  // The reasoning uses up the cap where the model reasons (the mock's Responses API, Gemini): incomplete.
  responsesCase('an answer cut short by max_output_tokens', {
    max_output_tokens: 16,
    reasoning: { effort: 'low' },
  }),
  responsesCase('an answer cut short by max_output_tokens, streamed', {
    max_output_tokens: 16,
    reasoning: { effort: 'low' },
    stream: true,
  }),
  responsesCase('a custom tool forced', {
    tools: [PATCH_TOOL],
    tool_choice: { type: 'custom', name: 'apply_patch' },
    input: 'Add a README.',
  }),
  responsesCase('a custom tool forced, streamed', {
    tools: [PATCH_TOOL],
    tool_choice: { type: 'custom', name: 'apply_patch' },
    input: 'Add a README.',
    stream: true,
  }),
  responsesCase('a custom tool call and its output', {
    tools: [PATCH_TOOL, WEATHER_FUNCTION],
    input: [
      { role: 'user', content: 'Add a README.' },
      { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: '*** Add File: README.md' },
      { type: 'custom_tool_call_output', call_id: 'call_2', output: 'Done.' },
    ],
  }),
  responsesCase('structured output (text.format json_schema)', {
    text: {
      format: {
        type: 'json_schema',
        name: 'answer',
        schema: {
          type: 'object',
          properties: { answer: { type: 'string' } },
          required: ['answer'],
          additionalProperties: false,
        },
        strict: true,
      },
    },
  }),
  responsesCase('structured output (text.format json_schema), streamed', {
    text: {
      format: {
        type: 'json_schema',
        name: 'answer',
        schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
      },
    },
    stream: true,
  }),
  responsesCase('JSON mode (text.format json_object)', {
    text: { format: { type: 'json_object' } },
    input: 'Reply in JSON.',
  }),
  responsesCase('prompt cache key, safety identifier and metadata', {
    prompt_cache_key: 'tenant-42-session-7',
    safety_identifier: 'user-1234',
    metadata: { ticket: 'T-1' },
  }),
  responsesCase(
    'hosted tools beside function tools, a reasoning summary without an effort, streamed',
    {
      instructions: 'You are a coding agent.',
      input: [
        {
          type: 'message',
          role: 'developer',
          content: [{ type: 'input_text', text: 'Sandbox: read-only.' }],
        },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List the files.' }] },
      ],
      tools: [
        {
          type: 'function',
          name: 'shell',
          description: 'Runs a shell command.',
          parameters: {
            type: 'object',
            properties: { command: { type: 'array', items: { type: 'string' } } },
            required: ['command'],
            additionalProperties: false,
          },
          strict: false,
        },
        { type: 'web_search' },
        {
          type: 'namespace',
          name: 'mcp__docs',
          description: 'Documentation tools.',
          tools: [{ type: 'function', name: 'search', parameters: { type: 'object', properties: {} } }],
        },
      ],
      tool_choice: 'auto',
      parallel_tool_calls: false,
      reasoning: { summary: 'auto' },
      store: false,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: 'codex-session-1',
      stream: true,
    },
    { bedrock: 'Converse cannot forbid parallel tool calls, and Codex sends parallel_tool_calls: false' },
  ),
];

/**
 * A tool turn with reasoning, its encrypted content asked for: the mock calls the tool (the scripted
 * `TOOL` line) after reasoning, and the answer's output items go back as the next turn's input.
 */
export const RESPONSES_TOOL_TURN: Record<string, unknown> & { readonly input: readonly unknown[] } = {
  model: 'contract-model',
  tools: [WEATHER_FUNCTION],
  reasoning: { effort: 'low', summary: 'auto' },
  include: ['reasoning.encrypted_content'],
  store: false,
  input: [{ role: 'user', content: 'What is the weather in Paris?\nTOOL get_weather {"city":"Paris"}' }],
};
