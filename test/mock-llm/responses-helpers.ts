/**
 * Helpers for the mock's Responses API tests: requests, the parsed event
 * stream, and the exact field sets OpenAI's published types give each object
 * and event (openai/resources/responses/responses.d.ts), so a test fails when
 * the mock adds, drops or renames a field.
 */
import { SELF } from 'cloudflare:test';
import { expect } from 'vitest';
import { BASE, parseSse, postOpenAI } from './helpers';

export type Json = Record<string, unknown>;

export interface ResponseEvent {
  readonly event: string | undefined;
  readonly data: Json & { type: string; sequence_number: number };
}

export async function create(body: Json, key = 'test-key'): Promise<Json> {
  const res = await postOpenAI('/v1/responses', body, { authorization: `Bearer ${key}` });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Json;
}

export async function createStream(body: Json, key = 'test-key'): Promise<ResponseEvent[]> {
  const res = await postOpenAI(
    '/v1/responses',
    { ...body, stream: true },
    { authorization: `Bearer ${key}` },
  );
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return parseSse(await res.text()).map((e) => ({ event: e.event, data: JSON.parse(e.data) }));
}

/** The 400 (or other) error body of a request that must fail. */
export async function rejected(body: Json, status = 400, key = 'test-key'): Promise<Json> {
  const res = await postOpenAI('/v1/responses', body, { authorization: `Bearer ${key}` });
  expect(res.status, await res.clone().text()).toBe(status);
  return ((await res.json()) as { error: Json }).error;
}

export function get(path: string, key = 'test-key', method = 'GET'): Promise<Response> {
  return SELF.fetch(`${BASE}${path}`, { method, headers: { authorization: `Bearer ${key}` } });
}

/** The `Response` object's fields (required and optional ones the mock sends). */
export const RESPONSE_KEYS = [
  'id',
  'object',
  'created_at',
  'status',
  'background',
  'completed_at',
  'error',
  'incomplete_details',
  'instructions',
  'max_output_tokens',
  'model',
  'output',
  'parallel_tool_calls',
  'previous_response_id',
  'prompt_cache_key',
  'reasoning',
  'safety_identifier',
  'service_tier',
  'store',
  'temperature',
  'text',
  'tool_choice',
  'tools',
  'top_logprobs',
  'top_p',
  'truncation',
  'usage',
  'user',
  'metadata',
];

/** Each stream event's fields besides type and sequence_number. */
export const EVENT_KEYS: Readonly<Record<string, readonly string[]>> = {
  'response.created': ['response'],
  'response.in_progress': ['response'],
  'response.completed': ['response'],
  'response.incomplete': ['response'],
  'response.output_item.added': ['output_index', 'item'],
  'response.output_item.done': ['output_index', 'item'],
  'response.content_part.added': ['item_id', 'output_index', 'content_index', 'part'],
  'response.content_part.done': ['item_id', 'output_index', 'content_index', 'part'],
  'response.output_text.delta': [
    'item_id',
    'output_index',
    'content_index',
    'delta',
    'logprobs',
    'obfuscation',
  ],
  'response.output_text.done': ['item_id', 'output_index', 'content_index', 'text', 'logprobs'],
  'response.reasoning_summary_part.added': ['item_id', 'output_index', 'summary_index', 'part'],
  'response.reasoning_summary_part.done': ['item_id', 'output_index', 'summary_index', 'part'],
  'response.reasoning_summary_text.delta': [
    'item_id',
    'output_index',
    'summary_index',
    'delta',
    'obfuscation',
  ],
  'response.reasoning_summary_text.done': ['item_id', 'output_index', 'summary_index', 'text'],
  'response.function_call_arguments.delta': ['item_id', 'output_index', 'delta', 'obfuscation'],
  'response.function_call_arguments.done': ['item_id', 'output_index', 'name', 'arguments'],
  'response.custom_tool_call_input.delta': ['item_id', 'output_index', 'delta', 'obfuscation'],
  'response.custom_tool_call_input.done': ['item_id', 'output_index', 'input'],
};

const sorted = (keys: Iterable<string>): string[] => [...keys].sort();

/** Every event has an `event:` line equal to its type, the documented fields only, and sequence numbers 0, 1, 2, … */
export function expectWellFormed(events: readonly ResponseEvent[]): void {
  expect(events.length).toBeGreaterThan(2);
  for (const [i, { event, data }] of events.entries()) {
    expect(event).toBe(data.type);
    expect(data.sequence_number).toBe(i);
    const keys = EVENT_KEYS[data.type];
    expect(keys, `unexpected event ${data.type}`).toBeDefined();
    expect(sorted(Object.keys(data))).toEqual(sorted(['type', 'sequence_number', ...(keys ?? [])]));
    if ('response' in data) expect(sorted(Object.keys(data.response as Json))).toEqual(sorted(RESPONSE_KEYS));
  }
}

export const types = (events: readonly ResponseEvent[]): string[] => events.map((e) => e.data.type);

/** The terminal event's response object. */
export function finalResponse(events: readonly ResponseEvent[]): Json {
  return events.at(-1)?.data.response as Json;
}

/** The text of the answer's message item ("" when it has none). */
export function messageText(response: Json): string {
  const message = (response.output as Json[]).find((item) => item.type === 'message');
  const content = (message?.content ?? []) as { text?: string }[];
  return content[0]?.text ?? '';
}
