/**
 * Test helpers for the mock LLM: requests with the right credentials, and a
 * small SSE parser that keeps unparsable events visible instead of dropping them.
 */
import { SELF } from 'cloudflare:test';

export const BASE = 'http://mock';

export function postOpenAI(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return SELF.fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: { authorization: 'Bearer test-key', 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export function postAnthropic(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return SELF.fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: {
      'x-api-key': 'test-key',
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/** Splits an SSE body into events (blank-line separated; `event:` and `data:` fields). */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    if (block.trim() === '') continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    events.push({ event, data: data.join('\n') });
  }
  return events;
}

/** JSON of an event's data, or undefined when it does not parse. */
export function tryJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/** Minimal typing for the OpenAI chunks the tests look into. */
export interface Chunk {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: {
    index: number;
    delta: { role?: string; content?: string | null; tool_calls?: ToolCallDelta[] };
    finish_reason: string | null;
  }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
}

export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: string;
  function: { name?: string; arguments: string };
}

/** The JSON chunks of an OpenAI stream, without the [DONE] terminator. */
export function chunksOf(events: readonly SseEvent[]): Chunk[] {
  return events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data) as Chunk);
}

/** Concatenated delta content of an OpenAI stream. */
export function streamedText(chunks: readonly Chunk[]): string {
  return chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
}

export const USER_HELLO = [{ role: 'user', content: 'Hello there, mock.' }];
