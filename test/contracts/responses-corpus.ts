/**
 * The Responses API's corpus (../contracts/responses.test.mjs): requests as a client sends them to
 * `POST /v1/responses`, read by the Responses client codec, then translated to every upstream format
 * or passed through to a Responses upstream, and answered back in the Responses format. Each case is
 * the client's body, written as the fields that differ from a plain one-turn request; `refusedBy` and
 * `forgedFor` as in ./corpus.ts.
 */
import type { WireFormat } from '../../src/core/endpoints';
import CODEX_REQUEST from '../gateway/codecs/fixtures/codex-request.json';
import { PDF, PNG, WEATHER } from './corpus';

/** A request to `POST /v1/responses`; `refusedBy` as in ChatCase, for the formats it is translated to. */
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
  responsesCase("Codex CLI's own request (its tools, namespace and web_search among them; streamed)", CODEX),
  responsesCase('string input', {}),
  responsesCase('string input, streamed', { stream: true }),
  responsesCase('instructions, sampling and an output cap', {
    instructions: 'You are terse.',
    input: 'Tell me a joke.',
    max_output_tokens: 64,
    temperature: 0.5,
    top_p: 0.9,
  }),
  responsesCase('a user message with an inline PDF (input_file)', {
    input: [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Summarise this report.' },
          { type: 'input_file', file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' },
        ],
      },
    ],
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
  responsesCase('hosted tools beside function tools, a reasoning summary without an effort, streamed', {
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
  }),
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
