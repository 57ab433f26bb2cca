/**
 * A recorded-style OpenAI Responses stream (written from the published event types in
 * node_modules/openai/resources/responses/responses.d.ts, in the order OpenAI sends them): created,
 * in_progress, a reasoning item with summary deltas and encrypted content, a message with output text
 * deltas, a function call with argument deltas, and response.completed with the whole response and
 * usage (cached and reasoning tokens). Each event is `event: <type>` plus its data, as OpenAI sends it.
 */
export const RESPONSE_ID = 'resp_68c1f2a04e7c8190b5d2b0a9c3e1f6d70a1b2c3d4e5f6a7b';
const REASONING_ID = 'rs_68c1f2a1b6d48190a2f3c4d5e6f7a8b90a1b2c3d4e5f6a7b';
const MESSAGE_ID = 'msg_68c1f2a3c7e08190b1a2c3d4e5f6a7b80a1b2c3d4e5f6a7b';
const CALL_ITEM_ID = 'fc_68c1f2a4d8f18190c2b3d4e5f6a7b8c90a1b2c3d4e5f6a7b';

export const SUMMARY = [
  '**Checking the weather**\n\nThe user asks',
  ' about Paris; I should call get_weather.',
];
export const TEXT = ['Let me check', ' the weather in', ' Paris for you.'];
export const ARGUMENTS = ['{"city":', '"Paris"}'];
export const ENCRYPTED = 'gAAAAABowfKhQ3vR2m9XkT1pL8sYw0ZcN5uJbE7aVtF4oHq6iD-rsGx==';

const reasoning = {
  id: REASONING_ID,
  type: 'reasoning',
  summary: [{ type: 'summary_text', text: SUMMARY.join('') }],
  encrypted_content: ENCRYPTED,
};
const messageOf = (text: string) => ({
  id: MESSAGE_ID,
  type: 'message',
  status: 'completed',
  content: [{ type: 'output_text', annotations: [], logprobs: [], text }],
  role: 'assistant',
});
const callOf = (args: string) => ({
  id: CALL_ITEM_ID,
  type: 'function_call',
  status: 'completed',
  arguments: args,
  call_id: 'call_Qx7mB2vN9kL4pR1sT8wY3zA6',
  name: 'get_weather',
});

export const USAGE = {
  input_tokens: 312,
  input_tokens_details: { cached_tokens: 128 },
  output_tokens: 94,
  output_tokens_details: { reasoning_tokens: 64 },
  total_tokens: 406,
};

const inProgress = {
  id: RESPONSE_ID,
  object: 'response',
  created_at: 1757541024,
  status: 'in_progress',
  background: false,
  error: null,
  incomplete_details: null,
  instructions: 'You are a terse assistant.',
  max_output_tokens: null,
  max_tool_calls: null,
  model: 'gpt-5-2025-08-07',
  output: [],
  parallel_tool_calls: true,
  previous_response_id: null,
  prompt_cache_key: null,
  reasoning: { effort: 'medium', summary: 'auto' },
  safety_identifier: null,
  service_tier: 'auto',
  store: false,
  temperature: 1,
  text: { format: { type: 'text' }, verbosity: 'medium' },
  tool_choice: 'auto',
  tools: [
    {
      type: 'function',
      description: 'The current weather in a city.',
      name: 'get_weather',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      },
      strict: true,
    },
  ],
  top_logprobs: 0,
  top_p: 1,
  truncation: 'disabled',
  usage: null,
  user: null,
  metadata: {},
};

/** The whole response, as response.completed carries it, for the given message text and call arguments. */
export const completedWith = (text: string, args: string) => ({
  ...inProgress,
  status: 'completed',
  completed_at: 1757541031,
  output: [reasoning, messageOf(text), callOf(args)],
  usage: USAGE,
});
export const COMPLETED = completedWith(TEXT.join(''), ARGUMENTS.join(''));

const at = (item_id: string, output_index: number) => ({ item_id, output_index });
const summary = { ...at(REASONING_ID, 0), summary_index: 0 };
const part = { ...at(MESSAGE_ID, 1), content_index: 0 };

/** The events' data in order, each with its `type` and without its sequence number (added below). */
const eventsWith = (text: string[], args: string[]): Record<string, unknown>[] => {
  const message = messageOf(text.join(''));
  const call = callOf(args.join(''));
  return [
    { type: 'response.created', response: { ...inProgress, completed_at: null } },
    { type: 'response.in_progress', response: { ...inProgress, completed_at: null } },
    {
      type: 'response.output_item.added',
      output_index: 0,
      item: { id: REASONING_ID, type: 'reasoning', summary: [] },
    },
    { type: 'response.reasoning_summary_part.added', ...summary, part: { type: 'summary_text', text: '' } },
    ...SUMMARY.map((delta) => ({
      type: 'response.reasoning_summary_text.delta',
      ...summary,
      delta,
      obfuscation: 'Xq3',
    })),
    { type: 'response.reasoning_summary_text.done', ...summary, text: SUMMARY.join('') },
    {
      type: 'response.reasoning_summary_part.done',
      ...summary,
      part: { type: 'summary_text', text: SUMMARY.join('') },
    },
    { type: 'response.output_item.done', output_index: 0, item: reasoning },
    {
      type: 'response.output_item.added',
      output_index: 1,
      item: { id: MESSAGE_ID, type: 'message', status: 'in_progress', content: [], role: 'assistant' },
    },
    {
      type: 'response.content_part.added',
      ...part,
      part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
    },
    ...text.map((delta) => ({
      type: 'response.output_text.delta',
      ...part,
      delta,
      logprobs: [],
      obfuscation: 'k9Zp1',
    })),
    { type: 'response.output_text.done', ...part, text: text.join(''), logprobs: [] },
    { type: 'response.content_part.done', ...part, part: message.content[0] },
    { type: 'response.output_item.done', output_index: 1, item: message },
    {
      type: 'response.output_item.added',
      output_index: 2,
      item: { ...call, status: 'in_progress', arguments: '' },
    },
    ...args.map((delta) => ({
      type: 'response.function_call_arguments.delta',
      ...at(CALL_ITEM_ID, 2),
      delta,
      obfuscation: 'r2',
    })),
    {
      type: 'response.function_call_arguments.done',
      ...at(CALL_ITEM_ID, 2),
      name: 'get_weather',
      arguments: args.join(''),
    },
    { type: 'response.output_item.done', output_index: 2, item: call },
    { type: 'response.completed', response: completedWith(text.join(''), args.join('')) },
  ];
};

/**
 * The recorded stream's events' data, numbered from 0, with its message text and call arguments in
 * the given deltas (fresh objects each call: observers rewrite events in place).
 */
export function recordedEvents(text = TEXT, args = ARGUMENTS): Record<string, unknown>[] {
  return structuredClone(eventsWith(text, args)).map((data, sequence_number) => {
    const { type, ...rest } = data;
    return { type, sequence_number, ...rest };
  });
}

/** One event as OpenAI frames it: its `event:` line and its data. */
export const frame = (data: Record<string, unknown>) =>
  `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;

/** The recorded stream as SSE frames, one string per event. */
export const recordedFrames = (events = recordedEvents()) => events.map(frame);

/** Parses a relayed SSE text back into its events' data, checking each `event:` line names its `type`. */
export function parseFrames(text: string): Record<string, unknown>[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const name = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const data = JSON.parse(lines.find((l) => l.startsWith('data: '))!.slice(6)) as Record<string, unknown>;
      if (name !== data.type) throw new Error(`event line ${name} does not name ${String(data.type)}`);
      return data;
    });
}
